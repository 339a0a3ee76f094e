import type { StoredCursor } from '../../warehouse/read-ledger.js';

// The sweep's cursor on the provider's created_at (epoch ms on the provider's clock, never ours). Page numbers
// over a listing of every request shift whenever a response is created or forgotten before the page; a
// lower bound on created_at does not. Each query asks for responses created at or after the bound, oldest
// first; the next bound is the creation time of the last response read, inclusive, so that responses sharing
// that millisecond with it (the page may have cut them) are read again and skipped by id. Every response
// created before the bound has been read: the bound less one millisecond is what the sweep covers.
//
// A listing's bounds are whole milliseconds while its created_at may be finer; hence the inclusive bound at the
// last millisecond read (a response at 12:00:00.0004 is not "after" 12:00:00.000 to a provider comparing
// microseconds). More than a page of responses in one millisecond would hold the bound still: then the next
// page at the same bound is asked for, at the same page size.

export type SweepCursor = StoredCursor;

/** One page the sweep asks for. */
export interface SweepQuery {
  /** created_at at or after (epoch ms, inclusive). */
  from: number;
  /** created_at at or before (epoch ms, inclusive); undefined: up to the newest. */
  until?: number;
  page: number;
  size: number;
}

/** What a page did to the cursor. */
export interface Advance {
  cursor: SweepCursor;
  /** Positions (in the page) of the responses not read before. */
  fresh: number[];
  /** The page was the last of its range (fewer responses than asked for): everything up to `until`, or to the newest, is read. */
  end: boolean;
}

/** The epoch ms of a created_at, or NaN. */
export function timeOf(createdAt: unknown): number {
  return typeof createdAt === 'string' ? Date.parse(createdAt) : Number.NaN;
}

/** Every response created before this instant (epoch ms) has been read (-Infinity before the first page). */
export function coveredBefore(c: SweepCursor): number {
  return c.from ?? Number.NEGATIVE_INFINITY;
}

/** The next query at this cursor, given the range's upper bound and the page size wanted. */
export function queryAt(c: SweepCursor, start: number, until: number | undefined, size: number): SweepQuery {
  // A page repeated at one bound keeps its size: page numbers hold at one size only.
  if (c.page > 1 && c.pageSize !== undefined) return { from: c.from ?? start, until, page: c.page, size: c.pageSize };
  return { from: c.from ?? start, until, page: 1, size };
}

/**
 * The cursor after a page answered `q` (verified: every response within the bounds, oldest first). `times`
 * are the responses' created_at in epoch ms, `ids` their response ids, in the page's order.
 */
export function advance(c: SweepCursor, q: SweepQuery, times: readonly number[], ids: readonly string[]): Advance {
  const seen = new Set(c.from === q.from ? c.seen : []);
  const fresh: number[] = [];
  for (let i = 0; i < ids.length; i++) if (!(times[i] === q.from && seen.has(ids[i]))) fresh.push(i);
  let high = c.high;
  for (const t of times) if (high === undefined || t > high) high = t;
  const last = times.length > 0 ? times[times.length - 1] : undefined;
  const atMs = (ms: number): string[] => ids.filter((_, i) => times[i] === ms);

  if (times.length < q.size) {
    // The end of the range. Next time, from its upper bound (inclusive), or from the last response read.
    const next = q.until ?? last ?? q.from;
    const carried = next === q.from ? [...seen] : [];
    return { cursor: { from: next, page: 1, seen: [...new Set([...carried, ...atMs(next)])], high }, fresh, end: true };
  }
  if (last! > q.from) return { cursor: { from: last!, page: 1, seen: atMs(last!), high }, fresh, end: false };
  // A whole page in the bound's millisecond: the next page at the same bound.
  return { cursor: { from: q.from, page: q.page + 1, pageSize: q.size, seen: [...new Set([...seen, ...ids])], high }, fresh, end: false };
}
