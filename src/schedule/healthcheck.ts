import { readConfiguration } from '../shared/config.js';
import { OPTIONS } from '../shared/options/table.js';

// The container's HEALTHCHECK (`node dist/schedule/healthcheck.js`): the slim image has no curl, so node asks
// the scheduler's /healthz itself. Exit 0 when it answers 200, 1 otherwise, with one line saying why (Docker
// keeps it in `docker inspect`). Reads the port and address as `schedule` does (flag aside: variable, then the
// config file), so that it asks where the scheduler listens; a wildcard listening address is reached on the loopback.

const { cfg, problems: configured } = readConfiguration({ command: 'schedule' });
const port = cfg.metricsPort;
const host = cfg.metricsHost;
/** A port or address `schedule` itself would refuse (then it is not serving): say why, as it would. */
const refused = configured.filter((p) => p.includes(OPTIONS.metricsPort.env) || p.includes(OPTIONS.metricsHost.env));

async function check(): Promise<number> {
  if (refused.length) {
    console.log(`${refused.join('; ')}: \`schedule\` refuses it too, so it serves no health to check`);
    return 1;
  }
  if (port === undefined) {
    console.log('LAWSUIT_METRICS_PORT is not set: the scheduler serves no health to check');
    return 0;
  }
  if (port === 0) {
    console.log('LAWSUIT_METRICS_PORT="0": give a fixed port (1-65535) for the health check to reach');
    return 1;
  }
  const target = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${target}:${port}/healthz`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    const body = await res.text();
    let problems: string[] = [];
    try {
      problems = (JSON.parse(body) as { problems?: string[] }).problems ?? [];
    } catch {
      problems = [body.slice(0, 200)];
    }
    console.log(res.status === 200 ? `healthy (${url})` : `unhealthy (${res.status}): ${problems.join('; ')}`);
    return res.status === 200 ? 0 : 1;
  } catch (e) {
    console.log(`no answer from ${url}: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`);
    return 1;
  }
}

process.exitCode = await check();
