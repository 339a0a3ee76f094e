import { asItemFailures } from '../document-failure.js';
import { runTracking } from '../tracking/track-command.js';
import type { Stage } from '../stage.js';

/** `track`: every listed document ends with exactly one tracking (pipeline/tracking/track-command.ts). */
export const trackStage: Stage = {
  name: 'track',
  needs: ['documents'],
  callsApi: true,
  async run(ctx, night) {
    const r = await runTracking(ctx, night.list!);
    return {
      counts: {
        documents: r.documents, created: r.created, existing: r.existing, conflicts: r.conflicts,
        recurrence_mismatches: r.recurrenceMismatches, failed: r.failures.length,
      },
      failures: asItemFailures(r.failures),
      interrupted: ctx.signal.aborted,
      finished: r.created + r.existing,
    };
  },
};
