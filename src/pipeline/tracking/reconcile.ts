import type { DocumentSpec } from '../../input/documents.js';
import { failpoint } from '../../shared/failpoint.js';
import { codeOf, resolveFailure } from '../../shared/failure-policy.js';
import type { Tracking } from '../../spec/types.js';
import type { RunContext } from '../context.js';
import { plannedDocument, searchFor, type DocumentSearch } from '../plan.js';
import { documentTrackingKey, lawsuitTrackingKey, recordTrackingKey } from './identity.js';
import { knownTrackings } from './known.js';
import { storeTrackings, type TrackingCheck } from './records.js';
import { factsOf, measuredAt, type Listed, type PauseGuard, type PauseReason, type SearchReason, type TrackingFacts, type TrackingKind } from './reconcile-plan.js';
import {
  plannedCounts, reconcileState, reduce, tonightOf, type KindCounts, type ReconcileCommand, type ReconcileEvent, type ReconcileFailure,
  type ReconcilePass, type ReconcileState, type Target,
} from './reduce.js';

// The shell of a trackings night's reconciliation: it lists the key's trackings and reads what the warehouse knows
// of them (known.ts: which are ours and of which kind, which we paused), hands them to the reducer (reduce.ts), makes
// the calls it asks for through the client (its rate limiter and retry loop), a batch at a time, and records each
// batch's answers in `trackings` and `tracking_checks` in one transaction. It pauses, never deletes: a pause is
// undone by wanting the search again.

/** The lawsuits kept whole, as the night's second kind of tracking wants them (wanted.ts). */
export interface WantedLawsuits {
  /** Each number a listed document finds and the depth keeps; `ready`: a lawsuit of it is whole, so its tracking may be made now. */
  keep: ReadonlyArray<{ code: string; ready: boolean }>;
  /** Numbers a listed document finds that LAWSUIT_DETAIL leaves, and why (their trackings are paused, not counted by the guard when ended). */
  left: ReadonlyMap<string, Exclude<PauseReason, 'unlisted'>>;
}

export interface ReconcileOptions {
  /** Plan only: list the trackings (a read, not billed), change nothing at the provider, write nothing. */
  dryRun: boolean;
  /** Let the plan pause more than a tenth of our trackings of either kind (`--allow-pause`); else it is refused (TRACKING_PAUSE_GUARD). */
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
  /** The lawsuits kept whole, whose trackings are reconciled beside the documents'; none: the documents' alone. */
  lawsuits?: WantedLawsuits;
  /**
   * The night's second pass (`lawsuits-after-reads`): only the trackings of the lawsuits made whole since are made,
   * over `records`, the key's trackings as the first pass left them (not listed again). Default: the whole night's.
   */
  pass?: ReconcilePass;
  records?: readonly Tracking[];
}

/** A listed document to search tonight, as the search stage plans one, and why. */
interface SearchTonight extends DocumentSearch { reason: SearchReason }

export interface ReconcileOutcome {
  /** Documents' trackings made tonight (on a dry run: that the plan would make). */
  created: number;
  /** Documents' trackings paused, their documents no longer listed. */
  paused: number;
  /** Paused trackings of listed documents resumed. */
  resumed: number;
  /** Listed documents whose tracking was left as it was. */
  kept: number;
  /** The lawsuits' trackings: made, paused, resumed, left as they were. */
  lawsuits: KindCounts;
  /** Listed documents the night searches besides, and why. */
  searchTonight: SearchTonight[];
  /** Tracked lawsuits the night reads at the lawsuit level besides (their tracking may have missed runs), and why. */
  readTonight: Array<{ code: string; reason: SearchReason }>;
  /** Each wanted search's tracking, by identity (identity.ts): listed documents' and lawsuits' (lawsuitTrackingKey). */
  trackingOf: Map<string, string>;
  /** Calls the reconciliation costs: the listing's pages, and one per creation, pause and resume. */
  plannedCalls: number;
  failures: ReconcileFailure[];
  /** The documents' pause guard: pauses planned, our live trackings, the most allowed without --allow-pause. */
  guard: PauseGuard;
  /** Each kind's pause guard. */
  guards: Record<TrackingKind, PauseGuard>;
  /** The key's trackings as they stand after tonight's calls (what a second pass starts from). */
  records: Tracking[];
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
    if (resolveFailure(e, { plainer: pageSize > LISTING_PAGE }).action !== 'ask-plainer') throw e;
    ctx.log.warn({ page_size: pageSize, code: codeOf(e) }, `the listing of trackings refused pages of ${pageSize}: read at ${LISTING_PAGE} a page`);
    return ctx.api.tracking.all({ ...walk, pageSize: LISTING_PAGE });
  }
}

/** Tonight's wanted searches: the listed documents first (a number listed is its document's tracking), then the lawsuits. */
function wantedOf(listed: readonly DocumentSpec[], lawsuits: WantedLawsuits | undefined): Listed<Target>[] {
  const docs: Listed<Target>[] = listed.map((doc) => ({ identity: documentTrackingKey(doc), doc: { kind: 'document', doc }, kind: 'document' }));
  const kept: Listed<Target>[] = (lawsuits?.keep ?? []).map((l) => ({ identity: lawsuitTrackingKey(l.code), doc: { kind: 'lawsuit', code: l.code }, kind: 'lawsuit', ready: l.ready }));
  return [...docs, ...kept];
}

/** The reducer and what its commands need: the client, the warehouse, the batch, the failpoint of its calls. */
class Shell {
  readonly checkedAt = new Date().toISOString();

  constructor(readonly ctx: RunContext, readonly state: ReconcileState, readonly opts: ReconcileOptions) {}

  /** One event: its commands, a stop thrown (the pause guard, a refused key). */
  dispatch(e: ReconcileEvent): ReconcileCommand[] {
    const { commands } = reduce(this.state, e);
    const stop = commands.find((c) => c.kind === 'stop');
    if (stop) throw stop.error;
    return commands;
  }

  /** The calls, `batchSize` at a time, each batch's answers recorded together; no batch is started once aborted. */
  async perform(commands: readonly ReconcileCommand[]): Promise<void> {
    const calls = commands.filter((c) => c.kind === 'create' || c.kind === 'pause' || c.kind === 'resume');
    const size = Math.max(1, this.opts.batchSize ?? 50);
    for (let i = 0; i < calls.length && !this.ctx.signal.aborted; i += size) {
      const batch = calls.slice(i, i + size);
      const settled = await Promise.allSettled(batch.map((c) => this.call(c)));
      // A kill here leaves calls made and not recorded: the next night must find them in the listing, not make them again.
      failpoint(this.opts.pass === 'lawsuits-after-reads' ? 'lawsuit-trackings.after-calls' : 'reconcile.after-calls', batch.length);
      const records: ReconcileCommand[] = [];
      batch.forEach((c, n) => records.push(...this.dispatch(answerOf(c, settled[n]))));
      await this.store(records);
    }
  }

  private call(c: ReconcileCommand): Promise<unknown> {
    const { tracking } = this.ctx.api;
    if (c.kind === 'create') {
      return c.target.kind === 'document'
        ? tracking.create(searchFor(c.target.doc), this.opts.recurrenceDays, { withAttachments: c.target.doc.withAttachments })
        : tracking.create(lawsuitSearch(c.target.code), this.opts.recurrenceDays);
    }
    const id = (c as { trackingId: string }).trackingId;
    return changed(this.ctx, id, c.kind === 'pause' ? (x) => tracking.pause(x) : (x) => tracking.resume(x));
  }

  /** The checks the commands ask for, with the records they name, in one transaction. */
  async store(commands: readonly ReconcileCommand[]): Promise<void> {
    const checks: TrackingCheck[] = [];
    const records = new Map<string, Tracking>();
    for (const c of commands) {
      if (c.kind !== 'record') continue;
      checks.push({ run_id: this.ctx.runId, checked_at: this.checkedAt, ...c.check });
      const t = c.tracking ?? (c.check.tracking_id ? this.state.records.get(c.check.tracking_id) : undefined);
      if (t) records.set(t.tracking_id, t);
    }
    if (checks.length > 0) await storeTrackings(this.ctx, records.values(), checks, this.checkedAt);
  }
}

/** A lawsuit's tracking: a lawsuit_cnj search of its number (every instance; the whole lawsuit on each run). */
function lawsuitSearch(code: string): ReturnType<typeof searchFor> {
  return { search_type: 'lawsuit_cnj', search_key: code, response_type: 'lawsuit' };
}

/**
 * A pause or resume's answer as a record: a 409 (the record cannot change so, e.g. it was deleted meanwhile) is
 * read again to see where it stands; 'gone' when the service no longer has it.
 */
async function changed(ctx: RunContext, id: string, call: (id: string) => Promise<unknown>): Promise<unknown> {
  try {
    return await call(id);
  } catch (e) {
    if (resolveFailure(e, { ofRecord: true }).action !== 'read-record') throw e;
    return ctx.api.tracking.get(id);
  }
}

/** A call's settled answer as the reducer's event. */
function answerOf(c: ReconcileCommand, s: PromiseSettledResult<unknown>): ReconcileEvent {
  const answer = s.status === 'fulfilled' ? { ok: true as const, value: s.value as never } : { ok: false as const, error: s.reason };
  if (c.kind === 'create') return { kind: 'created', identity: c.identity, answer };
  if (c.kind === 'pause') return { kind: 'paused', trackingId: c.trackingId, answer };
  return { kind: 'resumed', identity: (c as { identity: string }).identity, answer };
}

/**
 * Makes the key's trackings agree with what the night wants. A listed document without a tracking gets one, and
 * so does each lawsuit kept whole (`opts.lawsuits`) once it is whole (recurrence `recurrenceDays`); a tracking of
 * ours no longer wanted is paused, a paused one wanted again resumed; the changes are recorded in `trackings` and
 * `tracking_checks` (outcome created, kept, resumed, paused, conflict, gone or failed; search_reason; kind). Returns
 * which documents the night must search besides (new, paused elsewhere, deleted, errored, stale, untracked), which
 * tracked lawsuits it reads besides (paused elsewhere, errored, stale) and the tracking of each wanted search. Throws
 * TRACKING_PAUSE_GUARD (exit 2) before changing anything when the plan would pause more than a tenth of our trackings
 * of either kind and `allowPause` is not set.
 */
export async function reconcileTrackings(ctx: RunContext, listed: readonly DocumentSpec[], opts: ReconcileOptions): Promise<ReconcileOutcome> {
  const pageSize = opts.pageSize ?? LISTING_PAGE;
  const listing = opts.records ? [...opts.records] : await listTrackings(ctx, pageSize);
  const stored = await knownTrackings(ctx);
  const facts = listing.map((t) => factsOf(t, recordTrackingKey, stored, opts.lastRunAt)).filter((f): f is TrackingFacts => f !== undefined);
  const nowMs = opts.now?.getTime() ?? measuredAt(listing, Date.now());
  const lawsuitsLeft = new Map([...opts.lawsuits?.left ?? []].map(([code, why]) => [lawsuitTrackingKey(code), why]));
  const state = reconcileState(opts.pass ?? 'night', wantedOf(listed, opts.lawsuits), { nowMs, recurrenceDays: opts.recurrenceDays, allowPause: opts.allowPause, lawsuitsLeft });
  const shell = new Shell(ctx, state, opts);
  const calls = shell.dispatch({ kind: 'listed', records: listing, facts });
  const listingCalls = opts.records ? 0 : Math.max(1, Math.ceil(listing.length / pageSize));
  const plannedCalls = listingCalls + calls.length;
  const plan = state.plan!;
  ctx.log.info({
    pass: state.pass, create: plan.create.length, pause: plan.pause.length, resume: plan.resume.length, keep: plan.keep.length,
    search: plan.searchTonight.length, dry_run: opts.dryRun,
  }, 'trackings reconciled with the documents list and the lawsuits kept whole');
  if (opts.dryRun) {
    for (const r of plan.resume) state.trackingOf.set(r.identity, r.tracking.trackingId);
    return outcomeOf(state, plannedCalls, plannedCounts(plan));
  }
  await shell.perform(calls);
  await shell.store(shell.dispatch({ kind: 'calls-done' }));
  return outcomeOf(state, plannedCalls, state.counts);
}

function outcomeOf(state: ReconcileState, plannedCalls: number, counts: ReconcileState['counts']): ReconcileOutcome {
  const tonight = tonightOf(state);
  const plan = state.plan!;
  return {
    ...counts.document, lawsuits: counts.lawsuit,
    searchTonight: tonight.documents.map((d) => ({ ...plannedDocument(d.doc), reason: d.reason })), readTonight: tonight.lawsuits,
    trackingOf: state.trackingOf, plannedCalls, failures: state.failures, guard: plan.guard, guards: plan.guards, records: [...state.records.values()],
  };
}
