import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { upsertJsonRows } from '../../src/warehouse/upsert-json.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// Synchronous answers and tracking records follow the warehouse's merge rule too (docs/warehouse.md, "The merge rule"):
// per key, the newest answer (by its version columns), whatever order the answers were written in.

let wh: Warehouse;
beforeAll(async () => { wh = await Warehouse.open(':memory:'); });
afterAll(async () => { await wh?.close(); });

const TRACKING = [['tracking_id', 'VARCHAR'], ['status', 'VARCHAR'], ['updated_at', 'TIMESTAMPTZ'], ['checked_at', 'TIMESTAMPTZ']] as const;
const DAYS = ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'];

const listing = fc.record({
  tracking_id: fc.constantFrom('t1', 't2'),
  status: fc.constantFrom('created', 'updating', 'updated', 'paused'),
  updated_at: fc.option(fc.constantFrom(...DAYS), { nil: null }),
  checked_at: fc.constantFrom(...DAYS),
});

it('a tracking record is the newest listing of it, in any order of writing', async () => {
  await fc.assert(fc.asyncProperty(fc.uniqueArray(listing, { minLength: 1, maxLength: 6, selector: (r) => JSON.stringify(r) }), fc.nat(), async (rows, seed) => {
    const shuffled = rows.map((r, i) => ({ r, k: (i * 7919 + seed) % 13 })).sort((x, y) => x.k - y.k).map((x) => x.r);
    const stored = async (order: typeof rows) => {
      await wh.run('DELETE FROM trackings');
      for (const r of order) await upsertJsonRows(wh, 'trackings', TRACKING, ['tracking_id'], [r], ['updated_at', 'checked_at']);
      return wh.all<{ tracking_id: string; status: string }>('SELECT tracking_id, status FROM trackings ORDER BY tracking_id');
    };
    // The reference: per tracking, the row with the greatest (updated_at, checked_at), an absent updated_at oldest.
    type Row = (typeof rows)[number];
    const version = (r: Row): string => `${r.updated_at ?? ''}|${r.checked_at}`;
    const newer = (a: Row, b: Row): boolean => (b.updated_at ?? '') > (a.updated_at ?? '') || ((b.updated_at ?? '') === (a.updated_at ?? '') && b.checked_at > a.checked_at);
    const ids = [...new Set(rows.map((r) => r.tracking_id))].sort();
    const newest = ids.map((id) => rows.filter((r) => r.tracking_id === id).reduce((a, b) => (newer(a, b) ? b : a)));
    const ties = ids.some((id) => new Set(rows.filter((r) => r.tracking_id === id).map(version)).size < rows.filter((r) => r.tracking_id === id).length);
    fc.pre(!ties); // two listings of one version at one instant are the same listing
    const want = newest.map((r) => ({ tracking_id: r.tracking_id, status: r.status }));
    expect(await stored(rows)).toEqual(want);
    expect(await stored(shuffled)).toEqual(want);
    expect(await stored([...rows].reverse())).toEqual(want);
  }), { numRuns: 60 });
});
