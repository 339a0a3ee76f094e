import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EtlError } from '../shared/errors.js';
import type { HealthReport } from './health.js';

// The scheduler's HTTP port: `/healthz` (readiness: the jobs are loaded and none is failing or stale),
// `/livez` (liveness: the process answers), `/metrics` (Prometheus text). Nothing else is served, and nothing
// there is secret: job names, counts and durations.

interface MetricsServerOptions {
  /** 0: a port the system picks. */
  port: number;
  /** Default all interfaces (Node's default: `::` where IPv6 is on, else 0.0.0.0). */
  host?: string;
  /** The health now, or undefined while the scheduler is still starting. */
  health(): HealthReport | undefined;
  metrics(): Promise<string>;
  contentType: string;
}

export interface MetricsServer {
  /** The port it listens on (the one the system picked when asked for 0). */
  port: number;
  /** An address to reach it from this host, e.g. http://127.0.0.1:9464. */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(opts: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    handle(req, res, opts).catch((e: unknown) => send(res, 500, 'text/plain; charset=utf-8', `${(e as Error)?.message ?? 'error'}\n`));
  });
  // A scrape or probe that hangs must not hold a socket for ever.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(new EtlError('SCHEDULE_METRICS_LISTEN',
      `cannot serve /healthz and /metrics on ${opts.host ?? 'all interfaces'} port ${opts.port} (${e.code ?? e.message}): choose another LAWSUIT_METRICS_PORT / --metrics-port, or leave it unset`,
      { usage: true, cause: e })));
    server.listen({ port: opts.port, host: opts.host }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const local = !opts.host || opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host === '::' ? '[::1]' : opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    port,
    url: `http://${local}:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, opts: MetricsServerOptions): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return send(res, 405, 'text/plain; charset=utf-8', 'only GET and HEAD\n');
  }
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/metrics') return send(res, 200, opts.contentType, await opts.metrics());
  if (path === '/livez') return send(res, 200, 'text/plain; charset=utf-8', 'alive\n');
  if (path === '/healthz') {
    const h = opts.health();
    const body = h ?? { status: 'starting', problems: ['the scheduler is still loading its jobs'], jobs: [] };
    return send(res, h?.status === 'ok' ? 200 : 503, 'application/json; charset=utf-8', `${JSON.stringify(body, null, 2)}\n`);
  }
  send(res, 404, 'text/plain; charset=utf-8', 'not found: /healthz, /livez and /metrics are served here\n');
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
