// Which response items a GET /responses page holds. Items of one request are created in its order, one
// millisecond apart at least, so each request is a sorted run; the listing of a key is the merge of those runs
// by (created_at, response_id), the response id breaking ties between requests. Only items already created
// (created_at <= now) are listed, bounds are inclusive, and an item's place never changes once listed: later
// items sort after it. The merge touches only the items before the page's end, never the whole history.

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

export interface ListedItem { r: StoredRequest; n: number }

interface Run { r: StoredRequest; lo: number; hi: number }

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
    if (errorAt < 0) { if (wantLawsuits) runs.push({ r, lo: lo0, hi: hi0 }); continue; }
    if (wantLawsuits && lo0 < Math.min(hi0, errorAt)) runs.push({ r, lo: lo0, hi: Math.min(hi0, errorAt) });
    if (wantErrors && lo0 <= errorAt && errorAt < hi0) runs.push({ r, lo: errorAt, hi: errorAt + 1 });
  }
  return runs;
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
  const heap: Cursor[] = runs.map((run) => at(run, asc ? run.lo : run.hi - 1));
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
  for (let k = 0; k < end && heap.length > 0; k++) {
    const top = heap[0];
    if (k >= q.offset) items.push({ r: top.run.r, n: top.n });
    const next = asc ? top.n + 1 : top.n - 1;
    if (asc ? next < top.run.hi : next >= top.run.lo) heap[0] = at(top.run, next);
    else { heap[0] = heap[heap.length - 1]; heap.pop(); }
    if (heap.length > 0) down(0);
  }
  return { total, items };
}
