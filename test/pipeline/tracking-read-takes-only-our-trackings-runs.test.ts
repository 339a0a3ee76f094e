import { describe, expect, it } from 'vitest';
import type { RunContext } from '../../src/pipeline/context.js';
import { queryAt, type SweepCursor } from '../../src/pipeline/sweep/cursor.js';
import { boundOf } from '../../src/pipeline/tracking/read-runs.js';
import { trackingPage, type TrackedSearch } from '../../src/pipeline/tracking/runs-page.js';
import type { ResponseItem } from '../../src/spec/types.js';

// A trackings night's rule of whose responses it takes (src/pipeline/tracking/runs-page.ts): the responses of
// runs of our trackings (origin tracking, origin_id one of ours), and nothing else on the key: not our own
// searches' (the search stage reads those), not another client's requests, not another client's trackings' runs.
// And, night after night, each response once: a night carries on from the cursor of the night before.

const OURS = new Map<string, TrackedSearch>([['t-ours-1', { searchType: 'cpf', searchKey: '09206529722' }], ['t-ours-2', { searchType: 'cnpj', searchKey: '12ABC34501DE35' }]]);

const at = (ms: number) => new Date(Date.UTC(2026, 10, 1) + ms).toISOString();
function item(id: string, t: number, origin: 'api' | 'tracking', originId: string, requestId: string): ResponseItem {
  return { response_id: id, request_id: requestId, origin, origin_id: originId, response_type: 'lawsuit', response_data: {}, created_at: at(t) } as unknown as ResponseItem;
}

describe('reading the trackings\' runs', () => {
  it('takes the responses of our trackings\' runs, grouped per run, and skips every other response on the key', () => {
    const items = [
      item('a', 1, 'tracking', 't-ours-1', 'run-1'),
      item('b', 2, 'api', 'o-1', 'our-search'),
      item('c', 3, 'tracking', 't-theirs', 'their-run'),
      item('d', 4, 'tracking', 't-ours-1', 'run-1'),
      item('e', 5, 'tracking', 't-ours-2', 'run-2'),
      item('f', 6, 'api', 't-ours-1', 'an-api-request-with-a-colliding-origin-id'),
    ];
    const base = Date.parse(at(0));
    const taken = trackingPage({ page: 1, seen: [] }, queryAt({ page: 1, seen: [] }, base, base + 10, 10), items, OURS, false);
    if (taken.kind !== 'page') throw new Error(taken.reason);
    expect([taken.read, taken.skipped]).toEqual([6, 3]);
    expect(taken.items.map((i) => i.response_id)).toEqual(['a', 'd', 'e']);
    expect(taken.runs).toEqual([
      { requestId: 'run-1', trackingId: 't-ours-1', searchType: 'cpf', searchKey: '09206529722', items: 2 },
      { requestId: 'run-2', trackingId: 't-ours-2', searchType: 'cnpj', searchKey: '12ABC34501DE35', items: 1 },
    ]);
  });

  it('reads each response once across nights: the next night starts from the cursor of the one before', () => {
    const base = Date.parse(at(0));
    const listing = [item('a', 10, 'tracking', 't-ours-1', 'run-1'), item('b', 20, 'tracking', 't-ours-1', 'run-1'), item('c', 20, 'tracking', 't-ours-2', 'run-2')];
    const read = (cursor: SweepCursor, until: number) => {
      const q = queryAt(cursor, base, until, 2);
      const page = listing.filter((i) => Date.parse(i.created_at as string) >= q.from && Date.parse(i.created_at as string) <= until).slice((q.page - 1) * q.size, q.page * q.size);
      return trackingPage(cursor, q, page, OURS, q.page > 1);
    };
    // night 1 reads up to the millisecond of b and c; a page of 2 is full, the next page ends the range
    let cursor: SweepCursor = { page: 1, seen: [] };
    const seen: string[] = [];
    for (let guard = 0; guard < 10; guard++) {
      const p = read(cursor, base + 20);
      if (p.kind !== 'page') throw new Error(p.reason);
      seen.push(...p.items.map((i) => i.response_id));
      cursor = p.cursor;
      if (p.end) break;
    }
    expect(seen).toEqual(['a', 'b', 'c']);
    // night 2: a new response at the last millisecond read, and one after: only those are new
    listing.push(item('d', 20, 'tracking', 't-ours-2', 'run-3'), item('e', 30, 'tracking', 't-ours-1', 'run-4'));
    const night2: string[] = [];
    cursor = { ...cursor, page: 1, pageSize: undefined };
    for (let guard = 0; guard < 10; guard++) {
      const p = read(cursor, base + 40);
      if (p.kind !== 'page') throw new Error(p.reason);
      night2.push(...p.items.map((i) => i.response_id));
      cursor = p.cursor;
      if (p.end) break;
    }
    expect(night2).toEqual(['d', 'e']);
  });

  it('does not trust a page outside the bounds it asked for: nothing on it is taken', () => {
    const base = Date.parse(at(0));
    const q = queryAt({ page: 1, seen: [] }, base + 10, base + 20, 10);
    const p = trackingPage({ page: 1, seen: [] }, q, [item('a', 5, 'tracking', 't-ours-1', 'run-1')], OURS, false);
    // The reason names what failed (it read "[object Object]": the page's doubt was printed whole).
    expect(p).toEqual({ kind: 'untrusted', reason: expect.stringContaining('before the lower bound asked for') });
    expect(p.kind === 'untrusted' && p.reason).not.toContain('[object Object]');
  });
});

describe('how far a night reads the trackings\' runs', () => {
  const FROM = Date.UTC(2026, 10, 1);
  const running = (id: string, t: number) => ({ request_id: id, status: 'pending', created_at: new Date(FROM + t).toISOString() });
  const ctxOf = (pages: Array<Array<ReturnType<typeof running>>>, opts: { ignorePage?: boolean } = {}) => {
    const asked: number[] = [];
    const ctx = {
      signal: new AbortController().signal, log: { warn: () => undefined },
      api: { requests: { list: async (q: { page: number }) => {
        asked.push(q.page);
        const items = pages[opts.ignorePage ? 0 : q.page - 1] ?? [];
        return { items, allCount: pages.flat().length, allPagesCount: pages.length };
      } } },
    } as unknown as RunContext;
    return { ctx, asked };
  };

  it('stops just before the oldest running run, found on whatever page the listing shows it (an ignored sort)', async () => {
    const newestFirst = [Array.from({ length: 100 }, (_, i) => running(`r${i}`, 10_000 - i)), [running('oldest', 500)]];
    const { ctx, asked } = ctxOf(newestFirst);
    expect(await boundOf(ctx, FROM)).toEqual({ until: FROM + 499, calls: 2 });
    expect(asked).toEqual([1, 2]);
  });

  it('reads nothing past where it starts when the listing of running runs cannot be walked to its end', async () => {
    const { ctx } = ctxOf([[running('a', 9_000)], [running('oldest', 500)]], { ignorePage: true });
    expect((await boundOf(ctx, FROM)).until).toBe(FROM);
  });

  it('reads to the newest response when no run is running', async () => {
    expect((await boundOf(ctxOf([[]]).ctx, FROM)).until).toBeUndefined();
  });
});
