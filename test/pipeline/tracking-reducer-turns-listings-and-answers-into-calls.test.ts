// The reconciliation of a trackings night as a reducer (src/pipeline/tracking/reduce.ts), as a table: for what the
// night wants (listed documents, lawsuits kept whole and whether each is whole yet), the key's trackings as listed
// and the answers the calls get, the commands it gives (calls to make, checks to record, a stop) and what the night
// learns (each search's tracking, what is searched or read tonight besides, the figures of each kind).
import { describe, expect, it } from 'vitest';
import { errorForStatus } from '../../src/api/errors.js';
import type { DocumentSpec } from '../../src/input/documents.js';
import type { Listed, TrackingFacts } from '../../src/pipeline/tracking/reconcile-plan.js';
import {
  reconcileState, reduce, tonightOf, type ReconcileCommand, type ReconcileEvent, type ReconcilePass, type ReconcileState, type Settled, type Target,
} from '../../src/pipeline/tracking/reduce.js';
import type { Tracking } from '../../src/spec/types.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-03-10T03:00:00Z');

const spec = (key: string): DocumentSpec => ({ line: 2, searchType: 'cpf', searchKey: key, rawKey: key, onDemand: false });
const doc = (key: string): Listed<Target> => ({ identity: `cpf:${key}`, kind: 'document', doc: { kind: 'document', doc: spec(key) } });
const lawsuit = (code: string, ready = true): Listed<Target> => ({ identity: `cnj:${code}`, kind: 'lawsuit', ready, doc: { kind: 'lawsuit', code } });
/** A tracking of the key as the plan sees it, and as listed. */
const tracking = (identity: string, over: Partial<TrackingFacts> = {}): TrackingFacts => ({
  trackingId: `t-${identity.split(':')[1]}`, identity, state: 'running', recurrenceDays: 1, lastRunMs: NOW - DAY / 2, ours: true, pausedByUs: false,
  kind: identity.startsWith('cnj:') ? 'lawsuit' : 'document', ...over,
});
const record = (f: TrackingFacts): Tracking => ({
  tracking_id: f.trackingId, status: f.state === 'running' ? 'updated' : f.state, recurrence: 1, created_at: '2026-03-01T03:00:00Z',
  search: f.identity.startsWith('cnj:') ? { search_type: 'lawsuit_cnj', search_key: f.identity.slice(4) } : { search_type: 'cpf', search_key: f.identity.slice(4) },
});
const made = (id: string): Settled<never> => ({ ok: true, value: { conflict: false, tracking: { tracking_id: id, status: 'created' } } as never });
const answered = (status: string, id = 'x'): Settled<never> => ({ ok: true, value: { tracking_id: id, status } as never });
const failed = (status: number): Settled<never> => ({ ok: false, error: errorForStatus(status, {}, 'POST /tracking', (x) => x) });

/** A command in a word or two, for the table. */
function word(c: ReconcileCommand): string {
  switch (c.kind) {
    case 'create': return `create ${c.identity}`;
    case 'pause': return `pause ${c.trackingId}`;
    case 'resume': return `resume ${c.identity}`;
    case 'record': return `record ${c.check.kind} ${c.check.search_key} ${c.check.outcome}${c.check.search_reason ? ` (${c.check.search_reason})` : ''}`;
    case 'stop': return `stop ${(c.error as { code: string }).code}`;
  }
}

interface Night { state: ReconcileState; trace: string[] }

/** The reducer over a listing, the calls' answers in the order given, and the end of the calls. */
function night(wanted: Listed<Target>[], trackings: TrackingFacts[], answers: (calls: ReconcileCommand[]) => ReconcileEvent[], o: { pass?: ReconcilePass; allowPause?: boolean; left?: Map<string, 'ended' | 'depth'> } = {}): Night {
  const state = reconcileState(o.pass ?? 'night', wanted, { nowMs: NOW, recurrenceDays: 1, allowPause: o.allowPause ?? true, lawsuitsLeft: o.left });
  const trace: string[] = [];
  const calls = reduce(state, { kind: 'listed', records: trackings.map(record), facts: trackings }).commands;
  trace.push(...calls.map(word));
  if (calls.some((c) => c.kind === 'stop')) return { state, trace };
  for (const e of answers(calls)) trace.push(...reduce(state, e).commands.map(word));
  trace.push(...reduce(state, { kind: 'calls-done' }).commands.map(word));
  return { state, trace };
}
const none = (): ReconcileEvent[] => [];

describe('the trackings reducer', () => {
  const rows: Array<[string, () => Night, string[], { tonight?: ReturnType<typeof tonightOf>; trackingOf?: Record<string, string> }]> = [
    ['a listed document without a tracking: made, recorded as new, searched once',
      () => night([doc('a')], [], () => [{ kind: 'created', identity: 'cpf:a', answer: made('t-a') }]),
      ['create cpf:a', 'record document a created (new)'],
      { tonight: { documents: [{ doc: spec('a'), reason: 'new' }], lawsuits: [] }, trackingOf: { 'cpf:a': 't-a' } }],
    ['a creation refused: recorded failed, the document searched as untracked',
      () => night([doc('a')], [], () => [{ kind: 'created', identity: 'cpf:a', answer: failed(400) }]),
      ['create cpf:a', 'record document a failed (untracked)'], { tonight: { documents: [{ doc: spec('a'), reason: 'untracked' }], lawsuits: [] }, trackingOf: {} }],
    ['a 409 naming the tracking: it is the one wanted, kept',
      () => night([doc('a')], [], () => [{ kind: 'created', identity: 'cpf:a', answer: { ok: true, value: { conflict: true, trackingId: 't-9' } as never } }]),
      ['create cpf:a', 'record document a conflict (new)'], { trackingOf: { 'cpf:a': 't-9' } }],
    ['a 409 naming none: the document covered by a search alone',
      () => night([doc('a')], [], () => [{ kind: 'created', identity: 'cpf:a', answer: { ok: true, value: { conflict: true } as never } }]),
      ['create cpf:a', 'record document a conflict (untracked)'], { trackingOf: {} }],
    ['a lawsuit whole and untracked: its tracking made, nothing read (the first run sends it whole)',
      () => night([lawsuit('L1')], [], () => [{ kind: 'created', identity: 'cnj:L1', answer: made('t-L1') }]),
      ['create cnj:L1', 'record lawsuit L1 created'], { tonight: { documents: [], lawsuits: [] }, trackingOf: { 'cnj:L1': 't-L1' } }],
    ['a lawsuit not whole yet: no tracking before its read (the second pass makes it)',
      () => night([lawsuit('L1', false)], [], none), [], { trackingOf: {} }],
    ['a lawsuit\'s creation refused: a failure of its own, nothing read or searched tonight',
      () => night([lawsuit('L1')], [], () => [{ kind: 'created', identity: 'cnj:L1', answer: failed(400) }]),
      ['create cnj:L1', 'record lawsuit L1 failed'], { tonight: { documents: [], lawsuits: [] } }],
    ['a lawsuit no listed document finds any more: its tracking paused',
      () => night([], [tracking('cnj:L1')], () => [{ kind: 'paused', trackingId: 't-L1', answer: answered('paused', 't-L1') }]),
      ['pause t-L1', 'record lawsuit L1 paused'], {}],
    ['a pause answered 404: recorded gone',
      () => night([], [tracking('cnj:L1')], () => [{ kind: 'paused', trackingId: 't-L1', answer: { ok: true, value: 'gone' as never } }]),
      ['pause t-L1', 'record lawsuit L1 gone'], {}],
    ['a lawsuit\'s tracking paused behind our back: resumed, and the lawsuit read tonight',
      () => night([lawsuit('L1')], [tracking('cnj:L1', { state: 'paused' })], () => [{ kind: 'resumed', identity: 'cnj:L1', answer: answered('updated', 't-L1') }]),
      ['resume cnj:L1', 'record lawsuit L1 resumed (paused_elsewhere)'], { tonight: { documents: [], lawsuits: [{ code: 'L1', reason: 'paused_elsewhere' }] }, trackingOf: { 'cnj:L1': 't-L1' } }],
    ['a lawsuit\'s tracking silent for over two recurrences: kept, the lawsuit read tonight',
      () => night([lawsuit('L1')], [tracking('cnj:L1', { lastRunMs: NOW - 3 * DAY })], none),
      ['record lawsuit L1 kept (stale)'], { tonight: { documents: [], lawsuits: [{ code: 'L1', reason: 'stale' }] } }],
    ['a lawsuit\'s tracking deleted behind our back: made again, nothing read',
      () => night([lawsuit('L1')], [tracking('cnj:L1', { state: 'deleted' })], () => [{ kind: 'created', identity: 'cnj:L1', answer: made('t-new') }]),
      ['create cnj:L1', 'record lawsuit L1 created'], { tonight: { documents: [], lawsuits: [] }, trackingOf: { 'cnj:L1': 't-new' } }],
    ['a document\'s resume answered deleted: searched tonight as deleted',
      () => night([doc('a')], [tracking('cpf:a', { state: 'paused', pausedByUs: true })], () => [{ kind: 'resumed', identity: 'cpf:a', answer: answered('deleted') }]),
      ['resume cpf:a', 'record document a gone (deleted)'], { tonight: { documents: [{ doc: spec('a'), reason: 'deleted' }], lawsuits: [] }, trackingOf: {} }],
    ['a lawsuit\'s resume answered deleted: nothing tonight (the next night makes it again)',
      () => night([lawsuit('L1')], [tracking('cnj:L1', { state: 'paused', pausedByUs: true })], () => [{ kind: 'resumed', identity: 'cnj:L1', answer: { ok: true, value: 'gone' as never } }]),
      ['resume cnj:L1', 'record lawsuit L1 gone'], { tonight: { documents: [], lawsuits: [] }, trackingOf: {} }],
    ['the key refused on a creation: the reconciliation stops',
      () => night([doc('a'), doc('b')], [], () => [{ kind: 'created', identity: 'cpf:a', answer: failed(401) }]),
      ['create cpf:a', 'create cpf:b', 'stop API_UNAUTHORIZED'], {}],
    ['a number listed as a document and found by another: one tracking, the document\'s',
      () => night([{ ...doc('L1'), identity: 'cnj:L1' }, lawsuit('L1')], [tracking('cnj:L1', { kind: 'lawsuit' })], none),
      ['record document L1 kept'], { trackingOf: { 'cnj:L1': 't-L1' } }],
    ['the second pass makes the lawsuits\' trackings and resumes those found again, pauses nothing, makes no document\'s',
      () => night([doc('a'), lawsuit('L1'), lawsuit('L2')], [tracking('cnj:L2', { state: 'paused', pausedByUs: true }), tracking('cnj:L9')], (calls) => calls.map((c) => (c.kind === 'create'
        ? { kind: 'created', identity: c.identity, answer: made('t-L1') } : { kind: 'resumed', identity: (c as { identity: string }).identity, answer: answered('updated', 't-L2') })), { pass: 'lawsuits-after-reads' }),
      ['create cnj:L1', 'resume cnj:L2', 'record lawsuit L1 created', 'record lawsuit L2 resumed'], {}],
  ];

  it.each(rows)('%s', (_what, run, trace, want) => {
    const { state, trace: got } = run();
    expect(got).toEqual(trace);
    if (want.tonight) expect(tonightOf(state)).toEqual(want.tonight);
    if (want.trackingOf) expect(Object.fromEntries(state.trackingOf)).toEqual(want.trackingOf);
  });

  it('counts each kind apart: made, paused, resumed and left as they were', () => {
    const { state } = night([doc('a'), doc('b'), lawsuit('L1'), lawsuit('L2')], [tracking('cpf:b'), tracking('cnj:L2'), tracking('cnj:L3')], (calls) => calls.map((c): ReconcileEvent => {
      if (c.kind === 'create') return { kind: 'created', identity: c.identity, answer: made(`t-${c.identity}`) };
      return { kind: 'paused', trackingId: (c as { trackingId: string }).trackingId, answer: answered('paused', 't-L3') };
    }));
    expect(state.counts).toEqual({ document: { created: 1, paused: 0, resumed: 0, kept: 1 }, lawsuit: { created: 1, paused: 1, resumed: 0, kept: 1 } });
  });

  it('guards each kind apart: a list cut short stops the night, a lawsuit ended under LAWSUIT_DETAIL=active does not', () => {
    const docs = Array.from({ length: 20 }, (_, i) => doc(`d${i}`));
    const theirs = Array.from({ length: 20 }, (_, i) => tracking(`cpf:d${i}`));
    const lawsuits = Array.from({ length: 10 }, (_, i) => tracking(`cnj:L${i}`));
    const keptLawsuits = Array.from({ length: 8 }, (_, i) => lawsuit(`L${i + 2}`));
    // 2 of 10 lawsuit trackings paused as no listed document finds them: more than a tenth
    const cut = night([...docs, ...keptLawsuits], [...theirs, ...lawsuits], none, { allowPause: false });
    expect(cut.trace).toEqual(['stop TRACKING_PAUSE_GUARD']);
    expect(cut.state.stop).toMatchObject({ details: { kind: 'lawsuit', pauses: 2, trackings: 10, limit: 1 } });
    // the same 2 ended under LAWSUIT_DETAIL=active: paused, not counted
    const ended = new Map([['cnj:L0', 'ended' as const], ['cnj:L1', 'ended' as const]]);
    const let_go = night([...docs, ...keptLawsuits], [...theirs, ...lawsuits], (calls) => calls.map((c) => ({ kind: 'paused', trackingId: (c as { trackingId: string }).trackingId, answer: answered('paused') })), { allowPause: false, left: ended });
    expect(let_go.trace.filter((t) => t.startsWith('pause'))).toEqual(['pause t-L0', 'pause t-L1']);
    expect(let_go.state.plan!.guards.lawsuit).toEqual({ pauses: 0, trackings: 10, limit: 1 });
  });
});
