import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocuments } from '../../src/input/documents.js';
import { readHistory } from '../../src/pipeline/history.js';
import { planRun, plannedDocument } from '../../src/pipeline/plan.js';
import { upsertRequest } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// LAWSUIT_FRESHNESS_DAYS counts days on our clock, from when we searched: the provider's completed_at is on its
// clock, and a provider a day ahead made every document searched the night before "fresh" for as long as its
// clock stayed ahead (a negative age is under any freshness, 0 days included: the two-levels bench's searches
// nights 3 to 5 against the sandbox, whose clock is moved a day a night, bought nothing).

describe('a document\'s freshness', () => {
  const tmp = scratch();
  let wh: Warehouse;
  beforeAll(async () => { wh = await Warehouse.open(join(tmp.dir, 'w.duckdb')); });
  afterAll(async () => { await wh.close(); tmp.cleanup(); });

  it('is the time since we searched it, whatever the provider\'s clock stamped on its completion', async () => {
    const list = parseDocuments(['search_key,search_type', '09206529722,cpf', '11222333000181,cnpj'].join('\n'));
    const [cpf, cnpj] = list.documents.map(plannedDocument);
    const now = new Date('2026-06-10T12:00:00Z');
    const hours = (h: number) => new Date(now.getTime() + h * 3_600_000);
    // searched two days ago by our clock, completed "tomorrow" by a provider a day and a half ahead
    // searched two hours ago by our clock, completed three days ago by a provider behind
    for (const [id, p, ours, theirs] of [['r-cpf', cpf, hours(-48), hours(+12)], ['r-cnpj', cnpj, hours(-2), hours(-72)]] as const) {
      await upsertRequest(wh, { request_id: id, search_type: p.search.search_type, search_key: p.search.search_key, status: 'completed', created_at: theirs, search: p.search });
      await wh.run(`UPDATE requests SET submitted_at = $2::TIMESTAMPTZ, loaded_at = $2::TIMESTAMPTZ, completed_at = $3::TIMESTAMPTZ WHERE request_id = $1`, [id, ours, theirs]);
    }
    const plan = planRun(list.documents, await readHistory(wh), { now, freshnessDays: 1, force: false, pageSize: 100 });
    expect(plan.submit.map((p) => p.search.search_type)).toEqual(['cpf']);
    expect(plan.fresh.map((p) => [p.search.search_type, p.lastSuccessAt.toISOString()])).toEqual([['cnpj', hours(-2).toISOString()]]);
  });
});
