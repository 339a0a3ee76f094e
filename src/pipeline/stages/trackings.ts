import type { HandOff } from '../stage-hand-off.js';
import type { Stage } from '../stage.js';
import { trackingsNight, trackingsPlan, type TrackingsHandOffs } from '../tracking/night.js';
import { lawsuitTrackingsAfterReads } from '../tracking/second-pass.js';
import type { TrackingsTonight } from '../tracking/tonight.js';

// The two stages of a trackings night that are the trackings' own (pipeline/tracking/, docs/trackings.md): before
// the search stage, the key's trackings of both kinds reconciled and their runs read; after the lawsuits stage, the
// trackings of the lawsuits made whole during the night. The first is handed the documents stage's plan (`planned`);
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
