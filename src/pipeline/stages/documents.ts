import { nightDialect } from '../dialect.js';
import { recordRejections } from '../../warehouse/ledger.js';
import type { DocumentsList } from '../../input/documents.js';
import type { RunContext } from '../context.js';
import { readHistory } from '../history.js';
import { planRun, type RunPlan } from '../plan.js';
import type { Stage } from '../stage.js';

/** Tonight's plan for a list, from what the ledger knows of each search. Pure but for the ledger read. */
export async function planNight(ctx: RunContext, list: DocumentsList): Promise<RunPlan> {
  return planRun(list.documents, await readHistory(ctx.wh), {
    now: new Date(), freshnessDays: ctx.cfg.freshnessDays, force: ctx.cfg.force, pageSize: (await nightDialect(ctx, { probe: false })).dialect.pageSize, strategy: ctx.cfg.responsesStrategy,
  });
}

/**
 * The documents list, read and checked before the run opened anything, recorded: every rejected line goes to
 * `rejected_inputs`, and the plan says which documents are searched, resumed or still fresh. Sends nothing,
 * so it is all a dry run does.
 */
export const documentsStage: Stage = {
  name: 'documents',
  needs: [],
  callsApi: false,
  plansDry: 'offline',
  async run(ctx, night) {
    const list = night.list!;
    for (const w of list.warnings ?? []) ctx.log.warn({ documents: list.source }, w);
    if (!ctx.cfg.dryRun) await recordRejections(ctx.wh, ctx.runId, list.rejected, list.source);
    const plan = await planNight(ctx, list);
    night.plan = plan;
    return {
      counts: {
        listed: list.documents.length + list.rejected.length + list.duplicates.length,
        valid: list.documents.length, rejected: list.rejected.length, duplicates: list.duplicates.length,
        fresh: plan.fresh.length, to_search: plan.submit.length, resumed: plan.resume.length,
        on_demand: plan.onDemand, expected_calls: plan.expectedCalls, warnings: list.warnings?.length ?? 0,
        expected_document_units: plan.billed.documentSearches, expected_lawsuit_searches: plan.billed.lawsuitSearches,
      },
    };
  },
};
