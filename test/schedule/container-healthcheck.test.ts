import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleService, type ScheduleService } from '../../src/schedule/service.js';
import { captureLog, workspace } from './fixtures.js';
import { transpileForChildren } from './transpile.js';

// The Dockerfile's HEALTHCHECK runs `node dist/schedule/healthcheck.js` in the container; here the same
// script, as its own process, against a scheduler serving /healthz.

let built: string;
let service: ScheduleService | undefined;
let root: string | undefined;
beforeAll(() => { built = transpileForChildren(); });
afterAll(() => { rmSync(built, { recursive: true, force: true }); });
afterEach(async () => {
  await service?.stop();
  service = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
});

function healthcheck(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(built, 'src/schedule/healthcheck.js')], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => { out += String(d); });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out }));
  });
}

async function serve(state: Record<string, object>): Promise<string> {
  const ws = workspace({ nightly: { cron: '0 2 * * *', period_hours: 24 } });
  root = ws.root;
  mkdirSync(dirname(ws.statePath), { recursive: true });
  writeFileSync(ws.statePath, JSON.stringify({ version: 1, jobs: state }));
  service = await startScheduleService({
    ...ws, runner: async () => ({ code: 0 }), log: captureLog().log, metricsPort: 0, metricsHost: '127.0.0.1', healthMaxFailures: 3,
  });
  return String(service.server!.port);
}

describe('the container health check', () => {
  it('passes when /healthz answers 200', async () => {
    const port = await serve({ nightly: { last_success_started_at: new Date().toISOString() } });
    expect(await healthcheck({ LAWSUIT_METRICS_PORT: port, LAWSUIT_METRICS_HOST: '127.0.0.1' })).toEqual({ code: 0, out: `healthy (http://127.0.0.1:${port}/healthz)\n` });
    // A wildcard listening address is reached on the loopback.
    expect((await healthcheck({ LAWSUIT_METRICS_PORT: port, LAWSUIT_METRICS_HOST: '0.0.0.0' })).code).toBe(0);
  });

  it('fails with the reason when /healthz answers 503', async () => {
    const port = await serve({ nightly: { last_success_started_at: new Date().toISOString(), consecutive_failures: 4, last_exit_code: 1 } });
    expect(await healthcheck({ LAWSUIT_METRICS_PORT: port })).toEqual({ code: 1, out: 'unhealthy (503): nightly: the last 4 runs failed (last exit code 1)\n' });
  });

  it('fails when nothing answers, and says there is nothing to check when the port is off', async () => {
    const port = await serve({});
    await service!.stop();
    service = undefined;
    const down = await healthcheck({ LAWSUIT_METRICS_PORT: port });
    expect(down.code).toBe(1);
    expect(down.out).toMatch(new RegExp(`^no answer from http://127\\.0\\.0\\.1:${port}/healthz: .*ECONNREFUSED`));
    expect(await healthcheck({})).toEqual({ code: 0, out: 'LAWSUIT_METRICS_PORT is not set: the scheduler serves no health to check\n' });
    expect((await healthcheck({ LAWSUIT_METRICS_PORT: '0' })).code).toBe(1);
  });
});
