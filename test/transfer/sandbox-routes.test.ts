import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { runTransfer } from '../../src/pipeline/transfer.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { transferRouteModule } from '../../src/sandbox/transfer/route-module.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { clientFor } from './helpers.js';

// The transfer routes mounted in the full sandbox: the API routes want the key, the download address does not.

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, extraRoutes: [transferRouteModule] } as Parameters<typeof startSandbox>[0]);
});
afterAll(async () => sb.close());

describe('transfer routes in the sandbox', () => {
  it('list with the key, refuse without it, and a whole run loads every completed file', async () => {
    expect((await fetch(`${sb.url}/transfer-file`)).status).toBe(401);
    const dir = mkdtempSync(join(tmpdir(), 'transfer-sb-'));
    const { api } = clientFor(sb.url);
    const wh = await Warehouse.open(join(dir, 'wh.duckdb'));
    try {
      const s = await runTransfer({ api, wh, stagingDir: join(dir, 'staging'), runId: 'sb', log: pino({ level: 'silent' }), retries: 1, backoffMs: 5 });
      expect(s).toMatchObject({ listed: 10, loaded: 10, failed: [] });
      const [{ n }] = await wh.all<{ n: number }>(`SELECT count(*)::INTEGER n FROM transfer_files WHERE status = 'downloaded'`);
      expect(n).toBe(10);
    } finally {
      await api.close();
      await wh.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
