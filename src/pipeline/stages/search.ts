import type { Warehouse } from '../../warehouse/warehouse.js';
import { documentUnits } from '../cost.js';
import { BY_NUMBER, type RunPlan } from '../plan.js';
import { runWave, type WavePlan } from '../search/wave.js';
import type { Stage } from '../stage.js';
import { planNight } from './documents.js';

// The asynchronous half of a night's documents: one wave of the documents list's searches (search/wave.ts). The
// plan is handed to it: the documents stage's, or on a trackings night the trackings stage's, narrowed to the
// searches its trackings chose.

/** Where the search stage's plan comes from: asked once the stage runs, after the stages that hand it. */
interface SearchesTonight {
  /** Tonight's plan of the list's searches (undefined: none was handed, none is bought). */
  plan(): RunPlan | undefined;
  /**
   * On a trackings night, the searches its trackings stage chose, by identity (PlannedSearch.searchHash): a plan
   * worked out again after a resume is narrowed to them too.
   */
  only?(): ReadonlySet<string> | undefined;
}

export function searchStageOf(tonight: SearchesTonight): Stage {
  return {
    name: 'search',
    needs: tonight.only ? ['documents', 'trackings'] : ['documents'],
    callsApi: true,
    async run(ctx, night) {
      const { report } = await runWave(ctx, night, {
        name: 'documents',
        async plan(replan) {
          const handed = tonight.plan() ?? EMPTY_PLAN;
          if (!replan) return handed;
          // Worked out again, not narrowed: the interrupted submissions adopted just now are outstanding in the
          // ledger, to be read tonight, and no plan handed before could know them.
          const again = (await planNight(ctx, night.list!)).plan;
          if (!tonight.only) return again;
          const chosen = tonight.only() ?? new Set<string>();
          return { ...again, submit: again.submit.filter((p) => chosen.has(p.searchHash)) };
        },
      });
      return { ...report, counts: { ...report.counts, ...await billed(ctx.wh, ctx.runId) } };
    },
  };
}

const EMPTY_PLAN: WavePlan = { submit: [], resume: [] };

/** What tonight's searches of the list are billed (cost.ts): by document per 1,000 lawsuits returned, by number per search. */
async function billed(wh: Warehouse, runId: string): Promise<Record<string, number>> {
  const rows = await wh.all<{ search_type: string; n: number | null }>(`SELECT search_type, coalesce(items_total, items_loaded) AS n FROM requests
    WHERE run_id = $1 AND basis IS NULL AND coalesce(status, '') NOT IN ('cancelled', 'failed')`, [runId]);
  let documents = 0;
  let lawsuits = 0;
  for (const r of rows) {
    if (BY_NUMBER.has(r.search_type)) lawsuits++;
    else documents += documentUnits(r.n ?? 0);
  }
  return { billed_document_units: documents, billed_lawsuit_searches: lawsuits };
}
