import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';
import { cnj, lawsuitItem, richLawsuit } from './fixtures.js';

// Night after night a search by document answers headers of lawsuits held whole: each header wins the row (it is
// newer) and the whole payload's values stay, each with its version in column_versions. The merge read those
// versions with a JSON extraction per carried column, parsing each row's JSON 36 times, and a layer of 1,000
// headers over such rows ran DuckDB past the production 128 MB in that one statement (the levels bench's five
// companies failed every night from their third on). Three payloads of 1,000 lawsuits at the production limit.

const N = 1_000;
const header = (i: number, crawled: string) => ({
  code: cnj(i), instance: 1, name: `Parte ${i} x Banco`, crawler: { updated_at: crawled }, last_step: { step_id: 'st-2', steps_count: 3 },
});

describe('headers over lawsuits held whole', () => {
  const tmp = scratch();
  let wh: Warehouse;
  beforeAll(async () => { wh = await Warehouse.open(join(tmp.dir, 'w.duckdb'), { memoryLimit: '128MB' }); });
  afterAll(async () => { await wh.close(); tmp.cleanup(); });

  it('merge a layer of 1,000 at the production memory limit, keeping what the whole payloads gave', async () => {
    const whole = Array.from({ length: N }, (_, i) => lawsuitItem(richLawsuit({ code: cnj(i), crawler: { updated_at: '2026-01-01T00:00:00.000Z' } })));
    await loadResponseItems(wh, whole, { runId: 'r1', batchSize: N });
    for (const [run, crawled] of [['r2', '2026-01-02T00:00:00.000Z'], ['r3', '2026-01-03T00:00:00.000Z']] as const) {
      const headers = Array.from({ length: N }, (_, i) => lawsuitItem(header(i, crawled) as never));
      const counts = await loadResponseItems(wh, headers, { runId: run, batchSize: N });
      expect(counts.lawsuitsMerged, run).toBe(N);
    }
    const [row] = await wh.all<{ n: number; whole: number; versions: number; named: number }>(`SELECT count(*)::INTEGER AS n,
        count(*) FILTER (WHERE phase = 'Inicial' AND status = 'Ativo' AND amount = 12345.67)::INTEGER AS whole,
        count(*) FILTER (WHERE column_versions IS NOT NULL)::INTEGER AS versions,
        count(*) FILTER (WHERE name LIKE 'Parte % x Banco')::INTEGER AS named FROM lawsuits`);
    expect(row).toEqual({ n: N, whole: N, versions: N, named: N });
  });
});
