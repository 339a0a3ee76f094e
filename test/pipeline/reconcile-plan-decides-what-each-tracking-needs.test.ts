// The reconciliation of a trackings night, decided without network or warehouse: for each listed document and
// each tracking of the key, create, pause, resume or keep, and which documents are searched tonight and why; a plan
// that would pause more than a tenth of our trackings is refused unless allowed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EtlError } from '../../src/shared/errors.js';
import type { Tracking } from '../../src/spec/types.js';
import {
  factsOf, measuredAt, planReconcile, trackingState,
  type Known, type Listed, type ReconcilePlan, type ReconcilePlanOptions, type TrackingFacts, type TrackingState,
} from '../../src/pipeline/tracking/reconcile-plan.js';

const DAY = 86_400_000;
/** The code of the refusal of a plan that would pause too many trackings (an exit 2 the operator reads). */
const TRACKING_PAUSE_GUARD = 'TRACKING_PAUSE_GUARD';

/** Whether a plan changes nothing at the provider (what a second plan after the first was performed must be). */
const changesNothing = (plan: ReconcilePlan<unknown>): boolean => plan.create.length === 0 && plan.pause.length === 0 && plan.resume.length === 0;
const NOW = Date.parse('2026-03-10T03:00:00Z');
const OPTS: ReconcilePlanOptions = { nowMs: NOW, recurrenceDays: 1, allowPause: false };

const doc = (identity: string): Listed<string> => ({ identity, doc: `doc:${identity}` });
const tracking = (identity: string, over: Partial<TrackingFacts> = {}): TrackingFacts => ({
  trackingId: `t-${identity}`, identity, state: 'running', recurrenceDays: 1, lastRunMs: NOW - DAY / 2, ours: true, pausedByUs: false, ...over,
});

/** A plan in one line per action, for the table. */
function summary(p: ReconcilePlan<string>): Record<string, string[]> {
  return {
    create: p.create.map((c) => `${c.identity}:${c.reason}`),
    pause: p.pause.map((t) => t.trackingId),
    resume: p.resume.map((r) => r.identity),
    keep: p.keep.map((k) => k.identity),
    search: p.searchTonight.map((s) => `${s.identity}:${s.reason}`),
  };
}
const none = { create: [], pause: [], resume: [], keep: [], search: [] };

describe('what each document and tracking needs', () => {
  const rows: Array<[string, Listed<string>[], TrackingFacts[], Record<string, string[]>]> = [
    ['a listed document without a tracking gets one and is searched once', [doc('a')], [], { ...none, create: ['a:new'], search: ['a:new'] }],
    ['a listed document whose tracking runs is kept, not searched', [doc('a')], [tracking('a')], { ...none, keep: ['a'] }],
    ['a tracking we made on a night killed before its search: the document is searched once, as new', [doc('a')], [tracking('a', { awaitingFirstSearch: true })], { ...none, keep: ['a'], search: ['a:new'] }],
    ['a dropped document has its running tracking paused', [], [tracking('a')], { ...none, pause: ['t-a'] }],
    ['a dropped document already paused is left alone', [], [tracking('a', { state: 'paused', pausedByUs: true })], none],
    ['a deleted tracking of a dropped document is left alone', [], [tracking('a', { state: 'deleted' })], none],
    ['another client\'s tracking is never paused', [], [tracking('a', { ours: false })], none],
    ['a document listed again after we paused it is resumed, not searched', [doc('a')], [tracking('a', { state: 'paused', pausedByUs: true })], { ...none, resume: ['a'] }],
    ['a tracking paused behind our back is resumed and its document searched', [doc('a')], [tracking('a', { state: 'paused' })], { ...none, resume: ['a'], search: ['a:paused_elsewhere'] }],
    ['a tracking deleted behind our back is made again and its document searched', [doc('a')], [tracking('a', { state: 'deleted' })], { ...none, create: ['a:deleted'], search: ['a:deleted'] }],
    ['an errored tracking is kept and its document searched', [doc('a')], [tracking('a', { state: 'errored' })], { ...none, keep: ['a'], search: ['a:errored'] }],
    ['a tracking silent for more than two recurrences has its document searched', [doc('a')], [tracking('a', { lastRunMs: NOW - 2 * DAY - 1 })], { ...none, keep: ['a'], search: ['a:stale'] }],
    ['two recurrences exactly is not yet stale', [doc('a')], [tracking('a', { lastRunMs: NOW - 2 * DAY })], { ...none, keep: ['a'] }],
    ['staleness counts in the tracking\'s own recurrence', [doc('a')], [tracking('a', { recurrenceDays: 7, lastRunMs: NOW - 10 * DAY })], { ...none, keep: ['a'] }],
    ['a document we paused long ago and list again is resumed and searched', [doc('a')], [tracking('a', { state: 'paused', pausedByUs: true, lastRunMs: NOW - 30 * DAY })], { ...none, resume: ['a'], search: ['a:stale'] }],
    ['a running tracking stands before a deleted one of the same search', [doc('a')], [tracking('a', { trackingId: 'old', state: 'deleted' }), tracking('a')], { ...none, keep: ['a'] }],
    ['a document listed twice counts once', [doc('a'), doc('a')], [], { ...none, create: ['a:new'], search: ['a:new'] }],
    ['a foreign tracking of a listed search is adopted', [doc('a')], [tracking('a', { ours: false })], { ...none, keep: ['a'] }],
  ];
  // The guard has its own tests below: here a single tracking may be paused.
  it.each(rows)('%s', (_what, listed, trackings, expected) => {
    expect(summary(planReconcile(listed, trackings, { ...OPTS, allowPause: true }))).toEqual(expected);
  });

  it('reads a status as where the tracking stands, an unknown one as running', () => {
    const rows: Array<[string, TrackingState]> = [
      ['created', 'running'], ['active', 'running'], ['updating', 'running'], ['updated', 'running'], ['paused', 'paused'],
      ['deleted', 'deleted'], ['cancelled', 'deleted'], ['error', 'errored'], ['FAILED', 'errored'], ['something new', 'running'],
    ];
    for (const [status, state] of rows) expect(trackingState(status), status).toBe(state);
  });
});

describe('the pause guard', () => {
  const ours = (n: number): TrackingFacts[] => Array.from({ length: n }, (_, i) => tracking(`d${i}`));
  const listedBut = (n: number, dropped: number): Listed<string>[] => Array.from({ length: n - dropped }, (_, i) => doc(`d${i + dropped}`));

  it('lets a tenth of our trackings be paused', () => {
    expect(planReconcile(listedBut(20, 2), ours(20), OPTS).pause).toHaveLength(2);
  });

  it('refuses more than a tenth with a constant code and advice naming --allow-pause', () => {
    let thrown: unknown;
    try {
      planReconcile(listedBut(20, 3), ours(20), OPTS);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(EtlError);
    expect(thrown).toMatchObject({ code: TRACKING_PAUSE_GUARD, usage: true, details: { pauses: 3, trackings: 20, limit: 2 } });
    expect((thrown as Error).message).toMatch(/3 of 20 trackings.*--allow-pause/s);
  });

  it('passes with allowPause, an empty list pausing everything', () => {
    expect(planReconcile([], ours(20), { ...OPTS, allowPause: true }).pause).toHaveLength(20);
  });

  it('counts only our live trackings: another client\'s and deleted ones neither pause nor dilute', () => {
    const theirs = Array.from({ length: 50 }, (_, i) => tracking(`f${i}`, { ours: false }));
    const deleted = Array.from({ length: 50 }, (_, i) => tracking(`x${i}`, { state: 'deleted' }));
    expect(() => planReconcile(listedBut(10, 2), [...ours(10), ...theirs, ...deleted], OPTS)).toThrow(/2 of 10/);
  });
});

/** What performing a plan leaves at the provider (every call succeeding), as the next night lists it. */
function applied(plan: ReconcilePlan<string>, trackings: readonly TrackingFacts[]): TrackingFacts[] {
  const paused = new Set(plan.pause.map((t) => t.trackingId));
  const resumed = new Set(plan.resume.map((r) => r.tracking.trackingId));
  const kept = new Set(plan.keep.map((k) => k.tracking.trackingId));
  const after = trackings.map((t) => {
    if (paused.has(t.trackingId)) return { ...t, state: 'paused' as const, pausedByUs: true };
    if (resumed.has(t.trackingId)) return { ...t, state: 'running' as const, pausedByUs: false, ours: true, lastRunMs: NOW };
    return kept.has(t.trackingId) ? { ...t, ours: true } : t;
  });
  const made = plan.create.map((c, i) => tracking(c.identity, { trackingId: `new-${i}`, lastRunMs: NOW }));
  return [...after, ...made];
}

describe('a property of every plan', () => {
  const identities = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
  const facts = fc.record({
    identity: identities,
    state: fc.constantFrom<TrackingState>('running', 'paused', 'deleted', 'errored'),
    ours: fc.boolean(),
    pausedByUs: fc.boolean(),
    ageDays: fc.integer({ min: 0, max: 10 }),
  });
  const world = fc.record({
    listed: fc.array(identities, { maxLength: 8 }),
    trackings: fc.array(facts, { maxLength: 10 }).map((fs) => fs.map((f, i) => tracking(f.identity, {
      trackingId: `t${i}`, state: f.state, ours: f.ours, pausedByUs: f.state === 'paused' && f.pausedByUs, lastRunMs: NOW - f.ageDays * DAY,
    }))),
  });

  it('never pauses a listed document, and once performed, the next plan changes nothing', () => {
    fc.assert(fc.property(world, ({ listed, trackings }) => {
      const docs = listed.map(doc);
      const opts = { ...OPTS, allowPause: true };
      const plan = planReconcile(docs, trackings, opts);
      for (const t of plan.pause) expect(listed).not.toContain(t.identity);
      for (const t of plan.pause) expect(t.ours).toBe(true);
      const again = planReconcile(docs, applied(plan, trackings), opts);
      expect(changesNothing(again), JSON.stringify(summary(again))).toBe(true);
      // Every listed identity ends with exactly one action.
      const acted = [...plan.create, ...plan.resume, ...plan.keep].map((x) => x.identity).sort();
      expect(acted).toEqual([...new Set(listed)].sort());
    }));
  });
});

describe('the lawsuits\' own trackings', () => {
  const lawsuit = (identity: string, ready = true): Listed<string> => ({ identity, doc: `lawsuit:${identity}`, kind: 'lawsuit', ready });
  const theirs = (identity: string, over: Partial<TrackingFacts> = {}): TrackingFacts => tracking(identity, { kind: 'lawsuit', ...over });
  const rows: Array<[string, Listed<string>[], TrackingFacts[], Record<string, string[]>]> = [
    ['a lawsuit kept whole without a tracking gets one, and is not read (its first run sends it whole)', [lawsuit('L')], [], { ...none, create: ['L:new'] }],
    ['a lawsuit not whole yet gets none before its read', [lawsuit('L', false)], [], none],
    ['a lawsuit whose tracking runs is kept, not read', [lawsuit('L')], [theirs('L')], { ...none, keep: ['L'] }],
    ['a lawsuit whose tracking was deleted gets a new one, and is not read', [lawsuit('L')], [theirs('L', { state: 'deleted' })], { ...none, create: ['L:deleted'] }],
    ['a lawsuit whose tracking was paused elsewhere: resumed and read', [lawsuit('L')], [theirs('L', { state: 'paused' })], { ...none, resume: ['L'], search: ['L:paused_elsewhere'] }],
    ['a lawsuit whose tracking errored: kept and read', [lawsuit('L')], [theirs('L', { state: 'errored' })], { ...none, keep: ['L'], search: ['L:errored'] }],
    ['a lawsuit whose tracking is silent: kept and read', [lawsuit('L')], [theirs('L', { lastRunMs: NOW - 3 * DAY })], { ...none, keep: ['L'], search: ['L:stale'] }],
    ['a lawsuit\'s new tracking waiting for its first run is not read as new', [lawsuit('L')], [theirs('L', { awaitingFirstSearch: true })], { ...none, keep: ['L'] }],
    ['a lawsuit no listed document finds: paused', [], [theirs('L')], { ...none, pause: ['t-L'] }],
    ['a number listed as a document is its document\'s tracking, never a second', [doc('L'), lawsuit('L')], [theirs('L')], { ...none, keep: ['L'] }],
  ];
  it.each(rows)('%s', (_what, listed, trackings, expected) => {
    expect(summary(planReconcile(listed, trackings, { ...OPTS, allowPause: true }))).toEqual(expected);
  });

  it('says why a lawsuit\'s tracking is paused, and guards each kind apart, an ended lawsuit let go uncounted', () => {
    const docs = Array.from({ length: 10 }, (_, i) => tracking(`d${i}`));
    const lawsuits = Array.from({ length: 10 }, (_, i) => theirs(`L${i}`));
    const listed = [...docs.map((t) => doc(t.identity)), ...lawsuits.slice(3).map((t) => lawsuit(t.identity))];
    const left = new Map([['L0', 'ended' as const], ['L1', 'ended' as const]]);
    const plan = planReconcile(listed, [...docs, ...lawsuits], { ...OPTS, lawsuitsLeft: left });
    expect(plan.pause.map((p) => `${p.identity}:${p.kind}:${p.why}`)).toEqual(['L0:lawsuit:ended', 'L1:lawsuit:ended', 'L2:lawsuit:unlisted']);
    expect(plan.guards).toEqual({ document: { pauses: 0, trackings: 10, limit: 1 }, lawsuit: { pauses: 1, trackings: 10, limit: 1 } });
    expect(() => planReconcile([...docs.map((t) => doc(t.identity)), ...lawsuits.slice(5).map((t) => lawsuit(t.identity))], [...docs, ...lawsuits], { ...OPTS, lawsuitsLeft: left }))
      .toThrow(expect.objectContaining({ code: TRACKING_PAUSE_GUARD, details: { kind: 'lawsuit', pauses: 3, trackings: 10, limit: 1 } }));
  });
});

describe('what the plan sees of a listed record (factsOf): its last run and whether it waits for its first search', () => {
  const MADE = NOW - 3 * DAY;
  const record = (over: Partial<Tracking> = {}): Tracking => ({
    tracking_id: 't-a', status: 'running', recurrence: 1, created_at: new Date(MADE).toISOString(), updated_at: new Date(MADE).toISOString(),
    search: { search_type: 'cpf', search_key: 'A' }, ...over,
  } as Tracking);
  const known = (over: Partial<Known> = {}): Known => ({ ours: new Map(), searchedAt: new Map(), runsRead: new Set(), ...over });
  const identityOf = (s: NonNullable<Tracking['search']>): string => `${s.search_type}:${s.search_key}`;
  const facts = (t: Tracking, k: Known, lastRunAt?: ReadonlyMap<string, Date>) => factsOf(t, identityOf, k, lastRunAt);

  const rows: Array<[string, Tracking, Known, ReadonlyMap<string, Date> | undefined, Partial<TrackingFacts> | undefined]> = [
    ['a record whose search cannot be told is not seen', record({ search: undefined }), known(), undefined, undefined],
    ['made after its document was last searched, no run read: it waits for its first search', record(), known({ searchedAt: new Map([['cpf:A', MADE - DAY]]) }), undefined,
      { identity: 'cpf:A', awaitingFirstSearch: true, lastRunMs: MADE, ours: false }],
    ['its document searched since it was made: it waits for nothing', record(), known({ searchedAt: new Map([['cpf:A', MADE + 1]]) }), undefined, { awaitingFirstSearch: false }],
    ['a run of it read: it waits for nothing, whatever the searches', record(), known({ runsRead: new Set(['t-a']) }), undefined, { awaitingFirstSearch: false }],
    ['ours: made when our check says, not when the provider stamped it', record(), known({ ours: new Map([['t-a', { pausedByUs: true, madeAtMs: MADE - 2 * DAY, kind: 'lawsuit' }]]), searchedAt: new Map([['cpf:A', MADE - DAY]]) }), undefined,
      { awaitingFirstSearch: false, ours: true, pausedByUs: true, kind: 'lawsuit' }],
    ['a run read later than the listing shows makes it young', record(), known(), new Map([['t-a', new Date(NOW - 1000)]]), { lastRunMs: NOW - 1000 }],
    ['its latest stamp is its last run: updated after made', record({ updated_at: new Date(NOW - DAY).toISOString() }), known(), undefined, { lastRunMs: NOW - DAY, state: 'running', recurrenceDays: 1 }],
  ];
  it.each(rows)('%s', (_what, t, k, lastRunAt, expected) => {
    const f = facts(t, k, lastRunAt);
    if (expected === undefined) expect(f).toBeUndefined();
    else expect(f).toMatchObject(expected);
  });

  it('staleness is measured at our clock, or at the listing\'s newest stamp when the provider\'s clock is ahead', () => {
    expect(measuredAt([record()], NOW)).toBe(NOW);
    expect(measuredAt([record({ updated_at: new Date(NOW + DAY).toISOString() }), record({ created_at: 'not a date' })], NOW)).toBe(NOW + DAY);
    expect(measuredAt([], NOW)).toBe(NOW);
  });
});
