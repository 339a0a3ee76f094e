import type { DocumentSpec } from '../../input/documents.js';
import type { RunContext } from '../context.js';
import { dialectOrAssumed, nightDialect, sweepParamsOf } from '../dialect.js';
import { PageSink } from '../page-sink.js';
import { PageSizer } from '../page-size.js';
import type { ItemFailure, NightData, Stage, StageReport } from '../stage.js';
import { codeOf, reachOf, ruleFor } from '../../shared/failure-policy.js';
import { readTrackingRuns, type TrackingReadFigures } from '../sweep/tracking-read.js';
import type { TrackedDocument } from '../sweep/tracking-runs.js';
import { documentTrackingKey } from '../track.js';
import { reconcileTrackings, type ReconcileFailure, type ReconcileOutcome } from '../tracking/reconcile.js';
import { planNight } from './documents.js';
import { nightSpool, spoolCounts } from '../delivered/night-spool.js';
import { rangeProver } from '../delivered/range-proof.js';

// The trackings half of a trackings night (`run --source trackings`), before the search stage: the list
// reconciled with the key's trackings (tracking/reconcile.ts: created, paused, resumed), tonight's searches
// narrowed to the documents that need one (a new tracking's document once, a fallback with its reason), and what
// the trackings produced since the night before read and loaded (sweep/tracking-read.ts). The search stage then
// searches only those documents; a document whose tracking runs costs no search.

export const trackingsStage: Stage = {
  name: 'trackings',
  needs: ['documents'],
  callsApi: true,
  plansDry: 'reads',
  run: (ctx, night) => (ctx.cfg.dryRun ? trackingsPlan(ctx, night) : trackingsNight(ctx, night)),
};

async function trackingsNight(ctx: RunContext, night: NightData): Promise<StageReport> {
  const r = await reconciled(ctx, night, ctx.cfg.allowPause);
  const { read, failure } = await readOrReport(ctx, night, oursOf(night.list!.documents, r.trackingOf));
  return {
    counts: {
      ...reconcileCounts(r), tracking_runs_read: read.runs, tracking_responses: read.responses, tracking_pages: read.pages,
      tracking_calls: read.calls, tracking_skipped: read.skipped, tracking_untrusted: read.untrusted ? 1 : 0,
      ...(night.spool ? { ...spoolCounts(night.spool.figures), tracking_runs_delivered: night.spool.figures.runs } : {}),
    },
    failures: [...r.failures.map(failureOf), ...(failure ? [failure] : [])],
    interrupted: ctx.signal.aborted,
    finished: 1,
  };
}

/**
 * `run --source trackings --dry-run`: the plan the reconciliation would carry out (the key's trackings listed,
 * a read the provider does not bill; nothing created, paused or resumed), the searches the night would buy of it,
 * as the search stage narrows them, and the cost. The runs are not read: reading loads. The pause guard is
 * reported rather than raised, since the plan is what the operator needs to decide on --allow-pause.
 */
async function trackingsPlan(ctx: RunContext, night: NightData): Promise<StageReport> {
  const r = await reconciled(ctx, night, true);
  const list = night.list!;
  const only = night.searchOnly!;
  const resumed = new Set(night.plan?.resume.map((p) => p.doc));
  const searches = await planNight(ctx, { ...list, documents: list.documents.filter((d) => only.has(documentTrackingKey(d)) || resumed.has(d)) });
  night.plan = searches;
  return {
    counts: {
      ...reconcileCounts(r), search_calls: searches.expectedCalls, read_calls: oursOf(list.documents, r.trackingOf).size + r.created > 0 ? 1 : 0,
      pause_guard_limit: r.guard.limit, pause_guard_refuses: r.guard.pauses > r.guard.limit && !ctx.cfg.allowPause ? 1 : 0,
    },
    failures: [],
    finished: 1,
  };
}

/**
 * The list reconciled with the key's trackings (a dry run only plans it), and tonight's searches narrowed to the
 * documents that need one: a newly tracked document once; any other reason is a fallback, and a note says why. A
 * document searched less than LAWSUIT_FRESHNESS_DAYS ago is not searched again whatever its tracking (the search
 * stage's rule): it is counted apart (`searches_fresh`) and the note says so.
 */
async function reconciled(ctx: RunContext, night: NightData, allowPause: boolean): Promise<Reconciled> {
  const r = await reconcileTrackings(ctx, night.list!.documents, {
    dryRun: ctx.cfg.dryRun, allowPause, recurrenceDays: ctx.cfg.trackingRecurrenceDays, lastRunAt: await lastRunAt(ctx),
    // the page size learned on a night before (none is probed for it: a first night reads at 100)
    pageSize: (await nightDialect(ctx, { probe: false })).dialect.pageSize,
  });
  night.searchOnly = new Set(r.searchTonight.map((s) => documentTrackingKey(s.doc)));
  const isFresh = new Set(night.plan?.fresh.map((p) => p.doc));
  const tonight = r.searchTonight.filter((s) => !isFresh.has(s.doc));
  const fresh = r.searchTonight.filter((s) => isFresh.has(s.doc));
  const notes = (night.notes ??= []);
  for (const [reason, n] of countBy(tonight.filter((s) => s.reason !== 'new').map((s) => s.reason))) notes.push(`${n} documents searched tonight instead of read from their tracking: ${reason}`);
  if (fresh.length) {
    notes.push(`${fresh.length} documents whose tracking called for a search (${[...countBy(fresh.map((s) => s.reason))].map(([k, n]) => `${n} ${k}`).join(', ')}) `
      + 'were searched less than LAWSUIT_FRESHNESS_DAYS ago: not searched again tonight (--force searches them)');
  }
  return { ...r, tonight, fresh: fresh.length };
}

/** The reconciliation's outcome with the searches it leaves to tonight: `tonight` are bought, `fresh` were searched too lately. */
interface Reconciled extends ReconcileOutcome { tonight: ReconcileOutcome['searchTonight']; fresh: number }

function reconcileCounts(r: Reconciled): Record<string, number> {
  const fallbacks = r.tonight.filter((s) => s.reason !== 'new').length;
  return {
    trackings_created: r.created, trackings_paused: r.paused, trackings_resumed: r.resumed, trackings_kept: r.kept,
    searches_tonight: r.tonight.length, searches_new: r.tonight.length - fallbacks, searches_fallback: fallbacks, searches_fresh: r.fresh,
    planned_calls: r.plannedCalls, pause_guard_pauses: r.guard.pauses, pause_guard_trackings: r.guard.trackings,
  };
}

function failureOf(f: ReconcileFailure): ItemFailure {
  const where = f.line === undefined ? `${f.searchType} ${f.trackingId ?? ''}`.trim() : `line ${f.line} (${f.searchType})`;
  return { what: 'document', where: `${where}: ${f.action}`, code: f.code, reason: f.reason };
}

/**
 * The newest response read of each tracking's runs: a run the listing of trackings may not show yet still makes
 * its tracking young for the staleness rule (reconcile.ts).
 */
async function lastRunAt(ctx: RunContext): Promise<Map<string, Date>> {
  const rows = await ctx.wh.all<{ tracking_id: string; at: Date }>(`SELECT t.tracking_id, max(r.created_at) AS at
    FROM tracking_runs t JOIN responses_raw r USING (request_id) GROUP BY t.tracking_id`);
  return new Map(rows.map((x) => [x.tracking_id, x.at]));
}

/**
 * Reads the runs; a reading that fails on its calls (the upstream past its retries, a page it cannot trust) fails
 * alone: the night still searches the documents it must, and the reading's cursor waits for the next night. The
 * key or the resource refused, or a failure of our own (the warehouse), end the stage.
 */
async function readOrReport(ctx: RunContext, night: NightData, ours: ReadonlyMap<string, TrackedDocument>): Promise<{ read: TrackingReadFigures; failure?: ItemFailure }> {
  const where = 'reading the trackings\' runs';
  const next = 'the reading carries on from its cursor next night';
  try {
    const read = await readRuns(ctx, night, ours);
    return read.untrusted ? { read, failure: { what: 'stage', where, code: 'TRACKING_READ_UNTRUSTED', reason: `${read.untrusted}; ${next}` } } : { read };
  } catch (e) {
    if (ruleFor(e).refused || reachOf(e, 'item') !== 'item') throw e;
    ctx.log.warn({ code: codeOf(e) }, `the trackings' runs could not be read tonight: ${(e as Error).message}`);
    const read = { calls: 0, pages: 0, read: 0, skipped: 0, responses: 0, runs: 0 };
    return { read, failure: { what: 'stage', where, code: codeOf(e), reason: `${(e as Error).message}; ${next}` } };
  }
}

/**
 * Reads the runs of our trackings since the last night into the warehouse: what the intake's spool holds of them
 * first, then through the listing across requests, unless the deliveries prove the night's range whole.
 */
async function readRuns(ctx: RunContext, night: NightData, ours: ReadonlyMap<string, TrackedDocument>): Promise<TrackingReadFigures> {
  const dialect = await dialectOrAssumed(ctx);
  const params = sweepParamsOf(dialect.dialect, ctx.cfg.sweepParams);
  const sink = new PageSink(ctx.wh, { runId: ctx.runId });
  const spool = await nightSpool(ctx, night);
  await spool?.catchUp(sink, ours);
  if (!params) {
    (night.notes ??= []).push('the trackings\' runs were not read: the upstream honours no sort name on its responses listing (lawsuit-etl doctor); they are read once it does');
    return { calls: 0, pages: 0, read: 0, skipped: 0, responses: 0, runs: 0, untrusted: 'the responses listing honours no sort name' };
  }
  const sizer = new PageSizer({ max: dialect.dialect.pageSize, targetBytes: Math.floor(ctx.wh.budget.batchBytes / 2) });
  const prove = spool && ctx.cfg.callback.url !== undefined ? rangeProver(ctx, spool, sink, params) : undefined;
  return readTrackingRuns({ ctx, sink, sizer, reading: { params, pageSize: dialect.dialect.pageSize }, ours, firstFrom: await oldestTracking(ctx, ours), prove });
}

/**
 * The creation of our oldest tracking, as the provider stamped it (the reconciliation stores the listing in
 * `trackings`): where the first reading of runs starts, on the provider's own clock.
 */
async function oldestTracking(ctx: RunContext, ours: ReadonlyMap<string, TrackedDocument>): Promise<number | undefined> {
  if (ours.size === 0) return undefined;
  const [r] = await ctx.wh.all<{ at: Date | null }>(`SELECT min(created_at) AS at FROM trackings
    WHERE tracking_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`, [JSON.stringify([...ours.keys()])]);
  return r?.at?.getTime();
}

/** Our trackings by id, each with the document it follows (the list's, normalised). */
export function oursOf(docs: readonly DocumentSpec[], trackingOf: ReadonlyMap<string, string>): Map<string, TrackedDocument> {
  const ours = new Map<string, TrackedDocument>();
  for (const d of docs) {
    const id = trackingOf.get(documentTrackingKey(d));
    if (id !== undefined) ours.set(id, { searchType: d.searchType, searchKey: d.searchKey });
  }
  return ours;
}

function countBy(values: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}
