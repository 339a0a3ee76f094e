import type { RunContext } from '../context.js';
import { paramsOf, trackingKey } from './identity.js';
import type { Known } from './reconcile-plan.js';

// What the warehouse knows of the key's trackings and of the searches made, read for the reconciliation's plan
// (reconcile-plan.ts, which turns it and each listed record into what the plan sees, factsOf): which trackings are
// ours and of which kind, which we paused, when we made each, when each search was last submitted, which ran.

export async function knownTrackings(ctx: RunContext): Promise<Known> {
  const ours = await ctx.wh.all<{ tracking_id: string; last_action: string | null; made_at: Date | null; kind: string | null }>(`
    SELECT tracking_id, arg_max(outcome, checked_at) FILTER (WHERE outcome IN ('paused', 'resumed')) AS last_action,
      min(checked_at) FILTER (WHERE outcome = 'created') AS made_at, arg_max(kind, checked_at) FILTER (WHERE kind IS NOT NULL) AS kind
    FROM tracking_checks WHERE tracking_id IS NOT NULL GROUP BY tracking_id`);
  const searched = await ctx.wh.all<{ search_type: string; search_key: string; params: string | null; at: Date }>(`
    SELECT search_type, search_key, json_extract(search, '$.search_params')::VARCHAR AS params, max(coalesce(submitted_at, created_at)) AS at
    FROM requests GROUP BY ALL`);
  const searchedAt = new Map<string, number>();
  for (const r of searched) {
    const k = trackingKey(r.search_type, r.search_key, paramsOf(r.params));
    searchedAt.set(k, Math.max(searchedAt.get(k) ?? 0, r.at.getTime()));
  }
  const runs = await ctx.wh.all<{ tracking_id: string }>(`SELECT DISTINCT tracking_id FROM tracking_runs`);
  return {
    ours: new Map(ours.map((r) => [r.tracking_id, {
      pausedByUs: r.last_action === 'paused', madeAtMs: r.made_at?.getTime(), kind: r.kind === 'lawsuit' ? 'lawsuit' : 'document',
    }])),
    searchedAt, runsRead: new Set(runs.map((r) => r.tracking_id)),
  };
}
