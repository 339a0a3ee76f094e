import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentSpec } from '../../src/input/documents.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { expectWholeAsTruth, fewSampled, findsFew, movedOrBorn, portfolioOf, truthOf, type Truth } from '../support/ground-truth.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';

// A trackings night in two levels (docs/trackings.md, "Two kinds of trackings"), against the sandbox that speaks
// them: a document's tracking announces the lawsuits born to it, as headers; a lawsuit's tracking (lawsuit_cnj)
// sends its lawsuit whole on its first run and whenever it moved. Night 1 searches each new document once, reads
// every lawsuit found whole, and gives each its own tracking: the warehouse equals the sandbox's ground truth. A
// sandbox month later (two hours after the day's runs), night 2 equals the new day — the lawsuits born read whole,
// those that moved carried whole by their own tracking's run, with no lawsuit-level read bought for them. A night
// with nothing changed buys no search, no read and no tracking.

/** A document (CPF or CNPJ) of a party of a lawsuit the universe gains within the next month, finding few lawsuits. */
async function bornWithinAMonth(url: string, small: (d: { search_type: string; search_key: string }) => boolean): Promise<{ search_type: string; search_key: string }> {
  const now = Date.parse(((await (await fetch(`${url}/_sandbox/clock`)).json()) as { now: string }).now);
  const q = new URLSearchParams({ from: new Date(now).toISOString(), to: new Date(now + 29 * 86_400_000).toISOString(), limit: '10000' });
  const body = await (await fetch(`${url}/_sandbox/changes?${q}`)).json() as { lawsuits: Array<{ change: string; documents: Array<{ document_type: string; document: string }> }> };
  const parties = body.lawsuits.filter((l) => l.change === 'new').flatMap((l) => l.documents)
    .filter((d) => d.document_type === 'CPF' || d.document_type === 'CNPJ').map((d) => ({ search_type: d.document_type.toLowerCase(), search_key: d.document }));
  const found = parties.find(small);
  expect(found, 'a lawsuit born within the month to a party of few lawsuits').toBeDefined();
  return found!;
}

describe('a trackings night in two levels', () => {
  const tmp = scratch();
  let sb: Sandbox;
  let docs: DocumentSpec[];
  let cfg: ReturnType<typeof configFor>;

  beforeAll(async () => {
    sb = await startSandbox({ seed: 7, rateLimit: 100_000 });
    const small = findsFew(sb);
    const sample = fewSampled(sb);
    // and a party of a lawsuit born within the month, so that a document's tracking has a birth to announce
    sample.push({ ...await bornWithinAMonth(sb.url, small), label: 'born within the month' });
    const csv = join(tmp.dir, 'documents.csv');
    docs = await portfolioOf(sb.url, csv, sample);
    cfg = configFor(sb.url, tmp.dir, { LAWSUIT_DOCUMENTS: csv, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true', LAWSUIT_SOURCE: 'trackings' });
  }, 60_000);
  afterAll(async () => { await sb?.close(); tmp.cleanup(); });

  const readsBought = async (runId: string): Promise<string[]> =>
    (await query<{ k: string }>(cfg.warehouse, `SELECT search_key AS k FROM requests WHERE run_id = '${runId}' AND basis IS NOT NULL ORDER BY 1`)).map((r) => r.k);
  /** The key's lawsuit trackings at the provider, by number (the sandbox's own record, whatever the client did). */
  const lawsuitTrackings = (): string[] => sb.state.trackings.records.listOf('sandbox-key')
    .filter((t) => t.search.type === 'lawsuit_cnj' && t.state !== 'deleted').map((t) => String(t.search.echo.search_key)).sort();
  /** The numbers a night's lawsuit trackings' runs carried whole. */
  const carried = async (runId: string): Promise<Set<string>> => new Set((await query<{ k: string }>(cfg.warehouse, `
    SELECT DISTINCT h.code AS k FROM tracking_runs t JOIN search_hits h USING (request_id)
    WHERE t.run_id = '${runId}' AND t.search_type = 'lawsuit_cnj'`)).map((r) => r.k));
  /** The lawsuits a search sees changed after the day's runs and before the night: the next runs', not this night's. */
  const changedSince = async (from: Date): Promise<Set<string>> => {
    const q = new URLSearchParams({ from: from.toISOString(), to: new Date(sb.state.clock.now()).toISOString(), limit: '10000' });
    const body = await (await fetch(`${sb.url}/_sandbox/changes?${q}`)).json() as { lawsuits: Array<{ code: string; instance: number }> };
    return new Set(body.lawsuits.map((l) => `${l.code}#${l.instance}`));
  };
  const listedNumbers = (): Set<string> => new Set(docs.filter((d) => d.searchType === 'lawsuit_cnj').map((d) => d.searchKey));

  let truth1: Truth;
  it('night 1: every new document searched once, every lawsuit read whole, equal to the ground truth, each with a tracking of its own', async () => {
    const s = await nightly(cfg);
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    expect(s.stages.map((x) => x.name)).toEqual(['documents', 'trackings', 'search', 'lawsuits', 'lawsuit-trackings', 'trackings-cursor', 'attachments', 'transfer', 'changes', 'exports', 'publish']);
    truth1 = await truthOf(sb.url, docs);
    expect(truth1.lawsuits.length).toBeGreaterThan(20);
    await expectWholeAsTruth(cfg.warehouse, truth1);
    expect(countOf(s, 'trackings', 'trackings_created')).toBe(docs.length);
    expect(countOf(s, 'search', 'submitted')).toBe(docs.length);
    // no tracking ran yet (a first run comes hours after): the next reading of the runs starts past tonight's answers
    expect(countOf(s, 'trackings-cursor', 'passed_over')).toBeGreaterThan(docs.length);
    // the headers the searches found were read whole in the same night, each number once
    const numbers = new Set(truth1.lawsuits.map((l) => l.code));
    const byHeader = [...numbers].filter((c) => !listedNumbers().has(c)).sort();
    expect(await readsBought(s.runId)).toEqual(byHeader);
    // then each number kept whole got its own tracking, after the reads (a listed number is its document's tracking)
    expect(countOf(s, 'trackings', 'lawsuit_trackings_created')).toBe(0);
    expect(countOf(s, 'lawsuit-trackings', 'lawsuit_trackings_created')).toBe(byHeader.length);
    expect(lawsuitTrackings()).toEqual([...numbers].sort());
    expect(s.cost?.units.trackingMonths).toBe(docs.length + byHeader.length);
    const [run] = await query<{ created: number; lawsuits: number }>(cfg.warehouse,
      `SELECT trackings_created AS created, lawsuit_trackings_created AS lawsuits FROM runs WHERE run_id = '${s.runId}'`);
    expect(run).toEqual({ created: docs.length, lawsuits: byHeader.length });
  }, 240_000);

  let truth2: Truth;
  let night2: string;
  it('night 2, a month of daily runs later: equal to the new day, the moved lawsuits carried by their own tracking, reads bought only for those born', async () => {
    sb.advanceDays(30 + 2 / 24);
    const runsAt = new Date(sb.state.clock.now() - 90 * 60_000);
    const s = await nightly(cfg);
    night2 = s.runId;
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    expect(countOf(s, 'search', 'submitted')).toBe(0);
    // the reading of the runs paged through none of night 1's own answers: it started past them
    expect(countOf(s, 'trackings', 'tracking_runs_read')).toBeGreaterThan(0);
    expect(countOf(s, 'trackings', 'tracking_skipped')).toBe(0);
    truth2 = await truthOf(sb.url, docs);
    const later = await changedSince(runsAt);
    await expectWholeAsTruth(cfg.warehouse, truth2, later);
    const changed = movedOrBorn(truth1, truth2);
    const born = new Set([...changed].filter((c) => !truth1.lawsuits.some((l) => l.code === c)));
    const moved = [...changed].filter((c) => !born.has(c) && ![...later].some((k) => k.startsWith(`${c}#`)));
    expect(moved.length, 'a month makes lawsuits move in the sandbox').toBeGreaterThan(0);
    expect(born.size, 'and others be born').toBeGreaterThan(0);
    // every lawsuit that moved came whole by its own tracking's run, and not one of them was bought
    const runs = await carried(s.runId);
    for (const c of moved) expect(runs.has(c), `${c} moved: its tracking's run carried it`).toBe(true);
    const bought = await readsBought(s.runId);
    expect(bought.filter((c) => runs.has(c))).toEqual([]);
    // the lawsuits born to the documents were announced by their runs and read whole (and got their own trackings)
    expect(new Set(bought)).toEqual(new Set([...born].filter((c) => !listedNumbers().has(c) && ![...later].some((k) => k.startsWith(`${c}#`)))));
    expect(countOf(s, 'lawsuit-trackings', 'lawsuit_trackings_created')).toBe(bought.length);
    expect(countOf(s, 'lawsuits', 'left_tracked') + countOf(s, 'lawsuits', 'left_whole')).toBeGreaterThan(0);
  }, 240_000);

  it('night 3, nothing changed: no search, no lawsuit-level read, no tracking made', async () => {
    const before = sb.counters();
    const s = await nightly(cfg);
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    const after = sb.counters();
    const posts = (c: typeof before, route: string): number => Object.values(c.by_endpoint[route] ?? {}).reduce((a, b) => a + b, 0);
    expect(posts(after, 'POST /requests') - posts(before, 'POST /requests')).toBe(0);
    expect(posts(after, 'POST /tracking') - posts(before, 'POST /tracking')).toBe(0);
    expect(await readsBought(s.runId)).toEqual([]);
    expect(s.cost?.units).toEqual({ documentSearches: 0, lawsuitSearches: 0, trackingMonths: 0, attachmentReads: 0 });
    expect(night2).not.toBe(s.runId);
  }, 240_000);

  it('night 4, documents\' runs re-sending every known lawsuit (as an older page of the provider says they may): used, nothing bought for them', async () => {
    sb.setTrackingRuns('every');
    sb.advanceDays(1 + 2 / 24);
    const runsAt = new Date(sb.state.clock.now() - 90 * 60_000);
    const s = await nightly(cfg);
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    const truth4 = await truthOf(sb.url, docs);
    const later = await changedSince(runsAt);
    await expectWholeAsTruth(cfg.warehouse, truth4, later);
    // the documents' runs carried the known lawsuits, as headers, loaded like any: not one lawsuit-level read for them
    const [{ n }] = await query<{ n: number }>(cfg.warehouse, `SELECT count(DISTINCT h.code)::INTEGER AS n FROM tracking_runs t
      JOIN search_hits h USING (request_id) WHERE t.run_id = '${s.runId}' AND t.search_type <> 'lawsuit_cnj'`);
    expect(n).toBeGreaterThan(truth2.lawsuits.length / 2);
    const known = new Set(truth2.lawsuits.map((l) => l.code));
    expect((await readsBought(s.runId)).filter((c) => known.has(c))).toEqual([]);
    expect(countOf(s, 'search', 'submitted')).toBe(0);
  }, 240_000);
});

// The depth the user chose (LAWSUIT_DETAIL) decides which lawsuits get a tracking of their own: with `active` those
// archived or finished are read whole once and left (no tracking, a tracking paused once they end); with `header`
// none is read whole and none tracked, those made before paused (the pause guard counts them: --allow-pause).
describe('a trackings night keeps as many lawsuits tracked as the depth keeps whole', () => {
  const tmp = scratch();
  let sb: Sandbox;
  let csv: string;
  beforeAll(async () => {
    sb = await startSandbox({ seed: 11, rateLimit: 100_000 });
    const sample = sb.sampleDocuments(10).filter((d) => ['cpf', 'cnpj', 'oab'].includes(d.search_type) && sb.truth({ search_type: d.search_type, search_key: d.search_key }).length <= 30);
    csv = join(tmp.dir, 'documents.csv');
    writeFileSync(csv, ['search_key,search_type', ...sample.map((d) => `"${d.search_key}",${d.search_type}`)].join('\n'));
  }, 60_000);
  afterAll(async () => { await sb?.close(); tmp.cleanup(); });

  const cfgWith = (env: Record<string, string>) => configFor(sb.url, tmp.dir, { LAWSUIT_DOCUMENTS: csv, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true', LAWSUIT_SOURCE: 'trackings', ...env });
  const tracked = (): Array<{ code: string; state: string }> => sb.state.trackings.records.listOf('sandbox-key')
    .filter((t) => t.search.type === 'lawsuit_cnj').map((t) => ({ code: String(t.search.echo.search_key), state: t.state }));

  it('active: only the numbers with a lawsuit neither archived nor finished are tracked; header: every one paused, none made', async () => {
    const active = cfgWith({ LAWSUIT_DETAIL: 'active' });
    const s = await nightly(active);
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    // a number is tracked once a lawsuit of it is whole (one refused to the read for secrecy never is)
    const rows = await query<{ code: string; ended: boolean }>(active.warehouse, `SELECT code,
        bool_and(coalesce(status = 'Finalizado' OR phase = 'Arquivado', false)) AS ended FROM v_lawsuit_levels WHERE level = 'whole' GROUP BY code`);
    const ongoing = rows.filter((r) => !r.ended).map((r) => r.code).sort();
    expect(ongoing.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.ended).length, 'some numbers of the portfolio ended').toBeGreaterThan(0);
    expect(tracked().map((t) => t.code).sort()).toEqual(ongoing);
    expect(countOf(s, 'lawsuit-trackings', 'lawsuit_trackings_created')).toBe(ongoing.length);

    // headers only: no lawsuit read or tracked, and those tracked paused (a change of depth the guard asks to confirm)
    const header = cfgWith({ LAWSUIT_DETAIL: 'header' });
    const refused = await nightly(header);
    expect(refused.stages.find((x) => x.name === 'trackings')).toMatchObject({ status: 'failed', error: { code: 'TRACKING_PAUSE_GUARD' } });
    const h = await nightly(cfgWith({ LAWSUIT_DETAIL: 'header', LAWSUIT_ALLOW_PAUSE: 'true' }));
    expect(h.status, JSON.stringify(h.failures)).toBe('ok');
    expect(countOf(h, 'trackings', 'lawsuit_trackings_paused')).toBe(ongoing.length);
    expect(h.stages.find((x) => x.name === 'lawsuit-trackings')?.status).toBe('skipped');
    expect(tracked().every((t) => t.state === 'paused')).toBe(true);
  }, 240_000);
});
