import { EtlError } from '../../shared/errors.js';
import type { Tracking } from '../../spec/types.js';

// The reconciliation of a trackings night, decided without touching the network or the warehouse: what the key's
// trackings should be, against what they are. Two kinds (REFERENCE.md, "Two levels"): a listed document's tracking
// (it announces the lawsuits born to the document), and a lawsuit's tracking (search_type lawsuit_cnj, one per
// number kept whole: it carries the lawsuit's movements). A wanted search without a tracking gets one (a lawsuit's
// only once its lawsuit is whole: `ready`), a tracking of ours no longer wanted is paused (reversible, never deleted
// here), a paused one wanted again is resumed; and some are covered tonight besides, because their tracking cannot be
// trusted to have produced what they need (new, paused or deleted behind our back, errored, silent for too long): a
// document is searched, a lawsuit read at the lawsuit level. The reducer (reduce.ts) turns this plan into calls.
//
// Identities are opaque strings here: the shell gives each document, lawsuit and tracking its search identity
// (identity.ts, over spec/search-identity.ts), so that this file never invents a normal form. One identity is one
// tracking whatever the kind: a number listed as a document is that document's tracking, never a second one.

const DAY_MS = 86_400_000;

/** Which kind of tracking: a listed document's, or a lawsuit's kept whole (lawsuit_cnj). */
export type TrackingKind = 'document' | 'lawsuit';

/**
 * Why a lawsuit's tracking is paused: no listed document finds the lawsuit any more (`unlisted`), it was archived or
 * finished under LAWSUIT_DETAIL=active (`ended`), or LAWSUIT_DETAIL=header keeps no lawsuit whole (`depth`).
 */
export type PauseReason = 'unlisted' | 'ended' | 'depth';

/**
 * Why a listed document is searched tonight although it is tracked, or a tracked lawsuit read at the lawsuit level
 * (the night's report says it). A lawsuit's tracking sends its lawsuit whole on its first run, so only a tracking
 * that may have missed runs (paused elsewhere, errored, stale) has its lawsuit read.
 */
export type SearchReason =
  /**
   * Its tracking is new to the warehouse: made tonight (its first run may come hours later), or found made since
   * the document's last search with no run of it read (a night killed before recording or searching it; another
   * client's tracking matched for the first time).
   */
  | 'new'
  /** Its tracking was paused by someone else (we did not pause it): runs were missed. */
  | 'paused_elsewhere'
  /** Its tracking was deleted by someone else; a new one is made tonight. */
  | 'deleted'
  /** Its tracking is in an error state at the provider. */
  | 'errored'
  /** Its tracking produced no run for more than two recurrences. */
  | 'stale'
  /** No tracking could be made or found for it tonight (the creation failed): only a search covers it. */
  | 'untracked';

/** Where a tracking stands, from its status as listed (trackingState). */
export type TrackingState = 'running' | 'paused' | 'deleted' | 'errored';

/** A tracking as the plan sees it. */
export interface TrackingFacts {
  trackingId: string;
  /** Its search's identity (the same function as the documents'). */
  identity: string;
  state: TrackingState;
  /** Its own recurrence in days, when listed; else the configured one is assumed. */
  recurrenceDays?: number;
  /**
   * The latest instant it is known to have run, epoch ms; before any run, when it was made or resumed; for a
   * paused one, when it was paused.
   */
  lastRunMs: number;
  /**
   * We made it, or matched it to a listed document on an earlier night (tracking_checks). A key shared with
   * another client holds that client's trackings too: those are never paused, whatever the list says.
   */
  ours: boolean;
  /** The last pause or resume we made of it was a pause (a paused tracking we did not pause was paused elsewhere). */
  pausedByUs: boolean;
  /**
   * Since it was made, neither a search of its document was submitted nor a run of it read: a night killed between
   * making the tracking and searching (or recording it) must still search the new document once when it runs again.
   */
  awaitingFirstSearch?: boolean;
  /** The kind we last reconciled it as (ours); a tracking of ours recorded before lawsuits were tracked is a document's. */
  kind?: TrackingKind;
}

/**
 * A wanted search: its identity, its kind (default `document`) and whatever the caller carries along (the document,
 * the lawsuit number). `ready`: a lawsuit's tracking may be made tonight, its lawsuit being whole (default true);
 * one not ready yet is read whole first, and its tracking made after (the night's second pass).
 */
export interface Listed<D> { identity: string; doc: D; kind?: TrackingKind; ready?: boolean }

export interface ReconcilePlanOptions {
  /** The instant staleness is measured at, epoch ms. */
  nowMs: number;
  /** Recurrence of new trackings, and of listed ones that do not say theirs, in days. */
  recurrenceDays: number;
  /** Let the plan pause more than a tenth of our trackings of either kind (`--allow-pause`). */
  allowPause: boolean;
  /** Why a lawsuit's identity is not wanted, when LAWSUIT_DETAIL leaves it out; any other is `unlisted`. */
  lawsuitsLeft?: ReadonlyMap<string, Exclude<PauseReason, 'unlisted'>>;
}

interface PlannedCreate<D> extends Listed<D> { reason: 'new' | 'deleted' }
interface PlannedOn<D> extends Listed<D> { tracking: TrackingFacts }
interface PlannedSearchTonight<D> extends Listed<D> { reason: SearchReason }
/** A tracking of ours to pause: its kind, and why. */
export interface PlannedPause extends TrackingFacts { kind: TrackingKind; why: PauseReason }
/** What the pause guard compared for one kind: pauses it counts, our live trackings, and the most it lets pass without allowPause. */
export interface PauseGuard { pauses: number; trackings: number; limit: number }

export interface ReconcilePlan<D> {
  /** Listed documents without a live tracking: one is made (recurrence `recurrenceDays`). */
  create: PlannedCreate<D>[];
  /** Our running trackings no longer wanted: a document no longer listed, a lawsuit no longer kept. */
  pause: PlannedPause[];
  /** Wanted searches whose tracking is paused. */
  resume: PlannedOn<D>[];
  /** Wanted searches whose tracking runs (or is errored: nothing the client can do about it) and stays as it is. */
  keep: PlannedOn<D>[];
  /**
   * Listed documents to search tonight besides, and tracked lawsuits to read at the lawsuit level, with why (the
   * item's kind says which). Documents to `create` are here too ('new' or 'deleted'): should their creation fail,
   * the shell says 'untracked' instead.
   */
  searchTonight: PlannedSearchTonight<D>[];
  /** The documents' pause guard (kept under this name: the night's figures and reports read it). */
  guard: PauseGuard;
  /** Each kind's pause guard: a lawsuit's tracking paused because its lawsuit ended is not counted (LAWSUIT_DETAIL=active asks for it). */
  guards: Record<TrackingKind, PauseGuard>;
}

/** The code of the pause guard's refusal. */
const TRACKING_PAUSE_GUARD = 'TRACKING_PAUSE_GUARD';

/** The largest share of our live trackings one night may pause without `--allow-pause`. */
const PAUSE_SHARE = 0.1;

/**
 * A status as listed, to where the tracking stands. The dialects name created, active, updating, updated, paused
 * and deleted; a status naming an error or a failure is errored; a cancelled one is as good as deleted. Any other
 * status is taken as running: the staleness rule searches its document should it in fact produce nothing.
 */
export function trackingState(status: string): TrackingState {
  const s = status.trim().toLowerCase();
  if (s === 'paused') return 'paused';
  if (s === 'deleted' || s === 'cancelled' || s === 'canceled') return 'deleted';
  if (/error|fail/.test(s)) return 'errored';
  return 'running';
}

const RANK: Record<TrackingState, number> = { running: 0, paused: 1, errored: 2, deleted: 3 };

/** The tracking that stands for each identity: a running one before a paused, errored or deleted one; ours first; then the listing's order. */
function byIdentity(trackings: readonly TrackingFacts[]): Map<string, TrackingFacts> {
  const best = new Map<string, TrackingFacts>();
  for (const t of trackings) {
    const b = best.get(t.identity);
    if (!b || RANK[t.state] < RANK[b.state] || (RANK[t.state] === RANK[b.state] && t.ours && !b.ours)) best.set(t.identity, t);
  }
  return best;
}

function isStale(t: TrackingFacts, opts: ReconcilePlanOptions): boolean {
  return opts.nowMs - t.lastRunMs > 2 * (t.recurrenceDays ?? opts.recurrenceDays) * DAY_MS;
}

const kindOf = (x: { kind?: TrackingKind }): TrackingKind => x.kind ?? 'document';

/**
 * What one wanted search needs, given the tracking that stands for it. The two kinds differ at two places: a
 * document's new tracking is searched once tonight, and one still awaiting its first search is searched; a lawsuit's
 * tracking is made once the lawsuit is whole (its first run sends it whole again, so a tracking made or made again
 * needs no read), and one that may have missed runs has its lawsuit read tonight (searchTonight, for a lawsuit).
 */
function planListed<D>(item: Listed<D>, t: TrackingFacts | undefined, plan: ReconcilePlan<D>, opts: ReconcilePlanOptions): void {
  const it = { ...item, kind: kindOf(item) };
  const isDocument = it.kind === 'document';
  if (!t || t.state === 'deleted') {
    const reason = t ? 'deleted' : 'new';
    if (isDocument || (it.ready ?? true)) plan.create.push({ ...it, reason });
    if (isDocument) plan.searchTonight.push({ ...it, reason });
    return;
  }
  if (t.state === 'paused') {
    plan.resume.push({ ...it, tracking: t });
    if (!t.pausedByUs) plan.searchTonight.push({ ...it, reason: 'paused_elsewhere' });
    else if (isStale(t, opts)) plan.searchTonight.push({ ...it, reason: 'stale' });
    return;
  }
  plan.keep.push({ ...it, tracking: t });
  if (isDocument && t.awaitingFirstSearch && t.state === 'running') plan.searchTonight.push({ ...it, reason: 'new' });
  else if (t.state === 'errored') plan.searchTonight.push({ ...it, reason: 'errored' });
  else if (isStale(t, opts)) plan.searchTonight.push({ ...it, reason: 'stale' });
}

/** The refusal of a plan that would pause too much of the portfolio at once (a truncated list, most likely). */
function pauseGuardError(kind: TrackingKind, guard: PauseGuard): EtlError {
  const what = kind === 'document' ? 'trackings' : 'lawsuit trackings';
  const cause = kind === 'document' ? 'the documents list' : 'the documents list (or LAWSUIT_DETAIL)';
  // The literal (checked against the constant) is what the failure policy's test finds its rule by.
  return new EtlError('TRACKING_PAUSE_GUARD' satisfies typeof TRACKING_PAUSE_GUARD,
    `${cause} would pause ${guard.pauses} of ${guard.trackings} ${what}, more than a tenth (at most ${guard.limit} without --allow-pause): `
    + 'a list cut short would silently stop the monitoring of a portfolio. Check the list; if the documents were dropped on purpose, '
    + 'run again with --allow-pause (a pause is reversible: listing a document again resumes its tracking).',
    { usage: true, details: { kind, ...guard } });
}

/** One kind's guard: the pauses it counts against our live trackings of that kind. */
function guardOf(kind: TrackingKind, pause: readonly PlannedPause[], trackings: readonly TrackingFacts[]): PauseGuard {
  // A lawsuit that ended under LAWSUIT_DETAIL=active is let go by the user's own rule, night after night: not a list cut short.
  const pauses = pause.filter((p) => p.kind === kind && p.why !== 'ended').length;
  const live = trackings.filter((t) => t.ours && t.state !== 'deleted' && kindOf(t) === kind).length;
  return { pauses, trackings: live, limit: Math.floor(live * PAUSE_SHARE) };
}

/**
 * Pure: what tonight's reconciliation does. A wanted identity counts once (the first item stands for it: list the
 * documents before the lawsuits, so that a number listed as a document is that document's tracking). Throws the
 * pause guard's EtlError (TRACKING_PAUSE_GUARD) when the plan would pause more than a tenth of our live trackings of
 * either kind and `allowPause` is not set.
 */
export function planReconcile<D>(listed: readonly Listed<D>[], trackings: readonly TrackingFacts[], opts: ReconcilePlanOptions): ReconcilePlan<D> {
  const empty = { pauses: 0, trackings: 0, limit: 0 };
  const plan: ReconcilePlan<D> = { create: [], pause: [], resume: [], keep: [], searchTonight: [], guard: empty, guards: { document: empty, lawsuit: empty } };
  const standing = byIdentity(trackings);
  const seen = new Set<string>();
  for (const item of listed) {
    if (seen.has(item.identity)) continue;
    seen.add(item.identity);
    planListed(item, standing.get(item.identity), plan, opts);
  }
  // Every running tracking of ours no longer wanted, duplicates included.
  plan.pause = trackings.filter((t) => t.ours && t.state === 'running' && !seen.has(t.identity)).map((t) => {
    const kind = kindOf(t);
    return { ...t, kind, why: kind === 'lawsuit' ? opts.lawsuitsLeft?.get(t.identity) ?? 'unlisted' : 'unlisted' };
  });
  plan.guards = { document: guardOf('document', plan.pause, trackings), lawsuit: guardOf('lawsuit', plan.pause, trackings) };
  plan.guard = plan.guards.document;
  if (!opts.allowPause) {
    for (const kind of ['document', 'lawsuit'] as const) {
      if (plan.guards[kind].pauses > plan.guards[kind].limit) throw pauseGuardError(kind, plan.guards[kind]);
    }
  }
  return plan;
}

// What the plan sees of a listed record, from the record and what the warehouse knows (known.ts reads it): when it
// last ran, for the staleness rule, and whether a new document's tracking still waits for its first search. Rules
// of the plan, kept here, pure; the shell only reads.

/** A listed record's search, as the shell's identity function takes it (identity.ts, trackingKey). */
type TrackingSearch = NonNullable<Tracking['search']>;

/** What the warehouse knows of the key's trackings and of the searches made (knownTrackings()). */
export interface Known {
  /** Each tracking we made or matched to a wanted search (tracking_checks). */
  ours: Map<string, Ours>;
  /** The latest search submitted of each identity (identity.ts trackingKey), epoch ms on our clock. */
  searchedAt: Map<string, number>;
  /** The trackings of which a run was read. */
  runsRead: Set<string>;
}

/**
 * One of our trackings: whether our last pause or resume of it was a pause, when we made it (epoch ms, our clock),
 * and the kind we last reconciled it as.
 */
interface Ours { pausedByUs: boolean; madeAtMs?: number; kind: TrackingKind }

/**
 * The instant staleness is measured at, epoch ms: ours, or the newest instant the listing stamped on a record when
 * the provider's clock is ahead. Folded rather than spread: a portfolio of 100 000 records would overflow
 * Math.max's arguments.
 */
export function measuredAt(listing: readonly Tracking[], nowMs: number): number {
  return listing.reduce((n, t) => Math.max(n, ms(t.created_at), ms(t.updated_at)), nowMs);
}

/** An instant of the provider's as epoch ms; 0 when absent or unreadable. */
const ms = (v: unknown): number => {
  const n = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(n) ? 0 : n;
};

/** A listed record as the plan sees it; undefined for one whose search cannot be told. */
export function factsOf(t: Tracking, identityOf: (search: TrackingSearch) => string, k: Known, lastRunAt?: ReadonlyMap<string, Date>): TrackingFacts | undefined {
  if (!t.search?.search_type || typeof t.search.search_key !== 'string') return undefined;
  const state = trackingState(String(t.status ?? ''));
  const identity = identityOf(t.search);
  // A running record's updated_at is its latest run (or resume). A paused one's is its pause: it ran until then (or
  // the staleness rule searched it), and the gap since is one the list asked for, so a document listed again is
  // searched only when the pause outlasted two recurrences.
  const seen = Math.max(ms(t.created_at), ms(t.updated_at), lastRunAt?.get(t.tracking_id)?.getTime() ?? 0);
  const mine = k.ours.get(t.tracking_id);
  // Made (by us: when our check says; else as the provider stamped it) after the last search of its document, and
  // no run of it read: nothing of its document reached the warehouse since. So a night killed after making its
  // trackings and before recording them, or before searching, still searches each new document once; a tracking
  // another client made is searched once when first matched, its runs before our reading's watermark not read.
  const madeAt = mine?.madeAtMs ?? ms(t.created_at);
  const awaitingFirstSearch = !k.runsRead.has(t.tracking_id) && (k.searchedAt.get(identity) ?? 0) < madeAt;
  return {
    trackingId: t.tracking_id, identity, state,
    recurrenceDays: typeof t.recurrence === 'number' ? t.recurrence : undefined, lastRunMs: seen,
    ours: mine !== undefined, pausedByUs: mine?.pausedByUs ?? false, awaitingFirstSearch, kind: mine?.kind,
  };
}
