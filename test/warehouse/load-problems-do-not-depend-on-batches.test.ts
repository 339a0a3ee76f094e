import { afterEach, describe, expect, it } from 'vitest';
import type { Lawsuit, ResponseItem } from '../../src/spec/types.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { cnj, lawsuitItem, richLawsuit } from './fixtures.js';

// load_problems, like every table the loader writes, must not depend on where batch boundaries fell. The casts
// DuckDB makes (dates, amounts) are found in the staged lawsuits; a batch with a lawsuit twice stages and merges
// them in layers (load.ts, layersOf), so a problem of any layer, not only the last, must reach load_problems.

let whs: Warehouse[] = [];
afterEach(async () => { await Promise.all(whs.map((w) => w.close())); whs = []; });

const crawl = (day: number): Partial<Lawsuit> => ({ crawler: { updated_at: `2024-02-0${day}T00:00:00.000Z` } });

/** Lawsuits once, twice and three times, their bad values in first, middle and last copies, and a bad response date. */
function items(): ResponseItem[] {
  const once = richLawsuit({ code: cnj(1), distribution_date: 'not a date', amount: '12,50' as never });
  const twice = (day: number, over: Partial<Lawsuit>) => richLawsuit({ code: cnj(2), ...crawl(day), ...over });
  const thrice = (day: number, over: Partial<Lawsuit>) => richLawsuit({ code: cnj(3), ...crawl(day), ...over });
  return [
    lawsuitItem(once, { response_id: 'once' }),
    lawsuitItem(twice(1, { updated_at: 'ontem' }), { response_id: 'twice-1' }),
    lawsuitItem(thrice(1, { steps: [{ step_id: 'x', step_date: '31/02/2020', content: 'a' }] }), { response_id: 'thrice-1' }),
    lawsuitItem(twice(2, {}), { response_id: 'twice-2' }),
    lawsuitItem(thrice(2, { attachments: [{ attachment_date: 'amanhã', attachment_name: 'b.pdf' }] }), { response_id: 'thrice-2' }),
    lawsuitItem(thrice(3, { amount: 1e30 }), { response_id: 'thrice-3', created_at: 'não é data' }),
    lawsuitItem(richLawsuit({ code: cnj(4), created_at: 'hoje' }), { response_id: 'after' }),
  ];
}

async function problems(batchSize: number): Promise<unknown[]> {
  const wh = await Warehouse.open(':memory:');
  whs.push(wh);
  await loadResponseItems(wh, items(), { runId: 'run-1', batchSize });
  return wh.all(`SELECT response_id, code, instance, field, value, problem, detail FROM load_problems ORDER BY response_id, field`);
}

describe('load_problems does not depend on batch boundaries', () => {
  it('one batch, one item per batch and batches of three record the same problems', async () => {
    const oneByOne = await problems(1);
    expect(oneByOne.map((p) => { const { response_id, field, problem } = p as Record<string, string>; return `${response_id} ${field} ${problem}`; })).toEqual([
      'after created_at not_a_date',
      'once amount not_a_number',
      'once distribution_date not_a_date',
      'thrice-1 steps[x].step_date not_a_date',
      'thrice-2 attachments[h_abc973237bd9b79d50d32138a88efc2a].attachment_date not_a_date',
      'thrice-3 amount out_of_range',
      'thrice-3 created_at (of the response item) not_a_date',
      'twice-1 updated_at not_a_date',
    ]);
    expect(await problems(10_000)).toEqual(oneByOne);
    expect(await problems(3)).toEqual(oneByOne);
  });
});
