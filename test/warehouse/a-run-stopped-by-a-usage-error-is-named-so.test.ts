import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { MIGRATIONS } from '../../src/warehouse/migrations/index.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// A run a usage error stopped is `usage-error` (pipeline/outcome.ts); a warehouse made before migration 140 called
// it `failed`. The migration names its old runs so, in runs.status and in the summary a report written again reads,
// and leaves every other run as it was.

const tmp = scratch('usage-error-');
afterAll(() => tmp.cleanup());

test('a warehouse whose runs say failed for a usage error says usage-error once migrated, in the status and the summary (migration 140)', async () => {
  const path = join(tmp.dir, 'old.duckdb');
  const old = await Warehouse.open(path, { migrations: MIGRATIONS.filter((m) => m.version < 140) });
  await old.run(`INSERT INTO runs (run_id, started_at, status, summary) VALUES
    ('usage', '2026-01-01T00:00:00Z', 'failed', '{"status":"failed","exitCode":2,"command":"run"}'),
    ('fine', '2026-01-02T00:00:00Z', 'ok', '{"status":"ok","exitCode":0,"command":"run"}'),
    ('bare', '2026-01-03T00:00:00Z', 'failed', NULL)`);
  await old.close();
  const now = await Warehouse.open(path);
  const rows = await now.all<{ run_id: string; status: string; summary: string | null }>(`SELECT run_id, status, summary::VARCHAR AS summary FROM runs ORDER BY run_id`);
  expect(rows.map((r) => ({ ...r, summary: r.summary === null ? null : JSON.parse(r.summary) as unknown }))).toEqual([
    { run_id: 'bare', status: 'usage-error', summary: null },
    { run_id: 'fine', status: 'ok', summary: { status: 'ok', exitCode: 0, command: 'run' } },
    { run_id: 'usage', status: 'usage-error', summary: { status: 'usage-error', exitCode: 2, command: 'run' } },
  ]);
  await now.close();
});
