import { runQueries, type QueryKind } from '../sync.js';
import { runTracking } from '../tracking/track-command.js';
import type { ItemFailure, Stage } from '../stage.js';
import type { SyncFailure } from '../sync.js';

const asFailures = (fs: SyncFailure[]): ItemFailure[] =>
  fs.map((f) => ({ what: 'document', where: `line ${f.line} (${f.searchType})`, code: f.code, reason: f.reason }));

/** `query --kind K`: one synchronous query per document, stored per run (pipeline/sync.ts). */
export function queryStage(kind: QueryKind): Stage {
  return {
    name: 'query',
    needs: ['documents'],
    callsApi: true,
    async run(ctx, night) {
      const r = await runQueries(ctx, night.list!, kind);
      return {
        counts: { documents: r.documents, answered: r.ok, failed: r.failures.length }, failures: asFailures(r.failures),
        interrupted: ctx.signal.aborted, finished: r.ok,
      };
    },
  };
}

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
      failures: asFailures(r.failures),
      interrupted: ctx.signal.aborted,
      finished: r.created + r.existing,
    };
  },
};
