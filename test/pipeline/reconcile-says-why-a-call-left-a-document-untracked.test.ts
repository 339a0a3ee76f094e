// When a call of the reconciliation does not leave a listed document tracked — a creation refused, a 409 that names
// no record, a tracking deleted between the listing and its resume — the document is searched tonight and the
// reason says so; a refused key ends the step at once. The provider here is a fake tracking resource (each answer
// chosen), the warehouse a real one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LawsuitApi } from '../../src/api/client.js';
import { errorForStatus } from '../../src/api/errors.js';
import type { TrackingResource } from '../../src/api/tracking.js';
import type { DocumentSpec } from '../../src/input/documents.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { reconcileTrackings } from '../../src/pipeline/tracking/reconcile.js';
import type { Search, Tracking } from '../../src/spec/types.js';
import { startRun } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, scratch, silent } from '../support/pipeline.js';

const tmp = scratch('reconcile-fake-');
let wh: Warehouse;
beforeAll(async () => { wh = await Warehouse.open(`${tmp.dir}/wh.duckdb`); });
afterAll(async () => {
  await wh.close();
  tmp.cleanup();
});

const NOW = new Date('2026-03-01T03:00:00Z');
const doc = (line: number, searchKey: string): DocumentSpec => ({ line, searchType: 'cpf', searchKey, rawKey: searchKey, onDemand: false });
const record = (id: string, searchKey: string, status: string): Tracking => ({
  tracking_id: id, status, recurrence: 1, search: { search_type: 'cpf', search_key: searchKey }, created_at: '2026-02-28T03:00:00Z', updated_at: '2026-02-28T05:00:00Z',
});

/** A tracking resource whose answers are the test's: creations by search key, resumes by id. */
function fakeApi(listing: Tracking[], creations: Record<string, () => Promise<unknown>>, resumes: Record<string, () => Promise<unknown>>): { api: LawsuitApi; sent: string[] } {
  const sent: string[] = [];
  const tracking: Partial<TrackingResource> = {
    all: async () => listing,
    create: async (s: Search) => { sent.push(`create ${s.search_key}`); return creations[s.search_key]() as never; },
    resume: async (id: string) => { sent.push(`resume ${id}`); return resumes[id]() as never; },
    pause: async (id: string) => { sent.push(`pause ${id}`); return 'gone'; },
    get: async () => 'gone',
  };
  return { api: { tracking } as unknown as LawsuitApi, sent };
}

async function contextWith(api: LawsuitApi): Promise<RunContext> {
  return { cfg: configFor('http://127.0.0.1:9', tmp.dir), api, wh, log: silent, signal: new AbortController().signal, runId: await startRun(wh, { command: 'run' }) };
}

it('searches tonight, saying why, each document a refused creation, a nameless 409 or a vanished tracking left untracked', async () => {
  const docs = [doc(2, '11111111111'), doc(3, '22222222222'), doc(4, '33333333333'), doc(5, '44444444444')];
  const { api, sent } = fakeApi(
    [record('t-paused', '33333333333', 'paused'), record('t-runs', '44444444444', 'updated')],
    {
      '11111111111': async () => { throw errorForStatus(400, { error: { name: 'ValidationError', message: 'bad', data: ['search_key'] } }, 'POST /tracking', (x) => x); },
      '22222222222': async () => ({ conflict: true }),
    },
    { 't-paused': async () => 'gone' },
  );
  const out = await reconcileTrackings(await contextWith(api), docs, { dryRun: false, allowPause: false, recurrenceDays: 1, now: NOW });
  expect(sent.sort()).toEqual(['create 11111111111', 'create 22222222222', 'resume t-paused']);
  expect(out).toMatchObject({ created: 0, resumed: 0, paused: 0, kept: 2 });
  expect(out.failures).toEqual([expect.objectContaining({ action: 'create', searchKey: '11111111111', line: 2, code: 'API_VALIDATION' })]);
  // t-runs is kept, and its document searched once: nothing of it was read since its tracking was made
  expect(out.searchTonight.map((s) => [s.doc.searchKey, s.reason, s.search.search_key])).toEqual([
    ['11111111111', 'untracked', '11111111111'], ['22222222222', 'untracked', '22222222222'], ['33333333333', 'deleted', '33333333333'],
    ['44444444444', 'new', '44444444444'],
  ]);
  expect([...out.trackingOf.values()]).toEqual(['t-runs']);
  const checks = await wh.all('SELECT search_key, outcome, search_reason FROM tracking_checks ORDER BY search_key');
  expect(checks).toEqual([
    { search_key: '11111111111', outcome: 'failed', search_reason: 'untracked' },
    { search_key: '22222222222', outcome: 'conflict', search_reason: 'untracked' },
    { search_key: '33333333333', outcome: 'gone', search_reason: 'deleted' },
    { search_key: '44444444444', outcome: 'kept', search_reason: 'new' },
  ]);
});

it('ends the step at once when the key is refused', async () => {
  const refused = async () => { throw errorForStatus(401, {}, 'POST /tracking', (x) => x); };
  const { api } = fakeApi([], { '55555555555': refused }, {});
  await expect(reconcileTrackings(await contextWith(api), [doc(2, '55555555555')], { dryRun: false, allowPause: false, recurrenceDays: 1, now: NOW }))
    .rejects.toMatchObject({ code: 'API_UNAUTHORIZED' });
});

it('measures staleness on the provider\'s clock when it runs ahead of ours: by the newest instant the listing shows', async () => {
  const ahead = Date.now() + 400 * 86_400_000;
  const at = (ms: number) => new Date(ms).toISOString();
  const fresh = { ...record('t-fresh', '66666666666', 'updated'), created_at: at(ahead - 9 * 86_400_000), updated_at: at(ahead) };
  const lagging = { ...record('t-lagging', '77777777777', 'updated'), created_at: at(ahead - 9 * 86_400_000), updated_at: at(ahead - 3 * 86_400_000) };
  const { api, sent } = fakeApi([fresh, lagging], {}, {});
  // runs of both were read on earlier nights: neither is waiting for its document's first search
  await wh.run(`INSERT INTO tracking_runs (request_id, tracking_id, first_read_at, last_read_at) VALUES ('r-fresh', 't-fresh', now(), now()), ('r-lagging', 't-lagging', now(), now())`);
  const out = await reconcileTrackings(await contextWith(api), [doc(2, '66666666666'), doc(3, '77777777777')], { dryRun: true, allowPause: false, recurrenceDays: 1 });
  expect(sent).toEqual([]);
  expect(out.searchTonight.map((s) => [s.doc.searchKey, s.reason])).toEqual([['77777777777', 'stale']]);
});

it('lists the trackings at the night\'s page size, and at 100 a page when the listing refuses it', async () => {
  const asked: number[] = [];
  const listing = [record('t-big', '88888888888', 'updated')];
  const { api } = fakeApi(listing, {}, {});
  (api.tracking as { all: unknown }).all = async (opts: { pageSize?: number }) => {
    asked.push(opts.pageSize ?? 0);
    if ((opts.pageSize ?? 0) > 100) throw errorForStatus(400, { error: { name: 'HttpBadRequestError', message: 'page_size', data: ['page_size'] } }, 'GET /tracking', (x) => x);
    return listing;
  };
  const out = await reconcileTrackings(await contextWith(api), [doc(2, '88888888888')], { dryRun: true, allowPause: false, recurrenceDays: 1, now: NOW, pageSize: 1000 });
  expect(asked).toEqual([1000, 100]);
  expect([...out.trackingOf.values()]).toEqual(['t-big']);
  // a refusal of anything else is not read again
  (api.tracking as { all: unknown }).all = async () => { throw errorForStatus(500, {}, 'GET /tracking', (x) => x); };
  await expect(reconcileTrackings(await contextWith(api), [doc(2, '88888888888')], { dryRun: true, allowPause: false, recurrenceDays: 1, now: NOW, pageSize: 1000 }))
    .rejects.toMatchObject({ code: 'API_SERVER' });
});
