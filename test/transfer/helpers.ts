// Shared set-up of the transfer tests: the transfer routes' own server, the real API client pointed at it,
// a fresh warehouse file and a logger whose every line is kept for inspection.

import { DIALECTS } from '../../src/sandbox/dialect.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { HttpClient } from '../../src/api/http.js';
import { AdaptiveLimiter } from '../../src/api/rate-limit.js';
import { TransferFilesResource } from '../../src/api/transfer-files.js';
import { REDACT_PATHS } from '../../src/shared/logger.js';
import { runTransfer, type RunTransferDeps } from '../../src/pipeline/transfer.js';
import { startTransferTestServer, type TransferTestServer, type TransferTestServerOptions } from '../support/transfer-test-server.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

export interface Harness {
  server: TransferTestServer;
  api: TransferFilesResource;
  wh: Warehouse;
  dir: string;
  stagingDir: string;
  whPath: string;
  logs: string[];
  log: Logger;
  run(extra?: Partial<RunTransferDeps>): ReturnType<typeof runTransfer>;
  reopen(): Promise<void>;
  close(): Promise<void>;
}

export function capturingLogger(lines: string[]): Logger {
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  return pino({ level: 'debug', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
}

export function clientFor(baseUrl: string): { http: HttpClient; api: TransferFilesResource } {
  const http = new HttpClient({
    apiKey: 'sandbox-key',
    urls: { requests: baseUrl, tracking: baseUrl, lawsuits: baseUrl, transfer: baseUrl },
    limiter: new AdaptiveLimiter({ maxConcurrency: 4 }),
    retries: 2,
    baseDelayMs: 5,
  });
  return { http, api: new TransferFilesResource(http, { baseDelayMs: 5 }) };
}

export async function harness(opts: TransferTestServerOptions = {}): Promise<Harness> {
  // The spec's reading of the transfer routes; the client's reading of the documented one is tested end to end.
  const server = await startTransferTestServer({ seed: 7, dialect: DIALECTS.spec, ...opts });
  const { api } = clientFor(server.baseUrl);
  const dir = mkdtempSync(join(tmpdir(), 'transfer-test-'));
  const whPath = join(dir, 'wh.duckdb');
  const logs: string[] = [];
  const log = capturingLogger(logs);
  const h: Harness = {
    server, api, wh: await Warehouse.open(whPath), dir, stagingDir: join(dir, 'staging'), whPath, logs, log,
    run: (extra = {}) => runTransfer({ api: h.api, wh: h.wh, stagingDir: h.stagingDir, runId: 'run-1', log, retries: 2, backoffMs: 5, ...extra }),
    async reopen() {
      await h.wh.close();
      h.wh = await Warehouse.open(whPath);
    },
    async close() {
      await h.api.close();
      await h.wh.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}
