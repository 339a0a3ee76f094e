import { asItemFailures } from '../document-failure.js';
import { runQueries, type QueryKind } from '../sync.js';
import type { Stage } from '../stage.js';

/** `query --kind K`: one synchronous query per document, stored per run (pipeline/sync.ts). */
export function queryStage(kind: QueryKind): Stage {
  return {
    name: 'query',
    needs: ['documents'],
    callsApi: true,
    async run(ctx, night) {
      const r = await runQueries(ctx, night.list!, kind);
      return {
        counts: { documents: r.documents, answered: r.ok, failed: r.failures.length }, failures: asItemFailures(r.failures),
        interrupted: ctx.signal.aborted, finished: r.ok,
      };
    },
  };
}
