import { afterEach, beforeEach, expect, test } from 'vitest';
import { upsertRequest } from '../../src/warehouse/ledger.js';
import { recordPages } from '../../src/warehouse/page-ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// The pages of a batch recorded in a fixed number of statements (page-ledger.ts): the same ledger recordPage
// and markRequest leave page by page, for any number of pages.

let wh: Warehouse;
beforeEach(async () => { wh = await Warehouse.open(':memory:', { memoryLimit: '128MB' }); });
afterEach(async () => { await wh.close(); });

const requests = () => wh.all('SELECT request_id, pages_loaded, items_loaded, all_pages_count FROM requests ORDER BY 1');

test('pages of several requests, one repeated: each page once, the request totals and the last page count', async () => {
  for (const id of ['a', 'b', 'c']) await upsertRequest(wh, { request_id: id, status: 'completed', all_pages_count: id === 'c' ? 9 : null });
  await recordPages(wh, [
    { requestId: 'a', page: 1, items: 100, allPagesCount: 3 }, { requestId: 'a', page: 2, items: 100, allPagesCount: 4 },
    { requestId: 'b', page: 1, items: 7 }, { requestId: 'a', page: 2, items: 100, allPagesCount: 4 },
  ]);
  expect(await requests()).toEqual([
    { request_id: 'a', pages_loaded: 2, items_loaded: 200, all_pages_count: 4 },
    { request_id: 'b', pages_loaded: 1, items_loaded: 7, all_pages_count: null },
    { request_id: 'c', pages_loaded: 0, items_loaded: 0, all_pages_count: 9 },
  ]);
  // again, and a page recorded before by another call: nothing counted twice
  await recordPages(wh, [{ requestId: 'a', page: 1, items: 100 }, { requestId: 'a', page: 3, items: 40, allPagesCount: 3 }]);
  expect((await requests())[0]).toEqual({ request_id: 'a', pages_loaded: 3, items_loaded: 240, all_pages_count: 3 });
  expect(await wh.all('SELECT count(*) AS n FROM request_pages')).toEqual([{ n: 4 }]);
});

test('twenty thousand one-item pages in one call', async () => {
  await upsertRequest(wh, { request_id: 'big', status: 'completed' });
  await recordPages(wh, Array.from({ length: 20_000 }, (_, i) => ({ requestId: 'big', page: i + 1, items: 1, allPagesCount: 20_000 })));
  expect(await requests()).toEqual([{ request_id: 'big', pages_loaded: 20_000, items_loaded: 20_000, all_pages_count: 20_000 }]);
});
