// Both readers of the listing across requests (the sweep, a trackings night's reading of its runs) keep their
// cursor in one store (cursor-store.ts): what a page saves is what a later run reads back, in either table, with
// every id to skip (the last two pages', the last millisecond's) in the one list a resumed cursor skips.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { StoredCursor } from '../../src/warehouse/cursor-store.js';
import { activeSweep, openSweep, recordReads } from '../../src/warehouse/read-ledger.js';
import { latestTrackingRead, openTrackingRead } from '../../src/warehouse/tracking-ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

let wh: Warehouse;
beforeEach(async () => { wh = await Warehouse.open(':memory:'); });
afterEach(async () => { await wh.close(); });

const T = Date.parse('2026-03-01T12:00:00.000Z');
const saved: StoredCursor = { from: T, page: 3, pageSize: 100, seen: ['r3', 'r4'], seenBefore: ['r1', 'r2'], atLast: ['r4', 'r5'], last: T + 7, high: T + 9 };
const readBack: StoredCursor = { from: T, page: 3, pageSize: 100, seen: ['r3', 'r4', 'r1', 'r2', 'r5'], last: T + 7, high: T + 9 };

describe('the cursor store', () => {
  test('a sweep\'s cursor saved with a page is the cursor a resumed sweep reads, its tallies added', async () => {
    await openSweep(wh, 's1', 'run-1', 'documents');
    await recordReads(wh, [{ kind: 'sweep', sweepId: 's1', cursor: saved, read: 5, skipped: 2, pages: 1, ours: [{ requestId: 'q1', items: 3 }], complete: [] }]);
    await recordReads(wh, [{ kind: 'sweep', sweepId: 's1', cursor: { ...saved, pageSize: undefined, page: 1 }, read: 1, skipped: 0, pages: 1, ours: [], complete: [] }]);
    const s = await activeSweep(wh, 'documents');
    expect(s?.cursor).toEqual({ ...readBack, page: 1, pageSize: undefined });
    expect(s).toMatchObject({ pages: 2, itemsRead: 6, itemsOurs: 3, itemsSkipped: 2 });
  });

  test('a trackings reading\'s cursor, opened and saved, reads back the same way; its last page ends it', async () => {
    await openTrackingRead(wh, { readId: 'read-1', runId: 'run-1', watermark: T, cursor: saved });
    expect((await latestTrackingRead(wh))?.cursor).toEqual(readBack);
    await recordReads(wh, [{ kind: 'tracking_page', readId: 'read-1', runId: 'run-1', cursor: { ...saved, page: 4 }, read: 5, skipped: 5, pages: 1, runs: [], done: false }]);
    expect(await latestTrackingRead(wh)).toMatchObject({ status: 'active', cursor: { ...readBack, page: 4 } });
    await recordReads(wh, [{ kind: 'tracking_page', readId: 'read-1', runId: 'run-1', cursor: saved, read: 0, skipped: 0, pages: 1, runs: [], done: true }]);
    expect(await latestTrackingRead(wh)).toMatchObject({ status: 'done', cursor: readBack });
    const [r] = await wh.all<{ pages: number; items_read: number; items_skipped: number }>('SELECT pages, items_read, items_skipped FROM tracking_reads');
    expect(r).toEqual({ pages: 2, items_read: 5, items_skipped: 5 });
  });
});
