import type { SweepQuery } from './cursor.js';

// Verify before trusting. The spec names the listing's filters by meaning only: whether the provider knows the
// names we send is found out on the pages themselves. A provider that ignores them answers its whole history
// (responses before the lower bound, or after the upper one), or ignores the order; either shows on a page,
// and the page is then refused whole: nothing on it is loaded, and the run reads per request instead. (One that
// answers an empty page is caught elsewhere: sweep.ts asks a request that seems to have no responses on its own.)

/** Why a page cannot be trusted; `order` when it is the sort that failed (the dialect's sort names are then
 * remembered as broken), not the bounds or a field. */
interface PageDoubt { reason: string; order: boolean }

/**
 * Why a page cannot be trusted, or undefined. `times` are its responses' created_at (epoch ms), in order;
 * `before` the created_at of the last response of the page before it at the same anchor (a page at a later
 * page number must not start before the previous one ended: a listing newest first whose pages each stamp one
 * millisecond passes every check within a page, and shows here).
 */
export function untrustedPage(q: SweepQuery, times: readonly number[], createdAt: readonly unknown[], before?: number): PageDoubt | undefined {
  const order = (reason: string): PageDoubt => ({ reason, order: true });
  const other = (reason: string): PageDoubt => ({ reason, order: false });
  if (before !== undefined && times.length > 0 && times[0] < before) {
    return order(`page ${q.page} starts at ${iso(times[0])}, before the page ahead of it ended (${iso(before)}): the order is not honoured`);
  }
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    if (Number.isNaN(t)) return other(`a response has no readable created_at (${JSON.stringify(createdAt[i])?.slice(0, 40) ?? 'none'})`);
    if (t < q.from) return other(`a response created at ${iso(t)} is before the lower bound asked for (${iso(q.from)}): the created_at filter is not honoured`);
    if (q.until !== undefined && t > q.until) return other(`a response created at ${iso(t)} is after the upper bound asked for (${iso(q.until)}): the created_at filter is not honoured`);
    if (i > 0 && t < times[i - 1]) return order(`responses are not in creation order (${iso(times[i - 1])} before ${iso(t)}): the order is not honoured`);
  }
  return undefined;
}

const iso = (ms: number): string => new Date(ms).toISOString();
