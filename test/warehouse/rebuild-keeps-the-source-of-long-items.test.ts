import { afterEach, describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../src/spec/types.js';
import { startRun } from '../../src/warehouse/ledger.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { rebuildFromRaw } from '../../src/warehouse/rebuild.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { cnj, lawsuitItem, richLawsuit } from './fixtures.js';

// An item longer than a column holds (48 KB) is kept in raw_parts, its responses_raw.item NULL. `rebuild` puts
// it back together, and must replay it as what it was: an answer of the synchronous historical query
// (tags.sync_query, as src/pipeline/sync.ts writes it) is loaded with source 'historical', long or short.

let whs: Warehouse[] = [];
afterEach(async () => { await Promise.all(whs.map((w) => w.close())); whs = []; });

const historical = { cached_response: false, sync_query: 'historical' };

function item(i: number, steps: number, tags?: Record<string, unknown>): ResponseItem {
  const l = richLawsuit({
    code: cnj(i),
    steps: Array.from({ length: steps }, (_, k) => ({ step_id: `s${k}`, step_date: '2020-01-02T03:04:05.000Z', content: `andamento ${k} ${'x'.repeat(200)}` })),
  });
  return lawsuitItem(l, { response_id: `r-${i}`, ...(tags ? { tags } : {}) });
}

describe('rebuild keeps the source of long items', () => {
  it('a long synchronous historical item is replayed as historical, among short and long ones of either source', async () => {
    const wh = await Warehouse.open(':memory:');
    whs.push(wh);
    const runId = await startRun(wh, { command: 'nightly' });
    await loadResponseItems(wh, [item(1, 3)], { runId });
    await loadResponseItems(wh, [item(2, 400, historical), item(3, 2, historical)], { runId, source: 'historical' });
    await loadResponseItems(wh, [item(4, 400), item(5, 1)], { runId });
    await loadResponseItems(wh, [item(6, 400, historical)], { runId, source: 'historical' });
    const [{ long }] = await wh.all<{ long: number }>(`SELECT count(*)::INTEGER AS long FROM responses_raw WHERE item IS NULL`);
    expect(long).toBe(3);
    const sources = () => wh.all<{ code: string; source: string }>(`SELECT code, source FROM lawsuits ORDER BY code`);
    const before = await sources();
    expect(before.map((r) => r.source)).toEqual(['async', 'historical', 'historical', 'async', 'async', 'historical']);
    const result = await rebuildFromRaw(wh, { chunkItems: 4 });
    expect(result.items).toBe(6);
    expect(await sources()).toEqual(before);
  });
});
