import type { HandOff } from '../stage-hand-off.js';
import type { Stage } from '../stage.js';
import { trackingsNight, trackingsPlan, type TrackingsHandOffs } from '../tracking/night.js';
import { passOwnAnswers } from '../tracking/past-own-answers.js';
import { lawsuitTrackingsAfterReads } from '../tracking/second-pass.js';
import type { TrackingsTonight } from '../tracking/tonight.js';

// The three stages of a trackings night that are the trackings' own (pipeline/tracking/, docs/trackings.md): before
// the search stage, the key's trackings of both kinds reconciled and their runs read; after the lawsuits stage, the
// trackings of the lawsuits made whole during the night; last, the reading's cursor moved past the night's own
// answers when no run can lie among them. The first is handed the documents stage's plan (`planned`);
// `tonight` carries what it hands the stages after it.

export function trackingsStage(handOffs: TrackingsHandOffs): Stage {
  return {
    name: 'trackings',
    needs: ['documents'],
    callsApi: true,
    plansDry: 'reads',
    run: (ctx, night) => (ctx.cfg.dryRun ? trackingsPlan(ctx, night, handOffs) : trackingsNight(ctx, night, handOffs)),
  };
}

export function lawsuitTrackingsStage(tonight: HandOff<TrackingsTonight>): Stage {
  return {
    name: 'lawsuit-trackings',
    needs: ['trackings'],
    callsApi: true,
    plansDry: 'reads',
    skipReason: (ctx) => (ctx.cfg.detail === 'header' ? 'LAWSUIT_DETAIL=header: no lawsuit is kept whole, none gets a tracking of its own' : undefined),
    run: (ctx, night) => lawsuitTrackingsAfterReads(ctx, night, tonight),
  };
}

/** After every call that buys an answer: the next night's reading of the runs starts past tonight's own answers, when it may. */
export const trackingsCursorStage: Stage = {
  name: 'trackings-cursor',
  needs: ['trackings'],
  callsApi: true,
  run: (ctx) => passOwnAnswers(ctx),
};
