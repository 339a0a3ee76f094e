import type { DocumentSpec } from '../../input/documents.js';
import { normalizeCnj } from '../../spec/identifiers.js';
import type { RunContext } from '../context.js';
import { listingPageSize } from '../dialect.js';
import type { HandOff } from '../stage-hand-off.js';
import type { NightPlan } from '../plan.js';
import type { ItemFailure, NightData, StageReport } from '../stage.js';
import { spoolCounts } from '../delivered/night-spool.js';
import { documentTrackingKey, lawsuitTrackingKey } from './identity.js';
import { readOrReport } from './reading.js';
import { reconcileTrackings, type ReconcileOutcome, type WantedLawsuits } from './reconcile.js';
import type { ReconcileFailure } from './reduce.js';
import type { TrackedSearch } from './runs-page.js';
import type { TrackingsTonight } from './tonight.js';
import { wantedLawsuits } from './wanted.js';

// The trackings half of a trackings night (`run --source trackings`), before the search stage: the key's trackings
// of both kinds reconciled with what the night wants (reconcile.ts: a tracking for each listed document, and for
// each lawsuit a listed document finds that is kept whole; created, paused, resumed), tonight's searches narrowed
// to the documents that need one (a new tracking's document once, a fallback with its reason), what the trackings
// produced since the night before read and loaded (reading.ts: a document's runs carry the lawsuits born to it, a
// lawsuit's runs carry it whole), and what the stages after it need handed to them (tonight.ts). A document whose
// tracking runs costs no search; a lawsuit whose tracking runs costs no lawsuit-level read.

/** What a trackings stage is handed (the documents stage's plan) and hands on (what it chose tonight). */
export interface TrackingsHandOffs {
  planned: HandOff<NightPlan>;
  tonight: HandOff<TrackingsTonight>;
}

/** A trackings night's reconciliation, its runs read, and what the stages after it need. */
export async function trackingsNight(ctx: RunContext, night: NightData, { planned, tonight }: TrackingsHandOffs): Promise<StageReport> {
  const docs = night.list!.documents;
  const plan = planned.get()!;
  const lawsuits = await wantedLawsuits(ctx, docs, ctx.cfg.detail);
  const r = await reconciled(ctx, night, plan, lawsuits, ctx.cfg.allowPause);
  // Read the runs first, then plan the reads: a lawsuit its tracking's run carried is whole before the plan looks.
  const { read, failure } = await readOrReport(ctx, night, oursOf(docs, lawsuits, r.trackingOf));
  tonight.set(handed(docs, lawsuits, r, plan));
  return {
    counts: {
      ...reconcileCounts(r), tracking_runs_read: read.runs, tracking_responses: read.responses, tracking_pages: read.pages,
      tracking_calls: read.calls, tracking_skipped: read.skipped, tracking_untrusted: read.untrusted ? 1 : 0,
      ...(night.spool ? { ...spoolCounts(night.spool.figures), tracking_runs_delivered: night.spool.figures.runs } : {}),
    },
    failures: [...r.failures.map(asItemFailure), ...(failure ? [failure] : [])],
    interrupted: ctx.signal.aborted,
    finished: 1,
  };
}

/**
 * `run --source trackings --dry-run`: the plan the reconciliation would carry out for both kinds (the key's
 * trackings listed, a read the provider does not bill; nothing created, paused or resumed), the searches the night
 * would buy of it, as the search stage narrows them, and the cost. The runs are not read: reading loads. The pause
 * guard is reported rather than raised, since the plan is what the operator needs to decide on --allow-pause.
 */
export async function trackingsPlan(ctx: RunContext, night: NightData, { planned, tonight }: TrackingsHandOffs): Promise<StageReport> {
  const list = night.list!;
  const plan = planned.get()!;
  const lawsuits = await wantedLawsuits(ctx, list.documents, ctx.cfg.detail);
  const r = await reconciled(ctx, night, plan, lawsuits, true);
  const handing = handed(list.documents, lawsuits, r, plan);
  tonight.set(handing);
  const { searches } = handing;
  const ours = oursOf(list.documents, lawsuits, r.trackingOf).size + r.created + r.lawsuits.created;
  const refuses = (g: ReconcileOutcome['guard']): number => (g.pauses > g.limit && !ctx.cfg.allowPause ? 1 : 0);
  return {
    counts: {
      ...reconcileCounts(r), search_calls: searches.expectedCalls, read_calls: ours > 0 ? 1 : 0,
      pause_guard_limit: r.guard.limit, pause_guard_refuses: refuses(r.guards.document), lawsuit_pause_guard_refuses: refuses(r.guards.lawsuit),
    },
    failures: [],
    finished: 1,
  };
}

/**
 * The key's trackings reconciled with the night's wants (a dry run only plans it), and tonight's searches narrowed
 * to the documents that need one: a newly tracked document once; any other reason is a fallback, and a note says
 * why. A document searched less than LAWSUIT_FRESHNESS_DAYS ago is not searched again whatever its tracking (the
 * search stage's rule): it is counted apart (`searches_fresh`) and the note says so.
 */
async function reconciled(ctx: RunContext, night: NightData, plan: NightPlan, lawsuits: WantedLawsuits, allowPause: boolean): Promise<Reconciled> {
  const r = await reconcileTrackings(ctx, night.list!.documents, {
    dryRun: ctx.cfg.dryRun, allowPause, recurrenceDays: ctx.cfg.trackingRecurrenceDays, lastRunAt: await lastRunAt(ctx), lawsuits,
    pageSize: await listingPageSize(ctx),
  });
  // By the search's identity: the plan's documents are copies where the configuration adds to them (LAWSUIT_WITH_ATTACHMENTS).
  const isFresh = new Set(plan.plan.fresh.map((p) => p.searchHash));
  const fresh = r.searchTonight.filter((s) => isFresh.has(plan.identityOf(s.doc)));
  const tonight = r.searchTonight.filter((s) => !isFresh.has(plan.identityOf(s.doc)));
  const notes = (night.notes ??= []);
  for (const [reason, n] of countBy(tonight.filter((s) => s.reason !== 'new').map((s) => s.reason))) notes.push(`${n} documents searched tonight instead of read from their tracking: ${reason}`);
  for (const [reason, n] of countBy(r.readTonight.map((s) => s.reason))) notes.push(`${n} lawsuits read whole tonight, their own tracking having maybe missed runs: ${reason}`);
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
  const l = r.guards.lawsuit;
  return {
    trackings_created: r.created, trackings_paused: r.paused, trackings_resumed: r.resumed, trackings_kept: r.kept,
    searches_tonight: r.tonight.length, searches_new: r.tonight.length - fallbacks, searches_fallback: fallbacks, searches_fresh: r.fresh,
    planned_calls: r.plannedCalls, pause_guard_pauses: r.guard.pauses, pause_guard_trackings: r.guard.trackings,
    lawsuit_trackings_created: r.lawsuits.created, lawsuit_trackings_paused: r.lawsuits.paused, lawsuit_trackings_resumed: r.lawsuits.resumed,
    lawsuit_trackings_kept: r.lawsuits.kept, lawsuits_read_tonight: r.readTonight.length,
    lawsuit_pause_guard_pauses: l.pauses, lawsuit_pause_guard_trackings: l.trackings, lawsuit_pause_guard_limit: l.limit,
  };
}

/** A call of the reconciliation that failed, as the stage reports it: the document's line or the lawsuit, what was asked. */
export function asItemFailure(f: ReconcileFailure): ItemFailure {
  if (f.kind === 'lawsuit') return { what: 'lawsuit', where: `lawsuit ${f.searchKey} ${f.trackingId ?? ''}`.trimEnd() + `: ${f.action} its tracking`, code: f.code, reason: f.reason };
  const where = f.line === undefined ? `${f.searchType} ${f.trackingId ?? ''}`.trim() : `line ${f.line} (${f.searchType})`;
  return { what: 'document', where: `${where}: ${f.action}`, code: f.code, reason: f.reason };
}

/** A number as the warehouse holds it (the lawsuits stage's facts are by that form). */
const held = (code: string): string => normalizeCnj(code) ?? code;

/**
 * What the stages after this one need: the searches to buy (the documents' plan narrowed to them, from the plan the
 * documents stage handed: the ledger is not read again), the lawsuits' trackings, the key's records.
 */
function handed(docs: readonly DocumentSpec[], lawsuits: WantedLawsuits, r: ReconcileOutcome, plan: NightPlan): TrackingsTonight {
  const missed = new Set(r.readTonight.map((l) => held(l.code)));
  const running = new Set<string>();
  for (const l of lawsuits.keep) if (r.trackingOf.has(lawsuitTrackingKey(l.code))) running.add(held(l.code));
  // A number listed as a document is tracked by its document's tracking, a lawsuit_cnj search too: its runs carry it whole.
  const searched = new Set(r.searchTonight.map((s) => s.doc));
  for (const d of docs) {
    if (d.searchType === 'lawsuit_cnj' && !searched.has(d) && r.trackingOf.has(documentTrackingKey(d))) running.add(held(d.searchKey));
  }
  for (const code of missed) running.delete(code);
  // A tracking that calls for a search has every listed line it follows searched, each by its own search's identity.
  const called = new Set(r.searchTonight.map((s) => documentTrackingKey(s.doc)));
  const searchOnly = new Set(docs.filter((d) => called.has(documentTrackingKey(d))).map((d) => plan.identityOf(d)));
  const searches = plan.only(new Set([...searchOnly, ...plan.plan.resume.map((p) => p.searchHash)]));
  return { searchOnly, searches, lawsuits: { running, missed }, records: r.records };
}

/**
 * The newest response read of each tracking's runs: a run the listing of trackings may not show yet still makes
 * its tracking young for the staleness rule (reconcile-plan.ts).
 */
async function lastRunAt(ctx: RunContext): Promise<Map<string, Date>> {
  const rows = await ctx.wh.all<{ tracking_id: string; at: Date }>(`SELECT t.tracking_id, max(r.created_at) AS at
    FROM tracking_runs t JOIN responses_raw r USING (request_id) GROUP BY t.tracking_id`);
  return new Map(rows.map((x) => [x.tracking_id, x.at]));
}

/** Our trackings by id, each with the search it follows: a listed document's (the list's, normalised), a lawsuit's number. */
function oursOf(docs: readonly DocumentSpec[], lawsuits: WantedLawsuits, trackingOf: ReadonlyMap<string, string>): Map<string, TrackedSearch> {
  const ours = new Map<string, TrackedSearch>();
  for (const d of docs) {
    const id = trackingOf.get(documentTrackingKey(d));
    if (id !== undefined) ours.set(id, { searchType: d.searchType, searchKey: d.searchKey });
  }
  for (const l of lawsuits.keep) {
    const id = trackingOf.get(lawsuitTrackingKey(l.code));
    if (id !== undefined && !ours.has(id)) ours.set(id, { searchType: 'lawsuit_cnj', searchKey: l.code });
  }
  return ours;
}

function countBy(values: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}
