import type { Search } from '../../spec/types.js';
import type { RunContext } from '../context.js';
import { readHistory } from '../history.js';
import { readLevels } from '../lawsuits/levels.js';
import { planLawsuitReads, type LawsuitReadPlan, type LawsuitRead, type LawsuitTrackings } from '../lawsuits/plan.js';
import { searchIdentity } from '../../spec/identifiers.js';
import { withTook, type PlannedSearch } from '../plan.js';
import { runWave, type WavePlan } from '../search/wave.js';
import type { SearchState } from '../search/state.js';
import type { NightData, Stage, StageReport } from '../stage.js';
import { pagesFor } from '../sweep/cost.js';

// The lawsuit level of a night (docs/two-levels.md): once the searches' headers are loaded, every lawsuit that is
// not whole, or whose header moved past what is held, is read whole by a lawsuit_cnj search, batched and read
// like any other (a second wave of search/wave.ts, under the same limiter, with a sweep of its own). What to read
// is plan.ts's decision over what the warehouse knows (lawsuits/levels.ts); what a read finds, or that it was
// refused, is in the ledger, where v_lawsuit_levels reads it the next time. A refusal (403: secrecy) or a read that
// finds nothing makes the lawsuit unavailable, retried on a backoff in days: data about the lawsuit, not a failure
// of the night.

/**
 * The stage; on a trackings night, `trackings` hands it what the trackings stage learned of the lawsuits' own
 * trackings: a lawsuit whose tracking runs is not bought again for a header that moved before its run was read,
 * and one whose tracking may have missed runs is read.
 */
export function lawsuitsStageOf(trackings?: () => LawsuitTrackings | undefined): Stage {
  return {
    name: 'lawsuits',
    needs: [],
    callsApi: true,
    plansDry: 'offline',
    skipReason: (ctx) => (ctx.cfg.detail === 'header' ? 'LAWSUIT_DETAIL=header: lawsuits are kept as the searches\' headers, none is read whole' : undefined),
    run: (ctx, night) => readLawsuits(ctx, night, trackings?.()),
  };
}

export const lawsuitsStage: Stage = lawsuitsStageOf();

/** The lawsuit_cnj search of a planned read: the number as the warehouse holds it, every instance. */
function plannedRead(r: LawsuitRead, withAttachments: boolean): PlannedSearch {
  const search: Search = { search_type: 'lawsuit_cnj', search_key: r.code, response_type: 'lawsuit' };
  const planned: PlannedSearch = { search, searchHash: searchIdentity(search, { withAttachments }), where: `lawsuit ${r.code} (${r.why})`, line: null, basis: r.basis };
  if (withAttachments) planned.withAttachments = true;
  return planned;
}

interface Planned { plan: LawsuitReadPlan; wave: WavePlan }

/** Tonight's reads from what the warehouse knows now; one already bought and not yet loaded is read, not bought again. */
async function planReads(ctx: RunContext, trackings: LawsuitTrackings | undefined): Promise<Planned> {
  const known = await readLevels(ctx.wh, ctx.runId, [...trackings?.missed ?? []]);
  const plan = planLawsuitReads(known.facts, ctx.cfg.detail, new Date(), trackings);
  plan.counts.whole += known.whole;
  const history = await readHistory(ctx.wh);
  const wave: WavePlan = { submit: [], resume: [] };
  for (const p of plan.reads.map((r) => plannedRead(r, ctx.cfg.withAttachments))) {
    const h = history.get(p.searchHash);
    if (h?.outstandingRequestId) wave.resume.push({ ...p, requestId: h.outstandingRequestId });
    else wave.submit.push(withTook(p, h));
  }
  // A read bought by a killed night whose answer its sweep had already loaded leaves its lawsuit whole, so the
  // plan no longer names it; it is read to its end all the same (bought already, it costs a listing page at
  // most), or its request would stay outstanding in the ledger for ever.
  const resumed = new Set(wave.resume.map((r) => r.requestId));
  for (const r of await outstandingReads(ctx)) {
    if (resumed.has(r.request_id)) continue;
    const search: Search = { search_type: 'lawsuit_cnj', search_key: r.search_key, response_type: 'lawsuit' };
    const withAttachments = r.with_attachments === true;
    wave.resume.push({
      search, searchHash: searchIdentity(search, { withAttachments }), where: `lawsuit ${r.search_key} (bought by an earlier night)`, line: null, requestId: r.request_id,
      ...(withAttachments ? { withAttachments } : {}),
    });
  }
  return { plan, wave };
}

/** The lawsuit-level reads bought and not yet loaded, newest first per number (one each, as readHistory keeps). */
async function outstandingReads(ctx: RunContext): Promise<Array<{ request_id: string; search_key: string; with_attachments: boolean | null }>> {
  return ctx.wh.all(`SELECT arg_max(request_id, created_at) AS request_id, search_key, arg_max(with_attachments, created_at) AS with_attachments FROM requests
    WHERE basis IS NOT NULL AND loaded_at IS NULL AND coalesce(status, '') NOT IN ('cancelled', 'failed')
    GROUP BY search_key ORDER BY search_key`);
}

/**
 * Lawsuit-level reads a part of the wave holds at once. A wave's state, its submissions and its sweep's members
 * grow with its reads: a night of 49,000 (50 ordinary documents, big litigants among them) took 550 MB of RSS on
 * planning them at once and ran out of the 128 MB heap; parts of 1,000 keep a night's memory what a part needs,
 * and each part's sweep reads at the floor all the same (1,000 reads are a page or two of answers).
 */
const READS_PER_PART = 1_000;

async function readLawsuits(ctx: RunContext, night: NightData, trackings: LawsuitTrackings | undefined): Promise<StageReport> {
  const first = await planReads(ctx, trackings);
  const planCounts = countsOfPlan(first);
  if (ctx.cfg.dryRun) return { counts: { ...planCounts, billed_lawsuit_searches: planCounts.to_read } };
  // Numbers read tonight are not read again tonight, whatever their read found: a read that failed waits for the
  // next night, and the parts end (every number is read once at most).
  const tried = new Set<string>();
  const size = ctx.readsPerPart ?? READS_PER_PART;
  const partOf = (wave: WavePlan): WavePlan => {
    const fresh = (p: PlannedSearch) => !tried.has(p.search.search_key);
    const resume = wave.resume.filter(fresh).slice(0, size);
    return { resume, submit: wave.submit.filter(fresh).slice(0, size - resume.length) };
  };
  const reports: StageReport[] = [];
  let refused = 0;
  for (let part = 1; ; part++) {
    const wave = partOf(part === 1 ? first.wave : (await planReads(ctx, trackings)).wave);
    if (wave.submit.length + wave.resume.length === 0) break;
    let ran = wave;
    const { report, state } = await runWave(ctx, night, {
      name: 'lawsuits', part,
      // planned again once interrupted submissions were adopted: this part's numbers are not tried yet
      plan: async (replan) => (replan ? (ran = partOf((await planReads(ctx, trackings)).wave)) : wave),
    });
    for (const p of [...ran.submit, ...ran.resume]) tried.add(p.search.search_key);
    refused += await recordRefusals(ctx, state);
    reports.push(report);
    if (ctx.signal.aborted || report.interrupted || report.ended || ctx.api.spentBudget()) break;
  }
  const report = mergedReports(reports);
  return {
    ...report,
    counts: { ...planCounts, ...report.counts, refused, parts: reports.length, ...await levelCounts(ctx), billed_lawsuit_searches: report.counts.submitted ?? 0 },
  };
}

/** The parts' reports as one: counts and finished items added, failures together, the last ending. */
function mergedReports(reports: readonly StageReport[]): StageReport {
  const counts: Record<string, number> = {};
  for (const r of reports) for (const [k, v] of Object.entries(r.counts)) counts[k] = (counts[k] ?? 0) + v;
  return {
    counts,
    failures: reports.flatMap((r) => r.failures ?? []),
    interrupted: reports.some((r) => r.interrupted) || undefined,
    finished: reports.reduce((n, r) => n + (r.finished ?? 0), 0),
    ended: reports.findLast((r) => r.ended !== undefined)?.ended,
  };
}

/** The plan's figures: lawsuits by why they are read or left, the numbers to read, and the calls it costs at least. */
function countsOfPlan({ plan, wave }: Planned): Record<string, number> {
  const c = plan.counts;
  const reads = wave.submit.length + wave.resume.length;
  const lawsuits = plan.reads.reduce((n, r) => n + r.instances.length, 0);
  return {
    read_new: c.new, read_incomplete: c.incomplete, read_moved: c.moved, read_retry: c.retry, read_tracking: c.tracking,
    left_whole: c.whole, left_depth: c.depth, left_ended: c.ended, left_backoff: c.backoff, left_lags: c.lags, left_tracked: c.tracked,
    to_read: wave.submit.length, to_resume: wave.resume.length, lawsuits_to_read: lawsuits,
    // a submission each, a polling call per 100 requests, the pages of their answers (an instance each, about)
    expected_calls: reads === 0 ? 0 : wave.submit.length + Math.ceil(reads / 100) + pagesFor(lawsuits, 1000),
  };
}

/** Records the reads the provider refused (the reducer's `unavailable`), so that v_lawsuit_levels retries them on a backoff. */
async function recordRefusals(ctx: RunContext, state: SearchState): Promise<number> {
  const refused = [...state.searches.values()].filter((e) => e.unavailable);
  if (refused.length === 0) return 0;
  await ctx.wh.transaction(async () => {
    for (const e of refused) {
      await ctx.wh.run(`INSERT INTO lawsuit_read_refusals (code, refused_at, run_id, error_code, reason) VALUES ($1, current_timestamp, $2, $3, $4)
        ON CONFLICT DO NOTHING`, [e.planned.search.search_key, ctx.runId, e.error!.code, e.error!.message.slice(0, 500)]);
    }
  });
  return refused.length;
}

/** Lawsuits by level once the night's reads are loaded. */
async function levelCounts(ctx: RunContext): Promise<Record<string, number>> {
  const rows = await ctx.wh.all<{ level: string; n: number }>(`SELECT level, count(*)::INTEGER AS n FROM v_lawsuit_levels GROUP BY level`);
  const out: Record<string, number> = { whole: 0, header: 0, stale: 0, unavailable: 0 };
  for (const r of rows) out[r.level] = r.n;
  return out;
}
