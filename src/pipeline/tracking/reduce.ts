import { API_CODES } from '../../api/errors.js';
import type { CreateTrackingResult, TrackingAnswer } from '../../api/tracking.js';
import type { DocumentSpec } from '../../input/documents.js';
import { isEtlError } from '../../shared/errors.js';
import type { Tracking } from '../../spec/types.js';
import {
  planReconcile, trackingState, type Listed, type PlannedPause, type ReconcilePlan, type ReconcilePlanOptions, type SearchReason,
  type TrackingFacts, type TrackingKind,
} from './reconcile-plan.js';

// The reconciliation of a trackings night as a reducer: (state, event) -> (state, commands), like the search
// stage's (search/reduce.ts). The key's trackings listed become tonight's plan (reconcile-plan.ts) and the calls it
// needs (create, pause, resume); each answer becomes the check to record and what the night learns (which
// tracking follows what, what is searched or read tonight besides, what failed). No call, no clock, no warehouse:
// the shell (reconcile.ts) performs the commands and hands the answers back as events.
//
// The same reducer makes the night's second pass (`lawsuits-after-reads`): once the lawsuit-level reads made
// tonight's lawsuits whole, only the lawsuits' trackings still to make are made, and those paused earlier that a
// document found tonight resumed; nothing is paused there.

/** What a tracking follows: a listed document, or the number of a lawsuit kept whole. */
export type Target = { kind: 'document'; doc: DocumentSpec } | { kind: 'lawsuit'; code: string };

/** The whole night's reconciliation, or the second pass that makes the trackings of the lawsuits read whole tonight. */
export type ReconcilePass = 'night' | 'lawsuits-after-reads';

/** A call's answer, or why it failed. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export type ReconcileEvent =
  /** The key's trackings as listed: the records, and each as the plan sees it. */
  | { kind: 'listed'; records: readonly Tracking[]; facts: readonly TrackingFacts[] }
  | { kind: 'created'; identity: string; answer: Settled<CreateTrackingResult> }
  | { kind: 'paused'; trackingId: string; answer: Settled<TrackingAnswer> }
  | { kind: 'resumed'; identity: string; answer: Settled<TrackingAnswer> }
  /** Every call was answered: what stays as it is is recorded. */
  | { kind: 'calls-done' };

/** A row of tracking_checks but for the run and the instant, which the shell adds. */
interface CheckFacts {
  search_type: string; search_key: string; document_line: number | null; tracking_id: string | null;
  outcome: string; error: string | null; search_reason: SearchReason | null; kind: TrackingKind;
}

export type ReconcileCommand =
  | { kind: 'create'; identity: string; target: Target }
  | { kind: 'pause'; trackingId: string }
  | { kind: 'resume'; identity: string; trackingId: string }
  /** Record a check, with the tracking's record as it now stands. */
  | { kind: 'record'; check: CheckFacts; tracking?: Tracking }
  /** Nothing more is sent: the pause guard refused the plan, or the key was refused. */
  | { kind: 'stop'; error: unknown };

/** A change that could not be made. */
export interface ReconcileFailure {
  action: 'create' | 'pause' | 'resume';
  kind: TrackingKind;
  searchType: string;
  searchKey: string;
  /** The documents list's line, for a listed document. */
  line?: number;
  trackingId?: string;
  code: string;
  reason: string;
}

/** A kind's figures: trackings made, paused, resumed and left as they were tonight. */
export interface KindCounts { created: number; paused: number; resumed: number; kept: number }

export interface ReconcileState {
  readonly pass: ReconcilePass;
  /** Tonight's wanted searches: the listed documents first, then the lawsuits kept whole. */
  readonly wanted: readonly Listed<Target>[];
  readonly opts: ReconcilePlanOptions;
  plan?: ReconcilePlan<Target>;
  /** The plan by identity and by tracking id, for the answers (a night of 100,000 trackings answers each in constant time). */
  index: PlanIndex;
  /** The key's records, as listed, then as answered. */
  records: Map<string, Tracking>;
  /** Each wanted identity's tracking tonight. */
  trackingOf: Map<string, string>;
  counts: Record<TrackingKind, KindCounts>;
  failures: ReconcileFailure[];
  /** Why a wanted search is covered tonight besides, as a call's answer decided it (a creation or resume that failed, a tracking found deleted): over the plan's reason, or beside it. */
  answeredReasons: Map<string, SearchReason>;
  /** What stopped the reconciliation: the pause guard's refusal, or the key refused. */
  stop?: unknown;
}

interface PlanIndex {
  wanted: Map<string, Listed<Target> & { kind: TrackingKind }>;
  created: Map<string, 'new' | 'deleted'>;
  pause: Map<string, PlannedPause>;
  resume: Map<string, string>;
  reasons: Map<string, SearchReason>;
}

const zero = (): KindCounts => ({ created: 0, paused: 0, resumed: 0, kept: 0 });

export function reconcileState(pass: ReconcilePass, wanted: readonly Listed<Target>[], opts: ReconcilePlanOptions): ReconcileState {
  const byIdentity = new Map<string, Listed<Target> & { kind: TrackingKind }>();
  for (const w of wanted) if (!byIdentity.has(w.identity)) byIdentity.set(w.identity, { ...w, kind: w.kind ?? 'document' });
  return {
    pass, wanted, opts, index: { wanted: byIdentity, created: new Map(), pause: new Map(), resume: new Map(), reasons: new Map() },
    records: new Map(), trackingOf: new Map(), counts: { document: zero(), lawsuit: zero() }, failures: [], answeredReasons: new Map(),
  };
}

interface ReconcileStep { state: ReconcileState; commands: ReconcileCommand[] }

export function reduce(s: ReconcileState, e: ReconcileEvent): ReconcileStep {
  const out: ReconcileCommand[] = [];
  switch (e.kind) {
    case 'listed': listed(s, e.records, e.facts, out); break;
    case 'created': created(s, e.identity, e.answer, out); break;
    case 'paused': paused(s, e.trackingId, e.answer, out); break;
    case 'resumed': resumed(s, e.identity, e.answer, out); break;
    case 'calls-done': callsDone(s, out); break;
  }
  return { state: s, commands: out };
}

function listed(s: ReconcileState, records: readonly Tracking[], facts: readonly TrackingFacts[], out: ReconcileCommand[]): void {
  for (const t of records) s.records.set(t.tracking_id, t);
  try {
    // The second pass pauses nothing: its guard was the night's.
    s.plan = planReconcile(s.wanted, facts, s.pass === 'night' ? s.opts : { ...s.opts, allowPause: true });
  } catch (error) {
    s.stop = error;
    out.push({ kind: 'stop', error });
    return;
  }
  const p = s.plan;
  for (const c of p.create) s.index.created.set(c.identity, c.reason);
  for (const t of p.pause) s.index.pause.set(t.trackingId, t);
  for (const r of p.resume) s.index.resume.set(r.identity, r.tracking.trackingId);
  for (const x of p.searchTonight) s.index.reasons.set(x.identity, x.reason);
  for (const k of p.keep) s.trackingOf.set(k.identity, k.tracking.trackingId);
  if (s.pass === 'lawsuits-after-reads') {
    for (const c of p.create) if (c.kind === 'lawsuit') out.push({ kind: 'create', identity: c.identity, target: c.doc });
    for (const r of p.resume) if (r.kind === 'lawsuit') out.push({ kind: 'resume', identity: r.identity, trackingId: r.tracking.trackingId });
    return;
  }
  for (const c of p.create) out.push({ kind: 'create', identity: c.identity, target: c.doc });
  for (const t of p.pause) out.push({ kind: 'pause', trackingId: t.trackingId });
  for (const r of p.resume) out.push({ kind: 'resume', identity: r.identity, trackingId: r.tracking.trackingId });
}

/** The wanted search of an identity (the plan's). */
const wantedOf = (s: ReconcileState, identity: string): Listed<Target> & { kind: TrackingKind } => s.index.wanted.get(identity)!;

/** The check of a wanted search. */
function checkOf(w: Listed<Target>, trackingId: string | null, outcome: string, reason: SearchReason | null): CheckFacts {
  const t = w.doc;
  return t.kind === 'document'
    ? { search_type: t.doc.searchType, search_key: t.doc.searchKey, document_line: t.doc.line, tracking_id: trackingId, outcome, error: null, search_reason: reason, kind: 'document' }
    : { search_type: 'lawsuit_cnj', search_key: t.code, document_line: null, tracking_id: trackingId, outcome, error: null, search_reason: reason, kind: 'lawsuit' };
}

/** A failure's code and text; a refused key stops the whole reconciliation (every other call would meet it). */
function failed(s: ReconcileState, error: unknown, out: ReconcileCommand[]): { code: string; reason: string } | undefined {
  if (isEtlError(error) && error.code === API_CODES.unauthorized) {
    s.stop ??= error;
    out.push({ kind: 'stop', error });
    return undefined;
  }
  return { code: isEtlError(error) ? error.code : 'TRACKING_UNEXPECTED', reason: (error instanceof Error ? error.message : String(error)).slice(0, 500) };
}

/** The plan's reason for covering a wanted search tonight besides, if any. */
const plannedReason = (s: ReconcileState, identity: string): SearchReason | null => s.index.reasons.get(identity) ?? null;

function created(s: ReconcileState, identity: string, answer: Settled<CreateTrackingResult>, out: ReconcileCommand[]): void {
  const w = wantedOf(s, identity);
  const reason = s.index.created.get(identity) ?? 'new';
  // A document left untracked tonight is searched; a lawsuit left so waits for the next night (it is whole tonight).
  const untracked = (): SearchReason | null => {
    if (w.kind === 'lawsuit') return null;
    s.answeredReasons.set(identity, 'untracked');
    return 'untracked';
  };
  if (!answer.ok) {
    const f = failed(s, answer.error, out);
    if (!f) return;
    s.failures.push({ action: 'create', ...where(w), ...f });
    out.push({ kind: 'record', check: { ...checkOf(w, null, 'failed', untracked()), error: f.reason } });
  } else if (answer.value.conflict) {
    // A live tracking the listing did not show (made meanwhile): it is the one wanted; without its id, the night
    // cannot attribute its runs, and a document is covered by a search alone.
    const id = answer.value.trackingId;
    if (id) s.trackingOf.set(identity, id);
    s.counts[w.kind].kept++;
    out.push({ kind: 'record', check: checkOf(w, id ?? null, 'conflict', id ? (w.kind === 'document' ? reason : null) : untracked()) });
  } else {
    const t = answered(s, answer.value.tracking);
    s.trackingOf.set(identity, t.tracking_id);
    s.counts[w.kind].created++;
    out.push({ kind: 'record', check: checkOf(w, t.tracking_id, 'created', w.kind === 'document' ? reason : null), tracking: t });
  }
}

function paused(s: ReconcileState, trackingId: string, answer: Settled<TrackingAnswer>, out: ReconcileCommand[]): void {
  const p = s.index.pause.get(trackingId)!;
  const listed = s.records.get(trackingId);
  if (!answer.ok) {
    const f = failed(s, answer.error, out);
    if (!f) return;
    s.failures.push({ action: 'pause', kind: p.kind, searchType: listed?.search?.search_type ?? '', searchKey: listed?.search?.search_key ?? '', trackingId, ...f });
    out.push({ kind: 'record', check: { ...pauseCheck(p, listed, 'failed'), error: f.reason } });
    return;
  }
  const now = answer.value === 'gone' ? undefined : answered(s, answer.value);
  const state = now === undefined ? 'deleted' : trackingState(String(now.status ?? 'paused'));
  if (state === 'paused') s.counts[p.kind].paused++;
  out.push({ kind: 'record', check: pauseCheck(p, listed, state === 'paused' ? 'paused' : 'gone'), tracking: now });
}

/** The check of a paused tracking: its own search, since it is no longer wanted. */
function pauseCheck(p: PlannedPause, t: Tracking | undefined, outcome: string): CheckFacts {
  return {
    search_type: t?.search?.search_type ?? '', search_key: t?.search?.search_key ?? p.trackingId, document_line: null, tracking_id: p.trackingId,
    outcome, error: null, search_reason: null, kind: p.kind,
  };
}

function resumed(s: ReconcileState, identity: string, answer: Settled<TrackingAnswer>, out: ReconcileCommand[]): void {
  const w = wantedOf(s, identity);
  const id = s.index.resume.get(identity)!;
  const isDoc = w.kind === 'document';
  if (!answer.ok) {
    const f = failed(s, answer.error, out);
    if (!f) return;
    s.failures.push({ action: 'resume', ...where(w), trackingId: id, ...f });
    if (isDoc) s.answeredReasons.set(identity, 'untracked');
    out.push({ kind: 'record', check: { ...checkOf(w, id, 'failed', isDoc ? 'untracked' : null), error: f.reason } });
  } else if (answer.value === 'gone' || trackingState(String(answer.value.status ?? '')) === 'deleted') {
    // Deleted between the listing and the resume: the next night makes it again; tonight a search covers a document.
    if (isDoc) s.answeredReasons.set(identity, 'deleted');
    out.push({ kind: 'record', check: checkOf(w, id, 'gone', isDoc ? 'deleted' : null) });
  } else {
    const t = answered(s, answer.value);
    s.trackingOf.set(identity, id);
    s.counts[w.kind].resumed++;
    out.push({ kind: 'record', check: checkOf(w, id, 'resumed', plannedReason(s, identity)), tracking: t });
  }
}

function callsDone(s: ReconcileState, out: ReconcileCommand[]): void {
  if (s.pass !== 'night' || !s.plan) return;
  for (const k of s.plan.keep) {
    s.counts[k.kind ?? 'document'].kept++;
    out.push({ kind: 'record', check: checkOf(k, k.tracking.trackingId, 'kept', plannedReason(s, k.identity)), tracking: s.records.get(k.tracking.trackingId) });
  }
}

/** The record as answered, over what the listing showed (an answer may leave fields out). */
function answered(s: ReconcileState, t: Tracking): Tracking {
  const merged = { ...s.records.get(t.tracking_id), ...t };
  s.records.set(t.tracking_id, merged);
  return merged;
}

function where(w: Listed<Target> & { kind: TrackingKind }): Pick<ReconcileFailure, 'kind' | 'searchType' | 'searchKey' | 'line'> {
  return w.doc.kind === 'document'
    ? { kind: 'document', searchType: w.doc.doc.searchType, searchKey: w.doc.doc.searchKey, line: w.doc.doc.line }
    : { kind: 'lawsuit', searchType: 'lawsuit_cnj', searchKey: w.doc.code };
}

/** What tonight covers besides the trackings, by kind: documents to search, lawsuits to read whole, each with why. */
interface Tonight {
  documents: Array<{ doc: DocumentSpec; reason: SearchReason }>;
  lawsuits: Array<{ code: string; reason: SearchReason }>;
}

/** The plan's searches and reads besides, with the reasons calls changed, and the documents no call could leave tracked. */
export function tonightOf(s: ReconcileState): Tonight {
  const out: Tonight = { documents: [], lawsuits: [] };
  const add = (w: Listed<Target>, reason: SearchReason): void => {
    if (w.doc.kind === 'document') out.documents.push({ doc: w.doc.doc, reason });
    else out.lawsuits.push({ code: w.doc.code, reason });
  };
  const planned = new Set<string>();
  for (const x of s.plan?.searchTonight ?? []) {
    planned.add(x.identity);
    add(x, s.answeredReasons.get(x.identity) ?? x.reason);
  }
  for (const [identity, reason] of s.answeredReasons) if (!planned.has(identity)) add(wantedOf(s, identity), reason);
  return out;
}

/** A dry run's figures: the plan's, as if every call succeeded. */
export function plannedCounts(plan: ReconcilePlan<Target>): Record<TrackingKind, KindCounts> {
  const of = (kind: TrackingKind): KindCounts => ({
    created: plan.create.filter((c) => (c.kind ?? 'document') === kind).length,
    paused: plan.pause.filter((p) => p.kind === kind).length,
    resumed: plan.resume.filter((r) => (r.kind ?? 'document') === kind).length,
    kept: plan.keep.filter((k) => (k.kind ?? 'document') === kind).length,
  });
  return { document: of('document'), lawsuit: of('lawsuit') };
}
