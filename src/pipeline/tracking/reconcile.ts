import { API_CODES, isApiError } from '../../api/errors.js';
import type { TrackingAnswer } from '../../api/tracking.js';
import type { DocumentSpec } from '../../input/documents.js';
import { isEtlError } from '../../shared/errors.js';
import { failpoint } from '../../shared/failpoint.js';
import type { SearchParams, Tracking } from '../../spec/types.js';
import type { RunContext } from '../context.js';
import { plannedDocument, searchFor, type DocumentSearch } from '../plan.js';
import { checkRow, documentTrackingKey, storeTrackings, trackingKey, type TrackingCheck } from '../track.js';
import {
  planReconcile, trackingState, type Listed, type ReconcilePlan, type SearchReason, type TrackingFacts,
} from './reconcile-plan.js';

// The shell of a trackings night's first step: it lists the key's trackings and reads what the warehouse knows
// of them (which are ours, which we paused), asks the pure plan (reconcile-plan.ts) what to change, makes the
// calls through the client (its rate limiter and retry loop), and records each change in `trackings` and
// `tracking_checks`. It pauses, never deletes: a pause is undone by listing the document again.

export interface ReconcileOptions {
  /** Plan only: list the trackings (a read, not billed), change nothing at the provider, write nothing. */
  dryRun: boolean;
  /** Let the plan pause more than a tenth of our trackings (`--allow-pause`); else it is refused (TRACKING_PAUSE_GUARD). */
  allowPause: boolean;
  /** Recurrence of the trackings made, in days (Config.trackingRecurrenceDays). */
  recurrenceDays: number;
  /**
   * The latest run the caller knows of each tracking (tracking id -> its request's created_at), e.g. from the
   * runs a night read; it only makes a tracking younger for the staleness rule than its record shows.
   */
  lastRunAt?: ReadonlyMap<string, Date>;
  /**
   * The instant staleness is measured at. Default: our clock, or the newest instant the listing shows when that
   * is later (a provider whose clock runs ahead of ours must not make every tracking look fresh).
   */
  now?: Date;
  /** Calls sent together before their results are recorded. Default 50. */
  batchSize?: number;
  /**
   * Page size of the listing of trackings: the night's learned one (the provider documents pages up to 1000,
   * where a later night's calls are mostly this listing). Default 100, and 100 again should a larger size be refused.
   */
  pageSize?: number;
}

/** A listed document to search tonight, as the search stage plans one, and why. */
export interface SearchTonight extends DocumentSearch { reason: SearchReason }

/** A change that could not be made. */
export interface ReconcileFailure {
  action: 'create' | 'pause' | 'resume';
  searchType: string;
  searchKey: string;
  /** The documents list's line, for a listed document. */
  line?: number;
  trackingId?: string;
  code: string;
  reason: string;
}

export interface ReconcileOutcome {
  /** Trackings made tonight (on a dry run: that the plan would make). */
  created: number;
  /** Trackings paused, their documents no longer listed. */
  paused: number;
  /** Paused trackings of listed documents resumed. */
  resumed: number;
  /** Listed documents whose tracking was left as it was. */
  kept: number;
  /** Listed documents the night searches besides, and why. */
  searchTonight: SearchTonight[];
  /** Each listed document's tracking, by identity (track.ts, documentTrackingKey). */
  trackingOf: Map<string, string>;
  /** Calls the reconciliation costs: the listing's pages (at 100 a page), and one per creation, pause and resume. */
  plannedCalls: number;
  failures: ReconcileFailure[];
  /** The pause guard's figures: pauses planned, our live trackings, the most allowed without --allow-pause. */
  guard: ReconcilePlan<DocumentSpec>['guard'];
}

/** What the warehouse knows of the key's trackings and of the searches made (known()). */
interface Known {
  /** Each tracking we made or matched to a listed document (tracking_checks). */
  ours: Map<string, Ours>;
  /** The latest search submitted of each identity (track.ts trackingKey), epoch ms on our clock. */
  searchedAt: Map<string, number>;
  /** The trackings of which a run was read. */
  runsRead: Set<string>;
}

/** One of our trackings: whether our last pause or resume of it was a pause, and when we made it (epoch ms, our clock). */
interface Ours { pausedByUs: boolean; madeAtMs?: number }

async function known(ctx: RunContext): Promise<Known> {
  const ours = await ctx.wh.all<{ tracking_id: string; last_action: string | null; made_at: Date | null }>(`
    SELECT tracking_id, arg_max(outcome, checked_at) FILTER (WHERE outcome IN ('paused', 'resumed')) AS last_action,
      min(checked_at) FILTER (WHERE outcome = 'created') AS made_at
    FROM tracking_checks WHERE tracking_id IS NOT NULL GROUP BY tracking_id`);
  const searched = await ctx.wh.all<{ search_type: string; search_key: string; params: string | null; at: Date }>(`
    SELECT search_type, search_key, json_extract(search, '$.search_params')::VARCHAR AS params, max(coalesce(submitted_at, created_at)) AS at
    FROM requests GROUP BY ALL`);
  const searchedAt = new Map<string, number>();
  for (const r of searched) {
    const k = trackingKey(r.search_type, r.search_key, paramsOf(r.params));
    searchedAt.set(k, Math.max(searchedAt.get(k) ?? 0, r.at.getTime()));
  }
  const runs = await ctx.wh.all<{ tracking_id: string }>(`SELECT DISTINCT tracking_id FROM tracking_runs`);
  return {
    ours: new Map(ours.map((r) => [r.tracking_id, { pausedByUs: r.last_action === 'paused', madeAtMs: r.made_at?.getTime() }])),
    searchedAt, runsRead: new Set(runs.map((r) => r.tracking_id)),
  };
}

/** A ledger row's search_params (requests.search), as JSON text; undefined when it has none. */
function paramsOf(text: string | null): SearchParams | undefined {
  const v: unknown = text === null ? undefined : JSON.parse(text);
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v as SearchParams : undefined;
}

const ms = (v: unknown): number => {
  const n = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(n) ? 0 : n;
};

/** A listed record as the plan sees it; undefined for one whose search cannot be told. */
function factsOf(t: Tracking, k: Known, lastRunAt?: ReadonlyMap<string, Date>): TrackingFacts | undefined {
  if (!t.search?.search_type || typeof t.search.search_key !== 'string') return undefined;
  const state = trackingState(String(t.status ?? ''));
  const identity = trackingKey(t.search.search_type, t.search.search_key, t.search.search_params);
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
    ours: mine !== undefined, pausedByUs: mine?.pausedByUs ?? false, awaitingFirstSearch,
  };
}

/** The page size every dialect takes on its listing of trackings (the spec's maximum). */
const LISTING_PAGE = 100;

/**
 * The key's trackings, at `pageSize` a page. The page size was learned on the responses listing: should the
 * listing of trackings refuse it (400/422), it is read again at 100 a page, and the log says so.
 */
async function listTrackings(ctx: RunContext, pageSize: number): Promise<Tracking[]> {
  const walk = { signal: ctx.signal, onStop: (why: string, fields: Record<string, unknown>) => ctx.log.warn(fields, why) };
  try {
    return await ctx.api.tracking.all({ ...walk, pageSize });
  } catch (e) {
    if (pageSize <= LISTING_PAGE || !isApiError(e) || e.code !== API_CODES.validation) throw e;
    ctx.log.warn({ page_size: pageSize, code: e.code }, `the listing of trackings refused pages of ${pageSize}: read at ${LISTING_PAGE} a page`);
    return ctx.api.tracking.all({ ...walk, pageSize: LISTING_PAGE });
  }
}

/** Runs `fn` on every item, `size` at a time, handing each batch's results to `done`; stops starting batches once aborted. */
async function inBatches<T, R>(items: readonly T[], size: number, signal: AbortSignal, fn: (item: T) => Promise<R>, done: (settled: Array<[T, PromiseSettledResult<R>]>) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length && !signal.aborted; i += size) {
    const batch = items.slice(i, i + size);
    const settled = await Promise.allSettled(batch.map(fn));
    // A kill here leaves calls made and not recorded: the next night must find them in the listing, not make them again.
    failpoint('reconcile.after-calls', batch.length);
    await done(batch.map((item, n) => [item, settled[n]]));
  }
}

/** A failure's code and text; a refused key ends the whole step (every other call would meet it). */
function failureOf(e: unknown): { code: string; reason: string } {
  if (isEtlError(e) && e.code === API_CODES.unauthorized) throw e;
  return { code: isEtlError(e) ? e.code : 'TRACKING_UNEXPECTED', reason: (e instanceof Error ? e.message : String(e)).slice(0, 500) };
}

/** What one night's reconciliation is doing: the figures, the checks to record and the records as last answered. */
class Night {
  readonly outcome: ReconcileOutcome;
  readonly records = new Map<string, Tracking>();
  readonly checkedAt = new Date().toISOString();

  constructor(readonly ctx: RunContext, listing: readonly Tracking[], guard: ReconcileOutcome['guard'], plannedCalls: number) {
    for (const t of listing) this.records.set(t.tracking_id, t);
    this.outcome = { created: 0, paused: 0, resumed: 0, kept: 0, searchTonight: [], trackingOf: new Map(), plannedCalls, failures: [], guard };
  }

  /** The record as answered, over what the listing showed (an answer may leave fields out). */
  answered(t: Tracking): void {
    this.records.set(t.tracking_id, { ...this.records.get(t.tracking_id), ...t });
  }

  check(doc: DocumentSpec, trackingId: string | null, outcome: string, reason?: SearchReason): TrackingCheck {
    return { ...checkRow(this.ctx.runId, this.checkedAt, doc, trackingId, outcome), search_reason: reason ?? null };
  }

  async store(checks: readonly TrackingCheck[]): Promise<void> {
    if (checks.length === 0) return;
    const ids = new Set(checks.map((c) => c.tracking_id));
    await storeTrackings(this.ctx, [...this.records.values()].filter((t) => ids.has(t.tracking_id)), checks, this.checkedAt);
  }
}

const tonight = (doc: DocumentSpec, reason: SearchReason): SearchTonight => ({ ...plannedDocument(doc), reason });

/** Why a document is searched when its call did not leave it tracked: over the plan's reason, or beside the plan's searches. */
type Overrides = Map<DocumentSpec, SearchReason>;

async function createAll(night: Night, plan: ReconcilePlan<DocumentSpec>, opts: ReconcileOptions, batch: number, untracked: Overrides): Promise<void> {
  const { ctx, outcome } = night;
  await inBatches(plan.create, batch, ctx.signal, (c) => ctx.api.tracking.create(searchFor(c.doc), opts.recurrenceDays, { withAttachments: c.doc.withAttachments }), async (settled) => {
    const checks: TrackingCheck[] = [];
    for (const [c, s] of settled) {
      if (s.status === 'rejected') {
        const f = failureOf(s.reason);
        outcome.failures.push({ action: 'create', searchType: c.doc.searchType, searchKey: c.doc.searchKey, line: c.doc.line, ...f });
        untracked.set(c.doc, 'untracked');
        checks.push({ ...night.check(c.doc, null, 'failed', 'untracked'), error: f.reason });
      } else if (s.value.conflict) {
        // A live tracking the listing did not show (made meanwhile): it is the one wanted; without its id, the
        // night cannot attribute its runs, and the document is covered by a search alone.
        const id = s.value.trackingId;
        if (id) outcome.trackingOf.set(c.identity, id);
        else untracked.set(c.doc, 'untracked');
        outcome.kept++;
        checks.push(night.check(c.doc, id ?? null, 'conflict', id ? c.reason : 'untracked'));
      } else {
        night.answered(s.value.tracking);
        outcome.trackingOf.set(c.identity, s.value.tracking.tracking_id);
        outcome.created++;
        checks.push(night.check(c.doc, s.value.tracking.tracking_id, 'created', c.reason));
      }
    }
    await night.store(checks);
  });
}

/**
 * A pause or resume's answer as a record: a 409 (the record cannot change so, e.g. it was deleted meanwhile) is
 * read again to see where it stands; 'gone' when the service no longer has it.
 */
async function changed(night: Night, id: string, call: (id: string) => Promise<TrackingAnswer>): Promise<TrackingAnswer> {
  try {
    return await call(id);
  } catch (e) {
    if (!isApiError(e) || e.code !== API_CODES.conflict) throw e;
    return night.ctx.api.tracking.get(id);
  }
}

/** The check of a paused tracking: its own search, since its document is no longer listed. */
function pauseCheck(night: Night, t: Tracking | undefined, trackingId: string, outcome: string): TrackingCheck {
  return {
    run_id: night.ctx.runId, checked_at: night.checkedAt, search_type: t?.search?.search_type ?? '', search_key: t?.search?.search_key ?? trackingId,
    document_line: null, tracking_id: trackingId, outcome, error: null, search_reason: null,
  };
}

async function pauseAll(night: Night, plan: ReconcilePlan<DocumentSpec>, batch: number): Promise<void> {
  const { ctx, outcome } = night;
  await inBatches(plan.pause, batch, ctx.signal, (t) => changed(night, t.trackingId, (id) => ctx.api.tracking.pause(id)), async (settled) => {
    const checks: TrackingCheck[] = [];
    for (const [t, s] of settled) {
      const listed = night.records.get(t.trackingId);
      if (s.status === 'rejected') {
        const f = failureOf(s.reason);
        outcome.failures.push({ action: 'pause', searchType: listed?.search?.search_type ?? '', searchKey: listed?.search?.search_key ?? '', trackingId: t.trackingId, ...f });
        checks.push({ ...pauseCheck(night, listed, t.trackingId, 'failed'), error: f.reason });
        continue;
      }
      if (s.value !== 'gone') night.answered(s.value);
      const state = s.value === 'gone' ? 'deleted' : trackingState(String(s.value.status ?? 'paused'));
      if (state === 'paused') outcome.paused++;
      checks.push(pauseCheck(night, listed, t.trackingId, state === 'paused' ? 'paused' : 'gone'));
    }
    await night.store(checks);
  });
}

async function resumeAll(night: Night, plan: ReconcilePlan<DocumentSpec>, batch: number, untracked: Overrides): Promise<void> {
  const { ctx, outcome } = night;
  const reasons = new Map(plan.searchTonight.map((s) => [s.doc, s.reason]));
  await inBatches(plan.resume, batch, ctx.signal, (r) => changed(night, r.tracking.trackingId, (id) => ctx.api.tracking.resume(id)), async (settled) => {
    const checks: TrackingCheck[] = [];
    for (const [r, s] of settled) {
      const id = r.tracking.trackingId;
      if (s.status === 'rejected') {
        const f = failureOf(s.reason);
        outcome.failures.push({ action: 'resume', searchType: r.doc.searchType, searchKey: r.doc.searchKey, line: r.doc.line, trackingId: id, ...f });
        untracked.set(r.doc, 'untracked');
        checks.push({ ...night.check(r.doc, id, 'failed', 'untracked'), error: f.reason });
      } else if (s.value === 'gone' || trackingState(String(s.value.status ?? '')) === 'deleted') {
        // Deleted between the listing and the resume: the next night makes it again; tonight a search covers it.
        untracked.set(r.doc, 'deleted');
        checks.push(night.check(r.doc, id, 'gone', 'deleted'));
      } else {
        night.answered(s.value);
        outcome.trackingOf.set(r.identity, id);
        outcome.resumed++;
        checks.push(night.check(r.doc, id, 'resumed', reasons.get(r.doc)));
      }
    }
    await night.store(checks);
  });
}

/** The night's searches besides the trackings: the plan's, with why, and the documents no call could leave tracked. */
function searchesTonight(plan: ReconcilePlan<DocumentSpec>, untracked: Overrides): SearchTonight[] {
  const out = plan.searchTonight.map((s) => tonight(s.doc, untracked.get(s.doc) ?? s.reason));
  const planned = new Set(plan.searchTonight.map((s) => s.doc));
  for (const [doc, reason] of untracked) if (!planned.has(doc)) out.push(tonight(doc, reason));
  return out;
}

/**
 * Step 1 of `run --source trackings`: makes the key's trackings agree with the documents list. A listed document
 * without a tracking gets one (recurrence `recurrenceDays`), a tracking of ours whose document is no longer
 * listed is paused, a paused tracking of a listed document is resumed; the changes are recorded in `trackings`
 * and `tracking_checks` (outcome created, kept, resumed, paused, conflict, gone or failed; search_reason). Returns
 * which documents the night must search besides (new, paused elsewhere, deleted, errored, stale, untracked) and
 * the tracking of each listed document. Throws TRACKING_PAUSE_GUARD (exit 2) before changing anything when the plan
 * would pause more than a tenth of our trackings and `allowPause` is not set.
 */
export async function reconcileTrackings(ctx: RunContext, listed: readonly DocumentSpec[], opts: ReconcileOptions): Promise<ReconcileOutcome> {
  const pageSize = opts.pageSize ?? LISTING_PAGE;
  const listing = await listTrackings(ctx, pageSize);
  const stored = await known(ctx);
  const facts = listing.map((t) => factsOf(t, stored, opts.lastRunAt)).filter((f): f is TrackingFacts => f !== undefined);
  // Folded rather than spread: a portfolio of 100 000 records would overflow Math.max's arguments.
  const newest = listing.reduce((n, t) => Math.max(n, ms(t.created_at), ms(t.updated_at)), 0);
  const nowMs = opts.now?.getTime() ?? Math.max(Date.now(), newest);
  const items: Listed<DocumentSpec>[] = listed.map((doc) => ({ identity: documentTrackingKey(doc), doc }));
  const plan = planReconcile(items, facts, { nowMs, recurrenceDays: opts.recurrenceDays, allowPause: opts.allowPause });
  const plannedCalls = Math.max(1, Math.ceil(listing.length / pageSize)) + plan.create.length + plan.pause.length + plan.resume.length;
  const night = new Night(ctx, listing, plan.guard, plannedCalls);
  ctx.log.info({ create: plan.create.length, pause: plan.pause.length, resume: plan.resume.length, keep: plan.keep.length, search: plan.searchTonight.length, dry_run: opts.dryRun }, 'trackings reconciled with the documents list');
  for (const k of plan.keep) night.outcome.trackingOf.set(k.identity, k.tracking.trackingId);
  if (opts.dryRun) return dryOutcome(night.outcome, plan);

  const batch = Math.max(1, opts.batchSize ?? 50);
  const untracked: Overrides = new Map();
  await createAll(night, plan, opts, batch, untracked);
  await pauseAll(night, plan, batch);
  await resumeAll(night, plan, batch, untracked);
  const reasons = new Map(plan.searchTonight.map((s) => [s.doc, s.reason]));
  await night.store(plan.keep.map((k) => night.check(k.doc, k.tracking.trackingId, 'kept', reasons.get(k.doc))));
  night.outcome.kept += plan.keep.length;
  night.outcome.searchTonight = searchesTonight(plan, untracked);
  return night.outcome;
}

/** A dry run's outcome: the plan's figures, no call made; the trackings known are those that already exist. */
function dryOutcome(outcome: ReconcileOutcome, plan: ReconcilePlan<DocumentSpec>): ReconcileOutcome {
  for (const r of plan.resume) outcome.trackingOf.set(r.identity, r.tracking.trackingId);
  return {
    ...outcome, created: plan.create.length, paused: plan.pause.length, resumed: plan.resume.length, kept: plan.keep.length,
    searchTonight: plan.searchTonight.map((s) => tonight(s.doc, s.reason)),
  };
}

