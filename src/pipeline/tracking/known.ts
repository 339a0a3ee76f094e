import type { Tracking } from '../../spec/types.js';
import type { RunContext } from '../context.js';
import { paramsOf, trackingKey } from './identity.js';
import { trackingState, type TrackingFacts, type TrackingKind } from './reconcile-plan.js';

// What the warehouse knows of the key's trackings and of the searches made, and each listed record as the
// reconciliation's plan sees it (reconcile-plan.ts, TrackingFacts): which trackings are ours and of which kind, which
// we paused, when each last ran, and whether a new document's tracking still waits for its first search.

/** What the warehouse knows of the key's trackings and of the searches made (knownTrackings()). */
interface Known {
  /** Each tracking we made or matched to a wanted search (tracking_checks). */
  ours: Map<string, Ours>;
  /** The latest search submitted of each identity (identity.ts trackingKey), epoch ms on our clock. */
  searchedAt: Map<string, number>;
  /** The trackings of which a run was read. */
  runsRead: Set<string>;
}

/**
 * One of our trackings: whether our last pause or resume of it was a pause, when we made it (epoch ms, our clock),
 * and the kind we last reconciled it as.
 */
interface Ours { pausedByUs: boolean; madeAtMs?: number; kind: TrackingKind }

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

/** An instant of the provider's as epoch ms; 0 when absent or unreadable. */
export const ms = (v: unknown): number => {
  const n = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(n) ? 0 : n;
};

/** A listed record as the plan sees it; undefined for one whose search cannot be told. */
export function factsOf(t: Tracking, k: Known, lastRunAt?: ReadonlyMap<string, Date>): TrackingFacts | undefined {
  if (!t.search?.search_type || typeof t.search.search_key !== 'string') return undefined;
  const state = trackingState(String(t.status ?? ''));
  const identity = trackingKey(t.search.search_type, t.search.search_key, t.search.search_params);
  // A running record's updated_at is its latest run (or resume). A paused one's is its pause: it ran until then (or
  // the staleness rule searched it), and the gap since is one the list asked for, so a document listed again is
  // searched only when the pause outlasted two recurrences.
  const seen = Math.max(ms(t.created_at), ms(t.updated_at), lastRunAt?.get(t.tracking_id)?.getTime() ?? 0);
  const mine = k.ours.get(t.tracking_id);
  // Made (by us: when our check says; else as the provider stamped it) after the last search of its document, and
  // no run of it read: nothing of its document reached the warehouse since. So a night killed after making its
  // trackings and before recording them, or before searching, still searches each new document once; a tracking
  // another client made is searched once when first matched, its runs before our reading's watermark not read.
  const madeAt = mine?.madeAtMs ?? ms(t.created_at);
  const awaitingFirstSearch = !k.runsRead.has(t.tracking_id) && (k.searchedAt.get(identity) ?? 0) < madeAt;
  return {
    trackingId: t.tracking_id, identity, state,
    recurrenceDays: typeof t.recurrence === 'number' ? t.recurrence : undefined, lastRunMs: seen,
    ours: mine !== undefined, pausedByUs: mine?.pausedByUs ?? false, awaitingFirstSearch, kind: mine?.kind,
  };
}
