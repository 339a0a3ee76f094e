// GET /responses without request_id merges every request's items by (created_at, response_id). A page at any depth
// must be the same page a merge walked from the first item would give, ties between requests included, in both
// orders and under time bounds; and reaching it must cost about the number of requests, not the depth (the walk
// from the first item took 3.6 s for page 24,000 of a 2.4-million-item history).
import { describe, expect, test } from 'vitest';
import { RequestStore, type StoredRequest } from '../../src/sandbox/request-store.js';
import { listItems, type ListingQuery } from '../../src/sandbox/response-listing.js';
import { validateSearchBody } from '../../src/sandbox/search-validation.js';
import { Universe } from '../../src/sandbox/universe.js';

const T0 = Date.parse('2026-06-15T12:00:00.000Z');
const LATER = T0 + 86_400_000;

/** Requests for the universe's big parties, several created at the same instant so that their items tie. */
function store(requests: number, lawsuits = 4000): { s: RequestStore; list: StoredRequest[] } {
  const u = new Universe({ seed: 11, lawsuits });
  const s = new RequestStore(u, { seed: 11, bootId: 'test', courtDelayMs: 3, retentionMs: 1e12 });
  const docs = [...u.entities.list.map((e) => e.document), ...Array.from({ length: u.cast.companies.big }, (_, k) => u.cast.companies.document(k))];
  for (let k = 0; k < requests; k++) {
    const v = validateSearchBody({ search: { search_type: 'cnpj', search_key: docs[k % docs.length] } });
    if (!v.ok) throw new Error(v.reasons.join('; '));
    s.create('key', v.search, T0 + Math.floor(k / 3) * 2, { pendingLongMs: 0, cancel: false });
  }
  return { s, list: [...s.listOf('key')] };
}

/** The merge, walked from the first item: what every page must agree with. */
function bruteForce(s: RequestStore, list: readonly StoredRequest[], q: Omit<ListingQuery, 'offset' | 'limit'>, now: number): string[] {
  const all: Array<{ time: number; id: string }> = [];
  for (const r of list) for (let n = 0; n < s.itemCount(r); n++) {
    const time = s.itemTime(r, n);
    if (time > now || (q.gte !== undefined && time < q.gte) || (q.lte !== undefined && time > q.lte)) continue;
    all.push({ time, id: s.responseIdOf(r, n) });
  }
  all.sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (q.order === 'desc') all.reverse();
  return all.map((x) => x.id);
}

describe('a listing page at any depth', () => {
  const { s, list } = store(45);

  test('every page of every size, both orders, with and without bounds, is the walked merge\'s page', () => {
    const times = list.flatMap((r) => Array.from({ length: s.itemCount(r) }, (_, n) => s.itemTime(r, n)));
    const mid = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
    let ties = 0;
    for (let k = 1; k < times.length; k++) if (times[k] === times[k - 1]) ties++;
    expect(ties).toBeGreaterThan(10);
    for (const bounds of [{}, { gte: mid }, { lte: mid }, { gte: mid - 40, lte: mid + 40 }]) {
      for (const order of ['asc', 'desc'] as const) {
        const q = { kinds: [], order, ...bounds };
        const truth = bruteForce(s, list, q, LATER);
        expect(truth.length).toBeGreaterThan(0);
        for (const limit of [1, 7, 100]) {
          for (let offset = 0; offset < truth.length + limit; offset += limit) {
            const page = listItems(s, list, { ...q, offset, limit }, LATER);
            expect(page.total).toBe(truth.length);
            expect(page.items.map(({ r, n }) => s.responseIdOf(r, n)), `${order} ${JSON.stringify(bounds)} offset ${offset} limit ${limit}`).toEqual(truth.slice(offset, offset + limit));
          }
        }
      }
    }
  });

  test('the deepest page costs about a look-up per request and per step of the time search, not the depth', () => {
    const { s, list } = store(120, 40_000);
    const total = listItems(s, list, { kinds: [], order: 'asc', offset: 0, limit: 1 }, LATER).total;
    expect(total).toBeGreaterThan(5000);
    const itemTime = s.itemTime.bind(s);
    let calls = 0;
    s.itemTime = (r, n) => { calls++; return itemTime(r, n); };
    try {
      for (const order of ['asc', 'desc'] as const) {
        calls = 0;
        listItems(s, list, { kinds: [], order, offset: total - 100, limit: 100 }, LATER);
        // Binary searches over time (about 40 steps), each a search in the few requests straddling the instant,
        // then the page's 100 items: far below the depth.
        expect(calls, order).toBeLessThan(total / 5);
      }
    } finally {
      s.itemTime = itemTime;
    }
  });
});
