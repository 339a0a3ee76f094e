import { EtlError } from '../../shared/errors.js';

// The first step of a trackings night, decided without touching the network or the warehouse: the documents
// list against the key's trackings. A listed document gets a tracking, a dropped one has its tracking paused
// (reversible, never deleted here), a listed one whose tracking is paused is resumed; and some listed documents
// are searched tonight besides, because their tracking cannot be trusted to have produced what they need (new,
// paused or deleted behind our back, errored, silent for too long). The shell (reconcile.ts) gathers the facts,
// performs the plan and records it.
//
// Identities are opaque strings here: the shell gives each document and each tracking its search identity
// (track.ts, trackingKey, over spec/search-identity.ts), so that this file never invents a normal form.

const DAY_MS = 86_400_000;

/** Why a listed document is searched tonight although it is tracked (the night's report says it). */
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
}

/** A listed document: its identity and whatever the caller carries along (the document itself). */
export interface Listed<D> { identity: string; doc: D }

export interface ReconcilePlanOptions {
  /** The instant staleness is measured at, epoch ms. */
  nowMs: number;
  /** Recurrence of new trackings, and of listed ones that do not say theirs, in days. */
  recurrenceDays: number;
  /** Let the plan pause more than a tenth of our trackings (`--allow-pause`). */
  allowPause: boolean;
}

interface PlannedCreate<D> extends Listed<D> { reason: 'new' | 'deleted' }
interface PlannedOn<D> extends Listed<D> { tracking: TrackingFacts }
interface PlannedSearchTonight<D> extends Listed<D> { reason: SearchReason }

export interface ReconcilePlan<D> {
  /** Listed documents without a live tracking: one is made (recurrence `recurrenceDays`). */
  create: PlannedCreate<D>[];
  /** Our running trackings whose document is no longer listed. */
  pause: TrackingFacts[];
  /** Listed documents whose tracking is paused. */
  resume: PlannedOn<D>[];
  /** Listed documents whose tracking runs (or is errored: nothing the client can do about it) and stays as it is. */
  keep: PlannedOn<D>[];
  /**
   * Listed documents to search tonight besides, with why. Those to `create` are here too ('new' or 'deleted'):
   * should their creation fail, the shell says 'untracked' instead.
   */
  searchTonight: PlannedSearchTonight<D>[];
  /** What the pause guard compared: pauses planned, our live trackings, and the most it lets pass without allowPause. */
  guard: { pauses: number; trackings: number; limit: number };
}

/** The code of the pause guard's refusal. */
export const TRACKING_PAUSE_GUARD = 'TRACKING_PAUSE_GUARD';

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

/** What one listed document needs, given the tracking that stands for it. */
function planListed<D>(item: Listed<D>, t: TrackingFacts | undefined, plan: ReconcilePlan<D>, opts: ReconcilePlanOptions): void {
  if (!t || t.state === 'deleted') {
    const reason = t ? 'deleted' : 'new';
    plan.create.push({ ...item, reason });
    plan.searchTonight.push({ ...item, reason });
    return;
  }
  if (t.state === 'paused') {
    plan.resume.push({ ...item, tracking: t });
    if (!t.pausedByUs) plan.searchTonight.push({ ...item, reason: 'paused_elsewhere' });
    else if (isStale(t, opts)) plan.searchTonight.push({ ...item, reason: 'stale' });
    return;
  }
  plan.keep.push({ ...item, tracking: t });
  if (t.awaitingFirstSearch && t.state === 'running') plan.searchTonight.push({ ...item, reason: 'new' });
  else if (t.state === 'errored') plan.searchTonight.push({ ...item, reason: 'errored' });
  else if (isStale(t, opts)) plan.searchTonight.push({ ...item, reason: 'stale' });
}

/** The refusal of a plan that would pause too much of the portfolio at once (a truncated list, most likely). */
function pauseGuardError(guard: ReconcilePlan<unknown>['guard']): EtlError {
  // The literal (checked against the constant) is what the failure policy's test finds its rule by.
  return new EtlError('TRACKING_PAUSE_GUARD' satisfies typeof TRACKING_PAUSE_GUARD,
    `the documents list would pause ${guard.pauses} of ${guard.trackings} trackings, more than a tenth (at most ${guard.limit} without --allow-pause): `
    + 'a list cut short would silently stop the monitoring of a portfolio. Check the list; if the documents were dropped on purpose, '
    + 'run again with --allow-pause (a pause is reversible: listing a document again resumes its tracking).',
    { usage: true, details: { ...guard } });
}

/**
 * Pure: what tonight's reconciliation does. A listed identity counts once (the first listed document stands for
 * it). Throws the pause guard's EtlError (TRACKING_PAUSE_GUARD) when the plan would pause more than a tenth of
 * our live trackings and `allowPause` is not set.
 */
export function planReconcile<D>(listed: readonly Listed<D>[], trackings: readonly TrackingFacts[], opts: ReconcilePlanOptions): ReconcilePlan<D> {
  const plan: ReconcilePlan<D> = { create: [], pause: [], resume: [], keep: [], searchTonight: [], guard: { pauses: 0, trackings: 0, limit: 0 } };
  const standing = byIdentity(trackings);
  const seen = new Set<string>();
  for (const item of listed) {
    if (seen.has(item.identity)) continue;
    seen.add(item.identity);
    planListed(item, standing.get(item.identity), plan, opts);
  }
  // Every running tracking of ours whose document is gone from the list, duplicates included.
  plan.pause = trackings.filter((t) => t.ours && t.state === 'running' && !seen.has(t.identity));
  const live = trackings.filter((t) => t.ours && t.state !== 'deleted').length;
  plan.guard = { pauses: plan.pause.length, trackings: live, limit: Math.floor(live * PAUSE_SHARE) };
  if (plan.guard.pauses > plan.guard.limit && !opts.allowPause) throw pauseGuardError(plan.guard);
  return plan;
}

/** Whether a plan changes nothing at the provider (what a second plan after the first was performed must be). */
export function changesNothing(plan: ReconcilePlan<unknown>): boolean {
  return plan.create.length === 0 && plan.pause.length === 0 && plan.resume.length === 0;
}
