// `query` on three nights: three rows per document per kind, the change view showing the difference the
// sandbox's ground truth predicts, historical lawsuits in the core tables marked by source, a failing document
// not stopping the others, and a rerun of the same night changing nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LawsuitApi } from '../../src/api/client.js';
import { runQueries, QUERY_KINDS } from '../../src/pipeline/sync.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';
import { SEED, clientFor, docSpec, keySet, listOf } from './helpers.js';
import { contextFor, openWarehouse } from './pipeline-support.js';
import type { DocumentSpec } from '../../src/input/documents.js';

let sandbox: Sandbox;
let api: LawsuitApi;
let wh: Warehouse;
const tmp = scratch('sync-nights-');
const T0 = new Date('2025-05-10T03:00:00Z');
const DAY = 86_400_000;

beforeAll(async () => {
  // A larger universe than the other tests: new lawsuits reach the database view often enough to find
  // parties whose count moves from one night to the next.
  sandbox = await startSandbox({ seed: SEED, lawsuits: 20_000, now: T0, rateLimit: 100_000 });
  api = clientFor(sandbox);
  wh = await openWarehouse(`${tmp.dir}/wh.duckdb`);
});
afterAll(async () => {
  await api.close();
  await wh.close();
  await sandbox.close();
  tmp.cleanup();
});

/**
 * Party documents whose database count changes over the next two days (found with the ground truth). In this
 * universe those are the big litigants, whose new lawsuits reach the database view almost every night.
 */
function changingDocuments(): { docs: DocumentSpec[]; counts: Map<string, number[]> } {
  const found = new Map<string, { spec: DocumentSpec; series: number[] }>();
  const candidates = sandbox.sampleDocuments(400).filter((d) => ['cpf', 'cnpj', 'oab', 'name'].includes(d.search_type));
  for (const d of candidates) {
    const series = [0, 1, 2].map((n) => {
      sandbox.setNow(new Date(T0.getTime() + n * DAY));
      return sandbox.truth({ search_type: d.search_type, search_key: d.search_key }).length;
    });
    if (series[0] === series[1] && series[1] === series[2]) continue;
    const spec = docSpec(found.size + 2, d.search_type, d.search_key);
    found.set(`${spec.searchType}|${spec.searchKey}`, { spec, series });
    if (found.size === 2) break;
  }
  sandbox.setNow(T0);
  const chosen = [...found.values()];
  return { docs: chosen.map((c) => c.spec), counts: new Map(chosen.map((c) => [`${c.spec.searchType}|${c.spec.searchKey}`, c.series])) };
}

it('stores one row per document per kind per night, and the change view shows the difference', async () => {
  const { docs, counts } = changingDocuments();
  expect(docs.length).toBeGreaterThanOrEqual(1);
  const steady = sandbox.sampleDocuments(40).find((d) => d.search_type === 'lawsuit_cnj')!;
  const all = [...docs, docSpec(50, steady.search_type, steady.search_key)];
  const runs: string[] = [];
  for (let night = 0; night < 3; night++) {
    sandbox.setNow(new Date(T0.getTime() + night * DAY));
    const ctx = await contextFor(sandbox, tmp.dir, wh, api, 'query');
    runs.push(ctx.runId);
    for (const kind of QUERY_KINDS) {
      const r = await runQueries(ctx, listOf(all), kind);
      expect(r, kind).toEqual({ documents: all.length, ok: all.length, failures: [] });
    }
  }
  for (const [table, where] of [['sync_counts', ''], ['sync_exists', ''], ['sync_historical', ''], ['sync_grouped', `WHERE dimension = 'lawsuits_count'`]]) {
    const rows = await wh.all<{ search_type: string; search_key: string; n: number }>(
      `SELECT search_type, search_key, count(*)::INTEGER AS n, count(DISTINCT run_id)::INTEGER AS runs FROM ${table} ${where} GROUP BY ALL`);
    expect(rows.length, table).toBe(all.length);
    for (const r of rows) expect(r, table).toMatchObject({ n: 3, runs: 3 });
  }
  const history = await wh.all<{ search_type: string; search_key: string; run_id: string; total: number; previous_total: number | null; change: number | null }>(
    'SELECT * FROM v_sync_count_history ORDER BY search_type, search_key, queried_at');
  for (const d of docs) {
    const expected = counts.get(`${d.searchType}|${d.searchKey}`)!;
    const mine = history.filter((h) => h.search_type === d.searchType && h.search_key === d.searchKey);
    expect(mine.map((h) => h.run_id)).toEqual(runs);
    expect(mine.map((h) => h.total)).toEqual(expected);
    expect(mine.map((h) => h.change)).toEqual([null, expected[1] - expected[0], expected[2] - expected[1]]);
  }
  expect(history.some((h) => h.change !== null && h.change !== 0)).toBe(true);
  // The grouped total follows the same history as the count.
  const grouped = await wh.all<{ search_key: string; change: number | null; count: number }>(
    `SELECT search_key, count, change FROM v_sync_grouped_history WHERE dimension = 'lawsuits_count' AND search_key = $1 ORDER BY queried_at`, [docs[0].searchKey]);
  expect(grouped.map((g) => g.count)).toEqual(counts.get(`${docs[0].searchType}|${docs[0].searchKey}`));

  // Historical lawsuits sit in the core tables, marked by source, one set per night's answer.
  const lastNight = sandbox.truth({ search_type: docs[0].searchType, search_key: docs[0].searchKey });
  const loaded = await wh.all<{ code: string; instance: number; source: string }>(
    `SELECT l.code, l.instance, l.source FROM lawsuits l JOIN search_hits h USING (code, instance)
     JOIN sync_historical s ON s.request_id = h.request_id WHERE s.run_id = $1 AND s.search_key = $2`, [runs[2], docs[0].searchKey]);
  expect(keySet(loaded)).toEqual(keySet(lastNight));
  expect(new Set(loaded.map((l) => l.source))).toEqual(new Set(['historical']));
});

it('records a failing document and goes on; a rerun of the same night loads nothing twice', async () => {
  sandbox.setNow(new Date(T0.getTime() + 5 * DAY));
  const good = sandbox.sampleDocuments(30)
    .filter((d) => (d.search_type === 'cnpj' || d.search_type === 'cpf') && sandbox.truth(d).length > 0 && sandbox.truth(d).length < 40).slice(0, 2).map((d, i) => docSpec(i + 2, d.search_type, d.search_key));
  // A CNJ number with a wrong check digit: the reader would reject it, so it is put in by hand here.
  const bad: DocumentSpec = { line: 9, searchType: 'lawsuit_cnj', searchKey: '0001234-55.2023.8.26.0100', rawKey: '0001234-55.2023.8.26.0100', onDemand: false };
  const ctx = await contextFor(sandbox, tmp.dir, wh, api, 'query');
  const r = await runQueries(ctx, listOf([...good, bad]), 'historical');
  expect(r.ok).toBe(good.length);
  expect(r.failures).toEqual([{ line: 9, searchType: 'lawsuit_cnj', searchKey: bad.searchKey, code: 'API_VALIDATION', reason: expect.stringContaining('422') }]);
  const count = async () => (await wh.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM responses_raw WHERE run_id = $1`, [ctx.runId]))[0].n;
  const first = await count();
  expect(first).toBeGreaterThan(0);
  await runQueries(ctx, listOf(good), 'historical');
  expect(await count()).toBe(first);
  const rows = await wh.all(`SELECT * FROM sync_historical WHERE run_id = $1`, [ctx.runId]);
  expect(rows.length).toBe(good.length);
});
