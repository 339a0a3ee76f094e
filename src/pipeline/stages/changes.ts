import { detectChanges } from '../../warehouse/changes.js';
import type { Stage } from '../stage.js';

/**
 * What changed since the previous detection (warehouse/changes.ts). It compares whole answers, so it needs
 * the search stage to have ended ok: after a refused or failed search it would read a half night as news.
 */
export const changesStage: Stage = {
  name: 'changes',
  needs: ['search'],
  callsApi: false,
  async run(ctx, night) {
    const r = await detectChanges(ctx.wh, ctx.runId);
    night.changes = { counts: r.counts, top: r.top };
    return { counts: { ...r.counts } };
  },
};
