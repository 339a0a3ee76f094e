// A server with only the transfer routes, for the transfer tests and the memory benchmark; the full sandbox
// serves the same routes through its own router.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTransferContext, type TransferContext, type TransferSandboxOptions } from '../../src/sandbox/transfer/context.js';
import { transferRoutes } from '../../src/sandbox/transfer/routes.js';

export interface TransferTestServer {
  /** e.g. `http://127.0.0.1:43121` */
  baseUrl: string;
  ctx: TransferContext;
  /** Labels of the routes served, in order, with the status answered (downloads included). */
  calls: Array<{ label: string; status: number }>;
  close(): Promise<void>;
}

export interface TransferTestServerOptions extends TransferSandboxOptions {
  /** The `api-key` the auth routes require. Default `sandbox-key`. */
  apiKey?: string;
}

export async function startTransferTestServer(opts: TransferTestServerOptions = {}): Promise<TransferTestServer> {
  const ctx = createTransferContext(opts);
  const routes = transferRoutes(ctx);
  const apiKey = opts.apiKey ?? 'sandbox-key';
  const calls: TransferTestServer['calls'] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    let label = 'unmatched';
    res.on('close', () => calls.push({ label, status: res.statusCode }));
    for (const r of routes) {
      if (r.method !== req.method) continue;
      const m = r.pattern.exec(url.pathname);
      if (!m) continue;
      label = r.label;
      if (r.auth && req.headers['api-key'] !== apiKey) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'Unauthorized', message: 'invalid api-key', code: 'INVALID_API_KEY' }));
        return;
      }
      r.handler(req, res, m, url).catch((e: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { name: 'InternalError', message: String((e as Error).message), data: [] } }));
        } else res.destroy();
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { name: 'NotFound', message: 'no such route', data: [] } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    ctx,
    calls,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
