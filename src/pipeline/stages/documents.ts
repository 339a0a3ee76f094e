import { nightDialect } from '../dialect.js';
import { recordRejections } from '../../warehouse/ledger.js';
import type { DocumentSpec, DocumentsList } from '../../input/documents.js';
import { documentIdentity } from '../../input/search-body.js';
import type { RunContext } from '../context.js';
import type { HandOff } from '../stage-hand-off.js';
import { readHistory } from '../history.js';
import { planRun, type NightPlan } from '../plan.js';
import type { Stage } from '../stage.js';

/**
 * Tonight's plan for a list, from what the ledger knows of each search: the ledger and the dialect read once, the
 * plan of any part of the list (NightPlan.only) worked out from them, pure.
 */
export async function planNight(ctx: RunContext, list: DocumentsList): Promise<NightPlan> {
  // LAWSUIT_WITH_ATTACHMENTS: a lawsuit_cnj line is a lawsuit-level read too, and asks for them as the night's own do.
  const searched = (d: DocumentSpec): DocumentSpec => (ctx.cfg.withAttachments && d.searchType === 'lawsuit_cnj' ? { ...d, withAttachments: true } : d);
  const docs = list.documents.map(searched);
  const ids = docs.map((d) => documentIdentity(d));
  // The listed searches' history alone: `only` holds it for the night, and the ledger's whole (every request,
  // the lawsuit-level reads too) would stay in memory beside the one the lawsuits stage reads.
  const all = await readHistory(ctx.wh);
  const history = new Map(ids.flatMap((id) => { const h = all.get(id); return h ? [[id, h] as const] : []; }));
  const opts = {
    now: new Date(), freshnessDays: ctx.cfg.freshnessDays, force: ctx.cfg.force, pageSize: (await nightDialect(ctx, { probe: false })).dialect.pageSize, strategy: ctx.cfg.responsesStrategy,
  };
  return {
    plan: planRun(docs, history, opts),
    identityOf: (doc) => documentIdentity(searched(doc)),
    only: (identities) => planRun(docs.filter((_, i) => identities.has(ids[i])), history, opts),
  };
}

/**
 * The documents list, read and checked before the run opened anything, recorded: every rejected line goes to
 * `rejected_inputs`, and the plan says which documents are searched, resumed or still fresh. Sends nothing,
 * so it is all a dry run does. It hands its plan to the stages after it (`planned`): the search stage buys it, a
 * trackings night's trackings stage narrows it.
 */
export function documentsStageOf(planned: HandOff<NightPlan>): Stage {
  return {
    name: 'documents',
    needs: [],
    callsApi: false,
    plansDry: 'offline',
    async run(ctx, night) {
      const list = night.list!;
      for (const w of list.warnings ?? []) ctx.log.warn({ documents: list.source }, w);
      if (!ctx.cfg.dryRun) await recordRejections(ctx.wh, ctx.runId, list.rejected, list.source);
      const tonight = await planNight(ctx, list);
      planned.set(tonight);
      const { plan } = tonight;
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
}
