import type { Stage } from '../stage.js';

/**
 * The work copy renamed over the published warehouse (warehouse/publish.ts): analysts see the new night whole.
 * It needs no other stage to have succeeded — a night is published with everything that did — but a stopped
 * run (SIGTERM) is not published: its work copy is carried on by the next run.
 */
export const publishStage: Stage = {
  name: 'publish',
  needs: [],
  callsApi: false,
  closesWarehouse: true,
  async run(ctx) {
    await ctx.publish!();
    return { counts: {} };
  },
};
