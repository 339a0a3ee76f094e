import { afterEach, describe, expect, it } from 'vitest';
import type { Lawsuit, ResponseItem } from '../../src/spec/types.js';
import { startRun } from '../../src/warehouse/ledger.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { rebuildFromRaw } from '../../src/warehouse/rebuild.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { cnj, lawsuitItem, richLawsuit } from './fixtures.js';

// One response_id listed twice with two contents (a provider's fault). It was kept silently: lawsuits merged
// the later copy while responses_raw kept the first, and `rebuild` then changed two lawsuits — the warehouse no
// longer a function of what was stored. Now the copy loaded first is the response, a later one with another
// content is left out whole and recorded as a load problem, in one batch or across batches and runs alike, and
// rebuild gives the same tables.

let whs: Warehouse[] = [];
afterEach(async () => { await Promise.all(whs.map((w) => w.close())); whs = []; });

const crawled = (at: string) => ({ crawler: { source_name: 'x', crawl_id: at, weight: 0, updated_at: at } });
const steps = (n: number, tag: string) => Array.from({ length: n }, (_, k) => ({ step_id: `s${k}`, step_date: '2020-01-02T03:04:05.000Z', content: `${tag} ${k} ${'x'.repeat(200)}` }));

/** The first copies (an older crawl) and the later ones: another name, another lawsuit, a long item's step changed. */
function copies(): { first: ResponseItem[]; later: ResponseItem[] } {
  const item = (id: string, l: Partial<Lawsuit>, request = 'req-1') => lawsuitItem(richLawsuit(l), { response_id: id, request_id: request });
  return {
    first: [
      item('dup-1', { code: cnj(1), name: 'A', ...crawled('2024-01-01T00:00:00Z') }),
      item('dup-2', { code: cnj(2), name: 'B', ...crawled('2024-01-01T00:00:00Z') }),
      item('dup-3', { code: cnj(4), steps: steps(400, 'first'), ...crawled('2024-01-01T00:00:00Z') }),
      item('same', { code: cnj(5), name: 'E', ...crawled('2024-01-01T00:00:00Z') }),
    ],
    later: [
      item('dup-1', { code: cnj(1), name: 'A again', ...crawled('2024-06-01T00:00:00Z') }),
      item('dup-2', { code: cnj(3), name: 'C', ...crawled('2024-06-01T00:00:00Z') }, 'req-2'),
      item('dup-3', { code: cnj(4), steps: steps(400, 'later'), ...crawled('2024-06-01T00:00:00Z') }),
      item('same', { code: cnj(5), name: 'E', ...crawled('2024-01-01T00:00:00Z') }),
    ],
  };
}

async function tables(wh: Warehouse) {
  const q = (sql: string) => wh.all(sql);
  return {
    lawsuits: await q('SELECT code, name, response_id FROM lawsuits ORDER BY code'),
    steps: await q(`SELECT code, count(*)::INTEGER AS n, min(content) AS first FROM steps GROUP BY code ORDER BY code`),
    hits: await q('SELECT request_id, code, response_id FROM search_hits ORDER BY ALL'),
    problems: await q(`SELECT response_id, field, problem, value LIKE '{%' AS has_text FROM load_problems ORDER BY response_id`),
    raw: await q(`SELECT response_id, CAST(item AS VARCHAR) IS NULL AS long FROM responses_raw ORDER BY response_id`),
  };
}

const arrangements: Array<[string, (wh: Warehouse, first: ResponseItem[], later: ResponseItem[]) => Promise<void>]> = [
  ['in one batch', async (wh, first, later) => { await loadResponseItems(wh, [...first, ...later], { runId: await startRun(wh, { command: 'run' }) }); }],
  ['one item a batch', async (wh, first, later) => { await loadResponseItems(wh, [...first, ...later], { runId: await startRun(wh, { command: 'run' }), batchSize: 1 }); }],
  ['on two nights', async (wh, first, later) => {
    await loadResponseItems(wh, first, { runId: await startRun(wh, { command: 'run' }) });
    await loadResponseItems(wh, later, { runId: await startRun(wh, { command: 'run' }) });
  }],
];

describe('one response id listed twice with two contents', () => {
  it.each(arrangements)('keeps the copy loaded first, records the other as a load problem (%s), and rebuild gives the same tables', async (_how, load) => {
    const wh = await Warehouse.open(':memory:');
    whs.push(wh);
    const { first, later } = copies();
    await load(wh, first, later);
    const t = await tables(wh);
    expect(t.lawsuits).toEqual([
      { code: cnj(1), name: 'A', response_id: 'dup-1' },
      { code: cnj(2), name: 'B', response_id: 'dup-2' },
      { code: cnj(4), name: expect.anything(), response_id: 'dup-3' },
      { code: cnj(5), name: 'E', response_id: 'same' },
    ]);
    expect(t.steps.find((s) => s.code === cnj(4))).toMatchObject({ n: 400, first: expect.stringMatching(/^first /) });
    expect(t.hits).toEqual([
      { request_id: 'req-1', code: cnj(1), response_id: 'dup-1' },
      { request_id: 'req-1', code: cnj(2), response_id: 'dup-2' },
      { request_id: 'req-1', code: cnj(4), response_id: 'dup-3' },
      { request_id: 'req-1', code: cnj(5), response_id: 'same' },
    ]);
    // an identical copy is the same response: no problem
    expect(t.problems).toEqual(['dup-1', 'dup-2', 'dup-3'].map((id) => ({ response_id: id, field: '(another copy)', problem: 'conflicting_duplicate', has_text: true })));
    expect(t.raw).toEqual([{ response_id: 'dup-1', long: false }, { response_id: 'dup-2', long: false }, { response_id: 'dup-3', long: true }, { response_id: 'same', long: false }]);

    await rebuildFromRaw(wh);
    expect(await tables(wh)).toEqual(t);
  });
});
