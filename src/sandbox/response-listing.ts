// Which response items a GET /responses page holds. Items of one request are created in its order, one
// millisecond apart at least, so each request is a sorted run; the listing of a key is the merge of those runs
// by (created_at, response_id), the response id breaking ties between requests. Only items already created
// (created_at <= now) are listed, bounds are inclusive, and an item's place never changes once listed: later
// items sort after it.
//
// A page at any depth starts from the creation-time index every request has of its items (RequestStore.countUpTo):
// a binary search over time finds the instant where the page's first item sits, by counting the items before it
// run by run, and the merge starts there. Walking the merge from the first item instead cost the whole depth:
// page 24,000 of a 2.4-million-item history took 3.6 s.

import type { ItemKind, RequestStore, StoredRequest } from './request-store.js';

export interface ListingQuery {
  /** Inclusive bounds on the items' created_at (ms). */
  gte?: number;
  lte?: number;
  /** Kinds of item wanted (empty: all). */
  kinds: ItemKind[];
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

interface ListedItem { r: StoredRequest; n: number }

interface Run { r: StoredRequest; lo: number; hi: number; first: number; last: number }

/** Runs of items of each request within the query's time window and kinds. */
function runsOf(store: RequestStore, requests: readonly StoredRequest[], q: ListingQuery, now: number): Run[] {
  const upper = Math.min(now, q.lte ?? Number.POSITIVE_INFINITY);
  const runs: Run[] = [];
  for (const r of requests) {
    const lo0 = q.gte === undefined ? 0 : store.countUpTo(r, q.gte - 1);
    const hi0 = store.countUpTo(r, upper);
    if (hi0 <= lo0) continue;
    const total = store.itemCount(r);
    const errorAt = r.errorItem ? total - 1 : -1;
    const wantLawsuits = q.kinds.length === 0 || q.kinds.includes('lawsuit');
    const wantErrors = q.kinds.length === 0 || q.kinds.includes('error');
    const run = (lo: number, hi: number): Run => ({ r, lo, hi, first: store.itemTime(r, lo), last: store.itemTime(r, hi - 1) });
    if (errorAt < 0) { if (wantLawsuits) runs.push(run(lo0, hi0)); continue; }
    if (wantLawsuits && lo0 < Math.min(hi0, errorAt)) runs.push(run(lo0, Math.min(hi0, errorAt)));
    if (wantErrors && lo0 <= errorAt && errorAt < hi0) runs.push(run(errorAt, errorAt + 1));
  }
  return runs;
}

/** Items of the run created at or before t. */
function countAtOrBefore(store: RequestStore, run: Run, t: number): number {
  if (t < run.first) return 0;
  if (t >= run.last) return run.hi - run.lo;
  return Math.min(run.hi, Math.max(run.lo, store.countUpTo(run.r, t))) - run.lo;
}

/**
 * The instant of the item at `offset` of the merged listing, ascending (the least t with more than `offset` items
 * at or before it) or descending (the greatest t with more than `offset` items at or after it).
 */
function instantAt(store: RequestStore, runs: readonly Run[], offset: number, total: number, asc: boolean): number {
  const before = (t: number) => runs.reduce((s, run) => s + countAtOrBefore(store, run, t), 0);
  let lo = Math.min(...runs.map((r) => r.first));
  let hi = Math.max(...runs.map((r) => r.last));
  while (lo < hi) {
    if (asc) {
      const mid = Math.floor((lo + hi) / 2);
      if (before(mid) > offset) hi = mid; else lo = mid + 1;
    } else {
      const mid = Math.ceil((lo + hi) / 2);
      if (total - before(mid - 1) > offset) lo = mid; else hi = mid - 1;
    }
  }
  return lo;
}

interface Cursor { run: Run; n: number; time: number; id?: string }

/** Page `offset .. offset+limit` of the merged runs, and how many items match in all. */
export function listItems(store: RequestStore, requests: readonly StoredRequest[], q: ListingQuery, now: number): { total: number; items: ListedItem[] } {
  const runs = runsOf(store, requests, q, now);
  const total = runs.reduce((s, x) => s + (x.hi - x.lo), 0);
  const items: ListedItem[] = [];
  if (q.offset >= total || q.limit <= 0) return { total, items };
  const asc = q.order === 'asc';
  if (runs.length === 1) {
    const [run] = runs;
    for (let k = q.offset; k < Math.min(total, q.offset + q.limit); k++) items.push({ r: run.r, n: asc ? run.lo + k : run.hi - 1 - k });
    return { total, items };
  }
  const idOf = (c: Cursor) => (c.id ??= store.responseIdOf(c.run.r, c.n));
  // Ascending: smallest (time, id) first; descending: largest first.
  const before = (a: Cursor, b: Cursor): boolean => {
    if (a.time !== b.time) return asc ? a.time < b.time : a.time > b.time;
    return asc ? idOf(a) < idOf(b) : idOf(a) > idOf(b);
  };
  const at = (run: Run, n: number): Cursor => ({ run, n, time: store.itemTime(run.r, n) });
  // Start every run at the page's instant T: the items strictly before it (in the listing's order) are skipped
  // by counting; the few at T itself (one per request at most) are skipped by the merge, in response id order.
  const t = instantAt(store, runs, q.offset, total, asc);
  let skipped = 0;
  const heap: Cursor[] = [];
  for (const run of runs) {
    if (asc) {
      const n = run.lo + countAtOrBefore(store, run, t - 1);
      skipped += n - run.lo;
      if (n < run.hi) heap.push(at(run, n));
    } else {
      const n = run.lo + countAtOrBefore(store, run, t) - 1;
      skipped += run.hi - 1 - n;
      if (n >= run.lo) heap.push(at(run, n));
    }
  }
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const rr = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l], heap[m])) m = l;
      if (rr < heap.length && before(heap[rr], heap[m])) m = rr;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const end = Math.min(total, q.offset + q.limit);
  for (let k = skipped; k < end && heap.length > 0; k++) {
    const top = heap[0];
    if (k >= q.offset) items.push({ r: top.run.r, n: top.n });
    const next = asc ? top.n + 1 : top.n - 1;
    if (asc ? next < top.run.hi : next >= top.run.lo) heap[0] = at(top.run, next);
    else { heap[0] = heap[heap.length - 1]; heap.pop(); }
    if (heap.length > 0) down(0);
  }
  return { total, items };
}
