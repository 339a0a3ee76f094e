import { afterAll, expect, test } from 'vitest';
import { join } from 'node:path';
import { parseResponsesPage } from '../../src/api/responses.js';
import type { ResponseItem } from '../../src/spec/types.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// Memory bounded by bytes, at the run's 128 MB of DuckDB (load-budget.ts): large lawsuits load, a lawsuit too
// large to flatten is kept raw with a problem and the rest of its page loads, and the big values DuckDB cannot
// spill are checkpointed out of memory as they accumulate.

const tmp = scratch();
afterAll(() => tmp.cleanup());
let n = 0;
const open = () => Warehouse.open(join(tmp.dir, `w${++n}.duckdb`), { memoryLimit: '128MB', threads: 1 });

const CODE = (i: number): string => `${String(1000000 + i).padStart(7, '0')}-00.2020.8.26.0100`;
function lawsuitText(i: number, opts: { content?: string; steps?: number } = {}): string {
  const steps = Array.from({ length: opts.steps ?? 3 }, (_, s) =>
    `{"step_id":"${s}","step_date":"2020-01-01T00:00:00Z","content":"${s === 0 && opts.content ? opts.content : `Movimento ${s}: juntada de peticao e conclusao ao juiz`}"}`);
  return `{"code":"${CODE(i)}","instance":1,"name":"L${i}","parties":[{"name":"P${i}"}],"steps":[${steps.join(',')}]}`;
}
/** A page as the service sends it, parsed the way the API client does (each item remembering its text). */
let responses = 0;
function page(lawsuits: string[]): ResponseItem[] {
  const items = lawsuits.map((l) => `{"response_id":"r${++responses}","request_id":"q","response_type":"lawsuit","created_at":"2024-01-01T00:00:00Z","response_data":${l}}`);
  return parseResponsesPage(`{"page":1,"page_data":[${items.join(',')}]}`).items;
}
const counts = (wh: Warehouse) => wh.all<{ l: number; r: number; s: number; p: number }>(
  'SELECT (SELECT count(*) FROM lawsuits) AS l, (SELECT count(*) FROM responses_raw) AS r, (SELECT count(*) FROM steps) AS s, (SELECT count(*) FROM load_problems) AS p');

test('a page of 99 lawsuits and one of 10 MB loads whole in one transaction, as the page sink commits it', async () => {
  const wh = await open();
  try {
    const big = 'x'.repeat(10 * 2 ** 20);
    const items = page(Array.from({ length: 100 }, (_, i) => lawsuitText(i, i === 50 ? { content: big } : {})));
    await wh.transaction(() => loadResponseItems(wh, items, { runId: 'run' }));
    // the 10 MB step content is too long for a column: NULL there, said, and whole in the lawsuit's raw
    expect(await counts(wh)).toEqual([{ l: 100, r: 100, s: 300, p: 2 }]);
    expect(await wh.all('SELECT field, problem FROM load_problems ORDER BY field')).toEqual([
      { field: 'steps[0].content', problem: 'too_long' }, { field: 'steps[0].raw', problem: 'too_long' }]);
    const [s] = await wh.all<{ content: string | null }>(`SELECT content FROM steps WHERE code = $1 AND step_id = '0'`, [CODE(50)]);
    expect(s.content).toBeNull();
    const [l] = await wh.all<{ raw: string }>(`SELECT raw::VARCHAR AS raw FROM v_lawsuit_raw WHERE code = $1 AND instance = 1`, [CODE(50)]);
    expect(JSON.parse(l.raw).steps[0].content).toBe(big);
  } finally {
    await wh.close();
  }
});

test('a page of five lawsuits of 20,000 steps each loads in one transaction', async () => {
  const wh = await open();
  try {
    await wh.transaction(() => loadResponseItems(wh, page(Array.from({ length: 5 }, (_, i) => lawsuitText(i, { steps: 20_000 }))), { runId: 'run' }));
    expect(await counts(wh)).toEqual([{ l: 5, r: 5, s: 100_000, p: 0 }]);
  } finally {
    await wh.close();
  }
});

test('a lawsuit larger than the loader flattens is kept raw with a problem, and the rest of its page loads', async () => {
  const wh = await open();
  try {
    expect(wh.budget.maxFlattenBytes).toBeLessThan(20 * 2 ** 20);
    const huge = lawsuitText(1, { content: 'y'.repeat(20 * 2 ** 20) });
    const c = await loadResponseItems(wh, page([lawsuitText(0), huge, lawsuitText(2)]), { runId: 'run' });
    expect(c).toMatchObject({ lawsuits: 2, skipped: 1, problems: 1 });
    expect(await counts(wh)).toEqual([{ l: 2, r: 3, s: 6, p: 1 }]);
    const [p] = await wh.all<{ code: string; field: string; problem: string; value: string }>('SELECT code, field, problem, value FROM load_problems');
    expect(p).toMatchObject({ code: CODE(1), field: '(item)', problem: 'too_large' });
    expect(p.value).toMatch(/^\d+ characters \(limit \d+\)$/);
    // a text of many MB is read part by part (docs/operating.md, "Memory"): joined, the parts are the item as sent
    const parts = await wh.all<{ text: string }>(`SELECT text FROM raw_parts WHERE owner = 'responses_raw.item'
      AND response_id = (SELECT response_id FROM load_problems) ORDER BY part`);
    expect(parts.length).toBeGreaterThan(1000);
    expect(JSON.parse(parts.map((p) => p.text).join('')).response_data).toEqual(JSON.parse(huge));
  } finally {
    await wh.close();
  }
});

test('a night of lawsuits carrying 3 MB strings loads page after page, and checkpoints: no stored value over 48 KB', async () => {
  // Before: after some 20 of them every commit failed ("failed to pin block"), and then the checkpoint (FATAL).
  const wh = await open();
  try {
    const big = (i: number) => String.fromCharCode(97 + (i % 26)).repeat(3 * 2 ** 20);
    for (let i = 0; i < 40; i++) {
      await wh.transaction(() => loadResponseItems(wh, page([lawsuitText(i, { content: big(i) })]), { runId: 'run' }));
    }
    await wh.checkpoint();
    expect(await counts(wh)).toEqual([{ l: 40, r: 40, s: 120, p: 80 }]);
    // the step's content and raw do not fit a column: NULL, said, and whole in the archive
    const problems = await wh.all<{ field: string; n: number }>('SELECT field, count(*) AS n FROM load_problems GROUP BY field ORDER BY field');
    expect(problems).toEqual([{ field: 'steps[0].content', n: 40 }, { field: 'steps[0].raw', n: 40 }]);
    const [longest] = await wh.all<{ n: number }>(`SELECT max(length(text)) AS n FROM raw_parts`);
    expect(longest.n).toBeLessThanOrEqual(16 * 1024);
    const [{ response_id }] = await wh.all<{ response_id: string }>('SELECT response_id FROM lawsuits WHERE code = $1', [CODE(7)]);
    const [{ raw }] = await wh.all<{ raw: string }>('SELECT raw::VARCHAR AS raw FROM v_lawsuit_raw WHERE code = $1 AND instance = 1', [CODE(7)]);
    expect(raw).toBe(lawsuitText(7, { content: big(7) }));
    const [{ item }] = await wh.all<{ item: string }>('SELECT item::VARCHAR AS item FROM v_responses_raw WHERE response_id = $1', [response_id]);
    expect(JSON.parse(item).response_data).toEqual(JSON.parse(raw));
  } finally {
    await wh.close();
  }
});

test('rebuild puts a night of 3 MB lawsuits back together at 128 MB, as it loaded them', async () => {
  // One statement gathering a chunk's long items (string_agg) ran out of memory here; one item at a time does not.
  const { rebuildFromRaw } = await import('../../src/warehouse/rebuild.js');
  const wh = await open();
  try {
    const big = (i: number) => String.fromCharCode(97 + (i % 26)).repeat(3 * 2 ** 20);
    for (let i = 0; i < 40; i++) await wh.transaction(() => loadResponseItems(wh, page([lawsuitText(i, { content: big(i) })]), { runId: 'run' }));
    await wh.run(`INSERT INTO runs (run_id, started_at, status) VALUES ('run', current_timestamp, 'ok')`);
    await wh.checkpoint();
    // each lawsuit's raw, part by part (v_lawsuit_raw would join every one whole at once)
    const raws = () => wh.all(`SELECT code, part, md5(text) AS h FROM raw_parts WHERE owner = 'lawsuits.raw' ORDER BY code, part`);
    const before = await raws();
    expect(before.length).toBeGreaterThan(40 * 190);
    expect(await rebuildFromRaw(wh)).toMatchObject({ runs: 1, items: 40, lawsuits: 40 });
    expect(await counts(wh)).toEqual([{ l: 40, r: 40, s: 120, p: 80 }]);
    expect(await raws()).toEqual(before);
  } finally {
    await wh.close();
  }
});
