import { rebuildFromRaw } from '../../warehouse/rebuild.js';
import type { Stage } from '../stage.js';

/**
 * `rebuild`: every table that comes from response payloads derived again from responses_raw (warehouse/rebuild.ts).
 * Sends nothing. Interrupted, it is simply done again from the beginning by the next run on the work copy.
 */
export const rebuildStage: Stage = {
  name: 'rebuild',
  needs: [],
  callsApi: false,
  async run(ctx) {
    const r = await rebuildFromRaw(ctx.wh, { progress: (event, n) => ctx.progress?.('responses', event, n), signal: ctx.signal });
    return { counts: { runs: r.runs, items: r.items, lawsuits: r.lawsuits, detections: r.detections }, interrupted: r.interrupted };
  },
};
