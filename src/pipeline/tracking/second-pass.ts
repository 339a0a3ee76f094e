import type { RunContext } from '../context.js';
import { listingPageSize } from '../dialect.js';
import { readLevels } from '../lawsuits/levels.js';
import { planLawsuitReads, type LawsuitTrackings } from '../lawsuits/plan.js';
import type { NightData, StageReport } from '../stage.js';
import { asItemFailure } from './night.js';
import { reconcileTrackings, type WantedLawsuits } from './reconcile.js';
import type { HandOff } from '../stage-hand-off.js';
import type { TrackingsTonight } from './tonight.js';
import { wantedLawsuits } from './wanted.js';

// The night's second reconciliation, after the lawsuits stage (stage `lawsuit-trackings`): a lawsuit a listed
// document found tonight, or that was not whole before, became whole during the night, after the trackings stage
// ran; its own tracking is made now rather than the next night, so that its movements from tonight on come by the
// tracking's runs, and the next night already reads them (a tracking made the next night would first run then:
// the night after next would see what moved in between). The cost is the same creation either way, one call a
// number; the first run sends the lawsuit whole once more, read at no charge by the next night's listing.
// Nothing is paused here: the trackings stage did that, before anything was bought; a lawsuit whose tracking it
// paused and that a document found again tonight has its tracking resumed.

/** The second pass: the trackings of the lawsuits made whole since the trackings stage, from its records (no listing). */
export async function lawsuitTrackingsAfterReads(ctx: RunContext, night: NightData, tonight: HandOff<TrackingsTonight>): Promise<StageReport> {
  const handed = tonight.get();
  // The trackings stage ended ok (this stage needs it), so it handed its records; nothing to start from otherwise.
  if (!handed) return { counts: { lawsuit_trackings_created: 0 } };
  let lawsuits = await wantedLawsuits(ctx, night.list!.documents, ctx.cfg.detail);
  if (ctx.cfg.dryRun) lawsuits = await readyAfterReads(ctx, lawsuits, handed.lawsuits);
  const r = await reconcileTrackings(ctx, night.list!.documents, {
    dryRun: ctx.cfg.dryRun, allowPause: true, recurrenceDays: ctx.cfg.trackingRecurrenceDays, lawsuits, pass: 'lawsuits-after-reads',
    records: handed.records, pageSize: await listingPageSize(ctx),
  });
  return {
    counts: {
      lawsuit_trackings_created: r.lawsuits.created, lawsuit_trackings_resumed: r.lawsuits.resumed, lawsuit_trackings_conflicts: r.lawsuits.kept,
      planned_calls: r.plannedCalls, failed: r.failures.length,
    },
    failures: r.failures.map(asItemFailure),
    interrupted: ctx.signal.aborted,
    finished: r.lawsuits.created + r.lawsuits.resumed + r.lawsuits.kept,
  };
}

/**
 * A dry run reads nothing: the lawsuits its lawsuits stage would read whole tonight are taken as whole, so that the
 * plan counts their trackings; those whole already are the trackings stage's plan, not counted twice. Those
 * tonight's searches will find are not known before: the plan is a floor.
 */
async function readyAfterReads(ctx: RunContext, lawsuits: WantedLawsuits, trackings: LawsuitTrackings): Promise<WantedLawsuits> {
  const known = await readLevels(ctx.wh, ctx.runId, [...trackings.missed]);
  const read = new Set(planLawsuitReads(known.facts, ctx.cfg.detail, new Date(), trackings).reads.map((r) => r.code));
  return { ...lawsuits, keep: lawsuits.keep.filter((l) => !l.ready && read.has(l.code)).map((l) => ({ ...l, ready: true })) };
}
