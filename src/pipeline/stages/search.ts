import { runWave } from '../search/wave.js';
import type { Stage } from '../stage.js';
import { trackingKey } from '../track.js';
import { planNight } from './documents.js';

// The asynchronous half of a night's documents: one wave of the documents list's searches (search/wave.ts). The
// plan is the documents stage's; a trackings night buys only the searches its trackings stage chose.

export const searchStage: Stage = {
  name: 'search',
  needs: ['documents'],
  callsApi: true,
  run: async (ctx, night) => (await runWave(ctx, night, {
    name: 'documents',
    async plan(replan) {
      const planned = replan ? await planNight(ctx, night.list!) : night.plan!;
      const only = night.searchOnly;
      const plan = only ? { ...planned, submit: planned.submit.filter((p) => only.has(trackingKey(p.search.search_type, p.search.search_key))) } : planned;
      night.plan = plan;
      return plan;
    },
  })).report,
};
