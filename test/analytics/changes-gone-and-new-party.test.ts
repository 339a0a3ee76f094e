import { afterAll, beforeAll, expect, it } from 'vitest';
import { join } from 'node:path';
import { detectChanges } from '../../src/warehouse/changes.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// The two kinds the moving sandbox rarely produces on cue: a lawsuit that a search stops returning, and a
// party joining a lawsuit. Built row by row, so the expected changes are known exactly.

const tmp = scratch('changes-gone-');
let wh: Warehouse;

beforeAll(async () => {
  wh = await Warehouse.open(join(tmp.dir, 'wh.duckdb'));
});
afterAll(async () => {
  await wh.close();
  tmp.cleanup();
});

async function request(id: string, run: string, completedAt: string, hits: string[], opts: { pagesLoaded?: number } = {}): Promise<void> {
  // fully loaded: loaded_at set (read-ledger.ts), here when its one page is in
  await wh.run(`INSERT INTO requests (request_id, search_type, search_key, status, created_at, completed_at, run_id, all_pages_count, pages_loaded, loaded_at)
    VALUES ($1, 'cpf', '12345678909', 'completed', $2::TIMESTAMPTZ, $2::TIMESTAMPTZ, $3, 1, $4, CASE WHEN $4 >= 1 THEN $2::TIMESTAMPTZ END)`, [id, completedAt, run, opts.pagesLoaded ?? 1]);
  for (const code of hits) {
    await wh.run(`INSERT INTO search_hits (request_id, code, instance, first_seen_at) VALUES ($1, $2, 1, $3::TIMESTAMPTZ)`, [id, code, completedAt]);
  }
}
async function lawsuit(code: string): Promise<void> {
  await wh.run(`INSERT INTO lawsuits (code, instance, status, phase, amount, loaded_at, raw) VALUES ($1, 1, 'Ativo', 'Inicial', 10.5, now(), '{}')`, [code]);
}
async function party(code: string, index: number, name: string, document: string | null): Promise<void> {
  await wh.run(`INSERT INTO parties (code, instance, party_index, name, document) VALUES ($1, 1, $2, $3, $4)`, [code, index, name, document]);
}

it('finds lawsuits gone from a search, parties new to a lawsuit, and ignores a half-loaded answer', async () => {
  await lawsuit('A');
  await lawsuit('B');
  await lawsuit('C');
  await party('A', 0, 'Ana Souza', '11122233344');
  await request('r1', 'run1', '2025-01-01T00:00:00Z', ['A', 'B', 'C']);
  const first = await detectChanges(wh, 'run1');
  expect(first.counts.new_lawsuit).toBe(3);
  const [r1] = await wh.all<{ search_type: string; search_key: string }>(`SELECT search_type, search_key FROM lawsuit_changes WHERE run_id = 'run1' AND code = 'A'`);
  expect(r1).toEqual({ search_type: 'cpf', search_key: '12345678909' });

  // Night 2: the search's answer is still loading (1 page announced, 0 loaded) and lost B: not a whole answer yet.
  await request('r2', 'run2', '2025-01-02T00:00:00Z', ['A'], { pagesLoaded: 0 });
  const second = await detectChanges(wh, 'run2');
  expect(second.counts.gone_from_search).toBe(0);

  // Night 3: a whole answer without B and C; A gains a party (indexes shift, Ana is the same party by document).
  await request('r3', 'run3', '2025-01-03T00:00:00Z', ['A']);
  await wh.run(`DELETE FROM parties WHERE code = 'A'`);
  await party('A', 0, 'Bruno Lima', null);
  await party('A', 1, 'ANA SOUZA', '11122233344');
  const third = await detectChanges(wh, 'run3');
  expect(third.counts.gone_from_search).toBe(2);
  expect(third.counts.new_party).toBe(1);
  const rows = await wh.all<{ code: string; change: string; detail: string; new_value: string | null }>(
    `SELECT code, change, detail, new_value FROM lawsuit_changes WHERE run_id = 'run3' ORDER BY change, code`);
  expect(rows).toEqual([
    { code: 'B', change: 'gone_from_search', detail: 'cpf:12345678909', new_value: null },
    { code: 'C', change: 'gone_from_search', detail: 'cpf:12345678909', new_value: null },
    { code: 'A', change: 'new_party', detail: 'name:BRUNO LIMA', new_value: 'Bruno Lima' },
  ]);

  // Night 4: nothing moved, nothing recorded; the same answer compared again is not "gone" twice.
  const fourth = await detectChanges(wh, 'run4');
  expect(Object.values(fourth.counts).reduce((a, b) => a + b, 0)).toBe(0);
});

it('attributes new lawsuits to the same searches when the work is cut into slices', async () => {
  const codes = Array.from({ length: 30 }, (_, i) => `L${i}`);
  for (const c of codes) await lawsuit(c);
  await request('s1', 'slice1', '2025-02-01T00:00:00Z', codes.slice(0, 20));
  await request('s2', 'slice1', '2025-02-01T01:00:00Z', codes.slice(10));
  const whole = await detectChanges(wh, 'slice1');
  const rows = async (run: string) => wh.all(`SELECT code, change, search_type, search_key, new_value FROM lawsuit_changes
    WHERE run_id = $1 AND code LIKE 'L%' ORDER BY code`, [run]);
  const expected = await rows('slice1');
  // the same night detected again from scratch, seven lawsuits per slice
  await wh.run(`DELETE FROM lawsuit_changes`);
  for (const t of ['change_detections', 'lawsuit_state', 'lawsuit_state_parties', 'search_state', 'lawsuit_status_history']) await wh.run(`DELETE FROM ${t}`);
  const sliced = await detectChanges(wh, 'slice1b', { newPerSlice: 7 });
  expect(whole.counts.new_lawsuit).toBe(30);
  expect(expected).toHaveLength(30);
  expect(expected.every((r) => r.search_type === 'cpf')).toBe(true);
  expect(sliced.counts.new_lawsuit).toBeGreaterThanOrEqual(30); // and the earlier test's lawsuits, new again
  expect(await rows('slice1b')).toEqual(expected);
});
