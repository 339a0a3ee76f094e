import { nightSpool } from '../delivered/night-spool.js';
import type { Stage } from '../stage.js';

/**
 * The work copy renamed over the published warehouse (warehouse/publish.ts): analysts see the new night whole.
 * It needs no other stage to have succeeded — a night is published with everything that did, a night stopped by
 * SIGTERM too (within its grace period) — but a night where nothing reached the upstream is not: it has nothing
 * new, and its work copy (with any submission whose answer never came) is carried on by the next run.
 */
export const publishStage: Stage = {
  name: 'publish',
  needs: [],
  callsApi: false,
  closesWarehouse: true,
  publishes: true,
  async run(ctx, night) {
    // The spool's segments this warehouse holds whole, known before it closes (a night resumed after its search
    // stage reads no spool of its own, yet publishes what an earlier run read).
    await nightSpool(ctx, night);
    await ctx.publish!();
    // Only now is what these clean up held by the published warehouse: a night killed before finds it again.
    for (const after of night.published ?? []) {
      await after().catch((e: unknown) => ctx.log.warn({ err: e }, 'cleaning up after the publish failed: the next night does it'));
    }
    return { counts: {} };
  },
};
