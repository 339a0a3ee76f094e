import type { Warehouse } from '../../warehouse/warehouse.js';
import { documentUnits } from '../cost.js';
import { BY_NUMBER } from '../plan.js';
import { runWave } from '../search/wave.js';
import type { Stage } from '../stage.js';
import { documentTrackingKey } from '../tracking/identity.js';
import { planNight } from './documents.js';

// The asynchronous half of a night's documents: one wave of the documents list's searches (search/wave.ts). The
// plan is the documents stage's; a trackings night buys only the searches its trackings stage chose.

/**
 * The stage; `only` hands it, on a trackings night, the documents the trackings stage chose to search tonight (by
 * identity, tracking/identity.ts): none other is bought. It is asked once the stage runs, after the trackings stage.
 */
export function searchStageOf(only?: () => ReadonlySet<string> | undefined): Stage {
  return {
    name: 'search',
    needs: only ? ['documents', 'trackings'] : ['documents'],
    callsApi: true,
    async run(ctx, night) {
      // Chosen by a trackings stage that ended ok (this stage needs it); none chosen, none bought.
      const chosen = only ? only() ?? new Set<string>() : undefined;
      const { report } = await runWave(ctx, night, {
        name: 'documents',
        async plan(replan) {
          const planned = replan ? await planNight(ctx, night.list!) : night.plan!;
          const plan = chosen ? { ...planned, submit: planned.submit.filter((p) => chosen.has(documentTrackingKey(p.doc))) } : planned;
          night.plan = plan;
          return plan;
        },
      });
      return { ...report, counts: { ...report.counts, ...await billed(ctx.wh, ctx.runId) } };
    },
  };
}

export const searchStage: Stage = searchStageOf();

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
