import type { SweepParams } from '../../shared/config.js';
import { judgePageSize } from '../../api/dialect.js';
import type { StoredCursor } from '../../warehouse/cursor-store.js';

// The sweep's cursor on the provider's created_at (epoch ms on the provider's clock, never ours). Queries ask
// for the responses created at or after an anchor, oldest first, page after page at one page size. Page
// numbers over a listing that grows hold as long as nothing is inserted or removed before the page: the sweep
// reads only ranges where every request of its own has finished (members.ts), so its own responses there
// no longer change; a response of someone else's that becomes visible late shifts the pages after it by one,
// and the responses of the last two pages read are skipped by id. The anchor moves to the last response read
// when a range is read to its end, when the page size changes, and every ANCHOR_PAGES pages (a response
// forgotten by the provider before the page would shift it back; an anchor kept short keeps that out of
// reach). Moving the anchor costs the responses of its millisecond, read again and skipped by id: a response
// cut off by the previous page may share it. Everything created before the last response read has been read.
//
// A listing's bounds are whole milliseconds while its created_at may be finer; hence the inclusive bound at the
// last millisecond read (a response at 12:00:00.0004 is not "after" 12:00:00.000 to a provider comparing
// microseconds). More than a page of responses in one millisecond is read by page numbers at that anchor.

export type SweepCursor = StoredCursor;

/** Pages read at one anchor before it moves to the last response read. */
const ANCHOR_PAGES = 50;
/** Longest span (provider clock) between an anchor and the responses read from it. */
const ANCHOR_SPAN_MS = 3_600_000;

/** One page the sweep asks for. */
export interface SweepQuery {
  /** created_at at or after (epoch ms, inclusive): the anchor. */
  from: number;
  /** created_at at or before (epoch ms, inclusive); undefined: up to the newest. */
  until?: number;
  page: number;
  size: number;
}

/**
 * The page size a page shows the upstream serves, as the dialect's probe judges its first page (judgePageSize): the
 * size asked when the first page at an anchor held as many as asked or all the listing counts; 0 when it shows
 * nothing (a later page, a page cut short).
 */
export function pageSizeShown(q: SweepQuery, got: number, allCount: number): number {
  return q.page === 1 && judgePageSize(q.size, got, allCount) === q.size ? q.size : 0;
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
  return c.last ?? c.from ?? Number.NEGATIVE_INFINITY;
}

/** The next query at this cursor, given where a new sweep starts, the range's upper bound and the page size wanted. */
export function queryAt(c: SweepCursor, start: number, until: number | undefined, size: number): SweepQuery {
  if (c.from === undefined) return { from: start, until, page: 1, size };
  if (c.page > 1 && c.pageSize !== undefined) {
    // Page numbers hold at one size only: a new size moves the anchor, unless a single millisecond holds it.
    const stuck = c.last === undefined || c.last <= c.from;
    if (c.pageSize === size || stuck) return { from: c.from, until, page: c.page, size: c.pageSize };
    return { from: c.last!, until, page: 1, size };
  }
  return { from: c.from, until, page: 1, size };
}

/**
 * The cursor after a page answered `q` (verified: every response within the bounds, oldest first). `times`
 * are the responses' created_at in epoch ms, `ids` their response ids, in the page's order.
 */
export function advance(c: SweepCursor, q: SweepQuery, times: readonly number[], ids: readonly string[]): Advance {
  const read = new Set([...c.seen, ...(c.seenBefore ?? []), ...(c.atLast ?? [])]);
  const fresh: number[] = [];
  for (let i = 0; i < ids.length; i++) if (!read.has(ids[i])) fresh.push(i);
  let high = c.high;
  for (const t of times) if (high === undefined || t > high) high = t;
  const lastRead = times.length > 0 ? times[times.length - 1] : undefined;
  // The ids read at the last millisecond, across pages: an anchor moved there must not read them as new.
  let lastMs = c.last;
  let atLast = new Set(c.atLast ?? []);
  for (let i = 0; i < times.length; i++) {
    if (lastMs === undefined || times[i] > lastMs) { lastMs = times[i]; atLast = new Set(); }
    if (times[i] === lastMs) atLast.add(ids[i]);
  }
  const window = { seen: [...ids], seenBefore: [...c.seen], atLast: [...atLast], high };

  if (times.length < q.size) {
    // The end of the range: everything up to its upper bound, or to the newest response, is read.
    const from = q.until ?? lastRead ?? Math.max(q.from, c.last ?? q.from);
    return { cursor: { from, page: 1, last: from, ...window, atLast: from === lastMs ? window.atLast : [] }, fresh, end: true };
  }
  const last = lastRead!;
  if (last > q.from && (q.page >= ANCHOR_PAGES || last - q.from > ANCHOR_SPAN_MS)) {
    return { cursor: { from: last, page: 1, last, ...window }, fresh, end: false };
  }
  return { cursor: { from: q.from, page: q.page + 1, pageSize: q.size, last, ...window }, fresh, end: false };
}

/** The query string of a page, in the listing's names (learned or pinned: the spec names them by meaning only). */
export function listingParams(p: SweepParams, q: SweepQuery): Record<string, string | number | undefined> {
  return {
    [p.createdGte]: new Date(q.from).toISOString(),
    [p.createdLte]: q.until === undefined ? undefined : new Date(q.until).toISOString(),
    [p.orderBy]: p.orderByValue,
    [p.order]: p.orderAsc,
    page: q.page,
    page_size: q.size,
  };
}
