// The first step of a trackings night against the sandbox's trackings, night after night on its clock: a document
// added gets a tracking, one dropped has it paused, one listed again has it resumed; a tracking paused or deleted
// behind our back is mended and its document searched tonight, with the reason recorded; a dry run changes
// nothing; a list that would pause more than a tenth of the trackings is refused unless allowed, and another
// client's trackings on the key are never touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import type { DocumentSpec } from '../../src/input/documents.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { trackingKey } from '../../src/pipeline/tracking/identity.js';
import { reconcileTrackings, type ReconcileOptions, type ReconcileOutcome } from '../../src/pipeline/tracking/reconcile.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { startRun, upsertRequest } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, scratch, silent } from '../support/pipeline.js';
import { sampledDocuments } from '../support/trackings.js';

const KEYS = ['key-lifecycle', 'key-behind', 'key-dry', 'key-guard', 'key-killed'];
const T0 = new Date('2026-02-02T03:00:00Z');
let sandbox: Sandbox;
const tmp = scratch('reconcile-');
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 11, lawsuits: 3000, now: T0, rateLimit: 100_000, apiKeys: KEYS, bootId: 'reconcile' });
});
afterAll(async () => {
  for (const o of open.reverse()) await o.close();
  await sandbox.close();
  tmp.cleanup();
});

/** One key's client and warehouse; each `night` is a run of its own on the sandbox's clock. */
async function portfolio(apiKey: string) {
  const api = new LawsuitApi({ apiKey, urls: { requests: sandbox.url, tracking: sandbox.url, lawsuits: sandbox.url, transfer: sandbox.url }, retries: 1, baseDelayMs: 10 });
  const wh = await Warehouse.open(`${tmp.dir}/${apiKey}.duckdb`);
  open.push(api, wh);
  const cfg = configFor(sandbox.url, tmp.dir);
  const night = async (docs: readonly DocumentSpec[], opts: Partial<ReconcileOptions> & { skipSearch?: boolean } = {}): Promise<ReconcileOutcome> => {
    const ctx: RunContext = { cfg, api, wh, log: silent, signal: new AbortController().signal, runId: await startRun(wh, { command: 'run' }) };
    const out = await reconcileTrackings(ctx, docs, { dryRun: false, allowPause: false, recurrenceDays: 1, now: new Date(sandbox.state.clock.now()), ...opts });
    // The night's search stage buys what reconcile chose (recorded as it would be): a document whose search
    // never came is searched again as new on the next night.
    if (!opts.dryRun && !opts.skipSearch) {
      for (const t of out.searchTonight) {
        await upsertRequest(wh, { request_id: `search-${ctx.runId}-${t.doc.searchKey}`, search_type: t.search.search_type, search_key: t.search.search_key, submitted_at: new Date() });
      }
    }
    return out;
  };
  /** Calls by route since the last look. */
  let before: Record<string, number> = {};
  const calls = (): Record<string, number> => {
    const now = { ...api.stats().byRoute };
    const diff = Object.fromEntries(Object.entries(now).map(([r, n]) => [r, n - (before[r] ?? 0)]).filter(([, n]) => (n as number) > 0));
    before = now;
    return diff;
  };
  return { api, wh, night, calls };
}

/** `n` distinct documents of the sandbox's own, as the list reader makes them (a different slice per key). */
const documents = (n: number, offset: number): DocumentSpec[] => sampledDocuments(sandbox, n, offset);

const idOf = (o: ReconcileOutcome, d: DocumentSpec): string => o.trackingOf.get(trackingKey(d.searchType, d.searchKey))!;
const reasons = (o: ReconcileOutcome): string[] => o.searchTonight.map((s) => `${s.doc.searchKey}:${s.reason}`).sort();
const statusAt = async (id: string): Promise<string> => ((await (await fetch(`${sandbox.url}/_sandbox/tracking/${id}`)).json()) as { status: string }).status;
const behind = async (id: string, action: 'pause' | 'delete'): Promise<void> => {
  const r = await fetch(`${sandbox.url}/_sandbox/tracking/${id}/${action}`, { method: 'POST' });
  expect(r.status).toBe(200);
};
const checks = (wh: Warehouse) => wh.all<{ search_key: string; outcome: string; search_reason: string | null; tracking_id: string | null }>(
  'SELECT search_key, outcome, search_reason, tracking_id FROM tracking_checks WHERE run_id = (SELECT max(run_id) FROM tracking_checks) ORDER BY search_key');

describe('reconcileTrackings on the sandbox', () => {
  it('tracks a document added, pauses one dropped, resumes one listed again, searching only the new ones', async () => {
    const p = await portfolio('key-lifecycle');
    const docs = documents(11, 0);
    expect(docs).toHaveLength(11);
    const first = await p.night(docs.slice(0, 10));
    expect(first).toMatchObject({ created: 10, paused: 0, resumed: 0, kept: 0, failures: [] });
    expect(reasons(first)).toEqual(docs.slice(0, 10).map((d) => `${d.searchKey}:new`).sort());
    expect((await checks(p.wh)).map((c) => [c.outcome, c.search_reason])).toEqual(Array(10).fill(['created', 'new']));

    sandbox.advanceDays(1);
    const added = await p.night(docs);
    expect(added).toMatchObject({ created: 1, kept: 10, paused: 0, resumed: 0 });
    expect(reasons(added)).toEqual([`${docs[10].searchKey}:new`]);

    sandbox.advanceDays(1);
    const dropped = docs[3];
    const dropping = await p.night(docs.filter((d) => d !== dropped));
    expect(dropping).toMatchObject({ created: 0, kept: 10, paused: 1, resumed: 0, searchTonight: [] });
    expect(await statusAt(idOf(added, dropped))).toBe('paused');
    expect((await checks(p.wh)).find((c) => c.tracking_id === idOf(added, dropped))).toMatchObject({ outcome: 'paused', search_reason: null });

    sandbox.advanceDays(1);
    const again = await p.night(docs);
    expect(again).toMatchObject({ created: 0, kept: 10, paused: 0, resumed: 1, searchTonight: [] });
    expect(idOf(again, dropped)).toBe(idOf(added, dropped));
    expect(await statusAt(idOf(again, dropped))).not.toBe('paused');
    expect(again.trackingOf.size).toBe(11);
  });

  it('mends a tracking paused or deleted behind our back and searches its document tonight, saying why', async () => {
    const p = await portfolio('key-behind');
    const docs = documents(12, 40);
    const first = await p.night(docs);
    expect(first.created).toBe(docs.length);
    const [paused, deleted] = [docs[0], docs[1]];
    await behind(idOf(first, paused), 'pause');
    await behind(idOf(first, deleted), 'delete');

    sandbox.advanceDays(1);
    const next = await p.night(docs);
    expect(next).toMatchObject({ created: 1, resumed: 1, paused: 0, kept: docs.length - 2, failures: [] });
    expect(reasons(next)).toEqual([`${paused.searchKey}:paused_elsewhere`, `${deleted.searchKey}:deleted`].sort());
    expect(await statusAt(idOf(next, paused))).not.toBe('paused');
    expect(idOf(next, deleted)).not.toBe(idOf(first, deleted));
    const recorded = await checks(p.wh);
    expect(recorded.filter((c) => c.search_reason !== null).map((c) => [c.search_key, c.outcome, c.search_reason]).sort()).toEqual([
      [paused.searchKey, 'resumed', 'paused_elsewhere'], [deleted.searchKey, 'created', 'deleted'],
    ].sort());
  });

  it('on a dry run lists the trackings and plans, but changes nothing and writes nothing', async () => {
    const p = await portfolio('key-dry');
    const docs = documents(12, 80);
    const made = await p.night(docs.slice(0, 10));
    await behind(idOf(made, docs[0]), 'pause');
    const rows = async () => (await p.wh.all<{ n: bigint }>('SELECT count(*) AS n FROM tracking_checks'))[0].n;
    const stored = await rows();
    p.calls();

    sandbox.advanceDays(1);
    const dry = await p.night([...docs.slice(0, 9), ...docs.slice(10)], { dryRun: true });
    expect(dry).toMatchObject({ created: 2, paused: 1, resumed: 1, kept: 8 });
    expect(dry.plannedCalls).toBe(1 + 2 + 1 + 1);
    expect(reasons(dry)).toEqual([`${docs[0].searchKey}:paused_elsewhere`, `${docs[10].searchKey}:new`, `${docs[11].searchKey}:new`].sort());
    expect(p.calls()).toEqual({ 'GET /tracking': 1 });
    expect(await rows()).toBe(stored);
    expect(await statusAt(idOf(made, docs[0]))).toBe('paused');
    expect(await statusAt(idOf(made, docs[9]))).not.toBe('paused');
  });

  it('refuses a list that would pause more than a tenth of our trackings unless allowed, and never touches another client\'s', async () => {
    const p = await portfolio('key-guard');
    const docs = documents(12, 120);
    const made = await p.night(docs.slice(0, 10));
    const theirs = sandbox.foreignTrackings(5, 1, 'key-guard');
    expect(theirs.length).toBeGreaterThan(0);
    p.calls();

    sandbox.advanceDays(1);
    const shorter = docs.slice(2, 10);
    const refused = p.night(shorter);
    await expect(refused).rejects.toMatchObject({ code: 'TRACKING_PAUSE_GUARD', usage: true, details: { pauses: 2, trackings: 10, limit: 1 } });
    await expect(refused).rejects.toThrow(/--allow-pause/);
    expect(p.calls()).toEqual({ 'GET /tracking': 1 });
    for (const d of docs.slice(0, 2)) expect(await statusAt(idOf(made, d))).not.toBe('paused');

    const allowed = await p.night(shorter, { allowPause: true });
    expect(allowed).toMatchObject({ paused: 2, kept: 8, created: 0 });
    for (const d of docs.slice(0, 2)) expect(await statusAt(idOf(made, d))).toBe('paused');
    for (const t of theirs) expect(await statusAt(t.id)).not.toBe('paused');
    expect(p.calls()).toEqual({ 'GET /tracking': 1, 'POST /tracking/:id/pause': 2 });
  });

  it('a night killed between making the trackings and searching: the next night searches those documents once, as new', async () => {
    const p = await portfolio('key-killed');
    const docs = documents(3, 700);
    expect(reasons(await p.night(docs, { skipSearch: true }))).toEqual(docs.map((d) => `${d.searchKey}:new`).sort());
    // killed here: nothing searched. The night run again keeps the trackings and searches the documents, once.
    const again = await p.night(docs);
    expect({ created: again.created, kept: again.kept }).toEqual({ created: 0, kept: 3 });
    expect(reasons(again)).toEqual(docs.map((d) => `${d.searchKey}:new`).sort());
    expect(reasons(await p.night(docs))).toEqual([]);
  });
});
