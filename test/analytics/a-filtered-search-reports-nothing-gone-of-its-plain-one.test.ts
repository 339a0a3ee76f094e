import { afterAll, beforeAll, expect, it } from 'vitest';
import { join } from 'node:path';
import { detectChanges } from '../../src/warehouse/changes.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// One document searched twice a night, plain and with a filter (src/spec/search-identity.ts: two searches), keeps
// one answer per search key in search_state. Compared with the plain search's answer, the filtered one would
// report every lawsuit its filter leaves out as gone from the search, night after night, as the two alternate as
// the newest. Only the plain search is compared: a lawsuit leaving it is reported, once; and the document's answer
// in v_active_lawsuits_per_document is its plain search's.

const tmp = scratch('changes-filtered-');
let wh: Warehouse;
beforeAll(async () => { wh = await Warehouse.open(join(tmp.dir, 'wh.duckdb')); });
afterAll(async () => { await wh.close(); tmp.cleanup(); });

const PLAIN = { search_type: 'cnpj', search_key: '11222333000181' };
const FILTERED = { ...PLAIN, search_params: { filter: { side: 'Passive' } } };

async function request(id: string, run: string, at: string, search: object, hits: string[], withAttachments = false): Promise<void> {
  await wh.run(`INSERT INTO requests (request_id, search_type, search_key, status, created_at, completed_at, run_id, search, loaded_at, with_attachments)
    VALUES ($1, 'cnpj', '11222333000181', 'completed', $2::TIMESTAMPTZ, $2::TIMESTAMPTZ, $3, $4::JSON, $2::TIMESTAMPTZ, $5)`, [id, at, run, JSON.stringify(search), withAttachments]);
  for (const code of hits) await wh.run(`INSERT INTO search_hits (request_id, code, instance, first_seen_at) VALUES ($1, $2, 1, $3::TIMESTAMPTZ)`, [id, code, at]);
}

it('compares a search only with the same search: the filtered answer never makes the plain one\'s lawsuits gone', async () => {
  for (const code of ['A', 'B', 'C']) {
    await wh.run(`INSERT INTO lawsuits (code, instance, status, phase, loaded_at, raw) VALUES ($1, 1, 'Ativo', 'Inicial', now(), '{}')`, [code]);
  }
  // Night 1: the plain search finds all three, the filtered one (done later) one of them.
  await request('p1', 'run1', '2025-01-01T00:00:00Z', PLAIN, ['A', 'B', 'C']);
  await request('f1', 'run1', '2025-01-01T01:00:00Z', FILTERED, ['A']);
  await detectChanges(wh, 'run1');
  // Night 2: the same answers, the filtered one done first this time; and a lawsuit_cnj-like plain search asking
  // attachments is another search as well.
  await request('f2', 'run2', '2025-01-02T00:00:00Z', FILTERED, ['A']);
  await request('p2', 'run2', '2025-01-02T01:00:00Z', PLAIN, ['A', 'B', 'C']);
  await request('w2', 'run2', '2025-01-02T02:00:00Z', PLAIN, ['A'], true);
  expect((await detectChanges(wh, 'run2')).counts.gone_from_search).toBe(0);
  // Night 3: C really leaves the plain search: reported once, under the plain search.
  await request('f3', 'run3', '2025-01-03T00:00:00Z', FILTERED, ['A']);
  await request('p3', 'run3', '2025-01-03T01:00:00Z', PLAIN, ['A', 'B']);
  const third = await detectChanges(wh, 'run3');
  expect(third.counts.gone_from_search).toBe(1);
  expect(await wh.all(`SELECT code, detail FROM lawsuit_changes WHERE change = 'gone_from_search'`)).toEqual([{ code: 'C', detail: 'cnpj:11222333000181' }]);
});

it('shows a document\'s plain answer in v_active_lawsuits_per_document, whichever search finished last', async () => {
  // f3 finished before p3 on night 3; a filtered search finishing last does not make the document's answer its own
  await request('f4', 'run4', '2025-01-04T05:00:00Z', FILTERED, ['A']);
  expect(await wh.all(`SELECT search_key, lawsuits_found::INTEGER AS n FROM v_active_lawsuits_per_document`)).toEqual([{ search_key: '11222333000181', n: 2 }]);
});
