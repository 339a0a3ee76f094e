import { ruleFor } from '../../shared/failure-policy.js';
import type { Search } from '../../spec/types.js';
import type { RunContext } from '../context.js';
import { readHistory } from '../history.js';
import { readLevels } from '../lawsuits/levels.js';
import { planLawsuitReads, type LawsuitReadPlan, type LawsuitRead } from '../lawsuits/plan.js';
import { searchHash, type PlannedSearch } from '../plan.js';
import { runWave, type WavePlan } from '../search/wave.js';
import type { SearchState } from '../search/state.js';
import type { ItemFailure, NightData, Stage, StageReport } from '../stage.js';
import { pagesFor } from '../sweep/cost.js';

// The lawsuit level of a night (docs/two-levels.md): once the searches' headers are loaded, every lawsuit that is
// not whole, or whose header moved past what is held, is read whole by a lawsuit_cnj search, batched and read
// like any other (a second wave of search/wave.ts, under the same limiter, with a sweep of its own). What to read
// is plan.ts's decision over what the warehouse knows (lawsuits/levels.ts); what a read finds, or that it was
// refused, is in the ledger, where v_lawsuit_levels reads it the next time. A refusal (403: secrecy) or a read that
// finds nothing makes the lawsuit unavailable, retried on a backoff in days: data about the lawsuit, not a failure
// of the night.

export const lawsuitsStage: Stage = {
  name: 'lawsuits',
  needs: [],
  callsApi: true,
  plansDry: 'offline',
  skipReason: (ctx) => (ctx.cfg.detail === 'header' ? 'LAWSUIT_DETAIL=header: lawsuits are kept as the searches\' headers, none is read whole' : undefined),
  run: (ctx, night) => readLawsuits(ctx, night),
};

/** The lawsuit_cnj search of a planned read: the number as the warehouse holds it, every instance. */
function plannedRead(r: LawsuitRead): PlannedSearch {
  const search: Search = { search_type: 'lawsuit_cnj', search_key: r.code, response_type: 'lawsuit' };
  return { search, searchHash: searchHash(search), where: `lawsuit ${r.code} (${r.why})`, line: null, basis: r.basis };
}

interface Planned { plan: LawsuitReadPlan; wave: WavePlan }

/** Tonight's reads from what the warehouse knows now; one already bought and not yet loaded is read, not bought again. */
async function planReads(ctx: RunContext): Promise<Planned> {
  const known = await readLevels(ctx.wh, ctx.runId);
  const plan = planLawsuitReads(known.facts, ctx.cfg.detail, new Date());
  plan.counts.whole += known.whole;
  const history = await readHistory(ctx.wh);
  const wave: WavePlan = { submit: [], resume: [] };
  for (const p of plan.reads.map(plannedRead)) {
    const outstanding = history.get(p.searchHash)?.outstandingRequestId;
    if (outstanding) wave.resume.push({ ...p, requestId: outstanding });
    else wave.submit.push(p);
  }
  return { plan, wave };
}

async function readLawsuits(ctx: RunContext, night: NightData): Promise<StageReport> {
  const first = await planReads(ctx);
  const planCounts = countsOfPlan(first);
  if (ctx.cfg.dryRun) return { counts: { ...planCounts, billed_lawsuit_searches: planCounts.to_read } };
  const { report, state } = await runWave(ctx, night, {
    name: 'lawsuits',
    plan: async (replan) => (replan ? (await planReads(ctx)).wave : first.wave),
  });
  const refused = await recordRefusals(ctx, state);
  const levels = await levelCounts(ctx);
  return {
    ...report,
    // A lawsuit the provider keeps secret is data about that lawsuit (v_lawsuit_levels), not a failure of the night.
    failures: (report.failures ?? []).filter((f) => !refused.has(f)),
    finished: report.finished,
    counts: {
      ...planCounts, ...report.counts, failed: report.counts.failed - refused.size, refused: refused.size, ...levels,
      billed_lawsuit_searches: report.counts.submitted,
    },
  };
}

/** The plan's figures: lawsuits by why they are read or left, the numbers to read, and the calls it costs at least. */
function countsOfPlan({ plan, wave }: Planned): Record<string, number> {
  const c = plan.counts;
  const reads = wave.submit.length + wave.resume.length;
  const lawsuits = plan.reads.reduce((n, r) => n + r.instances.length, 0);
  return {
    read_new: c.new, read_incomplete: c.incomplete, read_moved: c.moved, read_retry: c.retry,
    left_whole: c.whole, left_depth: c.depth, left_ended: c.ended, left_backoff: c.backoff, left_lags: c.lags,
    to_read: wave.submit.length, to_resume: wave.resume.length, lawsuits_to_read: lawsuits,
    // a submission each, a polling call per 100 requests, the pages of their answers (an instance each, about)
    expected_calls: reads === 0 ? 0 : wave.submit.length + Math.ceil(reads / 100) + pagesFor(lawsuits, 1000),
  };
}

/**
 * The reads the provider refused for secrecy (or as not in the plan for that one search), recorded so that the
 * lawsuits are unavailable and retried on a backoff: their failures, to leave out of the night's.
 */
async function recordRefusals(ctx: RunContext, state: SearchState): Promise<Set<ItemFailure>> {
  const refused = [...state.searches.values()].filter((e) => e.error !== undefined && e.planned.doc === undefined && ruleFor(e.error).refused && ruleFor(e.error).reach === 'item');
  if (refused.length === 0) return new Set();
  await ctx.wh.transaction(async () => {
    for (const e of refused) {
      await ctx.wh.run(`INSERT INTO lawsuit_read_refusals (code, refused_at, run_id, error_code, reason) VALUES ($1, current_timestamp, $2, $3, $4)
        ON CONFLICT DO NOTHING`, [e.planned.search.search_key, ctx.runId, e.error!.code, e.error!.message.slice(0, 500)]);
    }
  });
  const where = new Set(refused.map((e) => e.planned.where));
  return new Set(state.failures.filter((f) => where.has(f.where) && ruleFor({ code: f.code }).refused));
}

/** Lawsuits by level once the night's reads are loaded. */
async function levelCounts(ctx: RunContext): Promise<Record<string, number>> {
  const rows = await ctx.wh.all<{ level: string; n: number }>(`SELECT level, count(*)::INTEGER AS n FROM v_lawsuit_levels GROUP BY level`);
  const out: Record<string, number> = { whole: 0, header: 0, stale: 0, unavailable: 0 };
  for (const r of rows) out[r.level] = r.n;
  return out;
}
