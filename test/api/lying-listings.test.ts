import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { walkPages } from '../../src/api/paginate.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { collectRequest } from '../../src/pipeline/collect.js';
import { PageSink } from '../../src/pipeline/page-sink.js';
import { PageSizer } from '../../src/pipeline/page-size.js';
import { pollUntilFinished } from '../../src/pipeline/poll.js';
import { runTransfer } from '../../src/pipeline/transfer.js';
import { loadConfig } from '../../src/shared/config.js';
import { upsertRequest } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { captureLogger, closedAfterEach, KEY, json, startStub, urlsOf } from './stub.js';

// Listings that lie (issue: a billion announced pages of nothing read for minutes; a links.next pointing back to
// itself followed 624 times; a transfer listing repeating page 1 read 9,421 times, SIGTERM ignored). Each must
// end with a warning naming the endpoint, within its ceiling, and end at once when the run is stopped.

const keep = closedAfterEach();

const REQ = 'c0ffee00-0000-4000-8000-000000000001';
const requestObject = (id: string, status: string) => ({ request_id: id, status, created_at: new Date().toISOString(), search: { search_type: 'cpf', search_key: '09206529722' } });

async function context(api: LawsuitApi, signal = new AbortController().signal): Promise<{ ctx: RunContext; logs: () => string }> {
  const wh = keep(await Warehouse.open(':memory:'));
  const cap = captureLogger();
  const cfg = loadConfig({ env: {}, flags: { sandbox: true } });
  return { ctx: { cfg, wh, runId: 'run-1', log: cap.logger, signal, api }, logs: cap.text };
}

describe('listings that lie', () => {
  it('responses announcing a billion pages with none in them: one page read, a warning, the request loaded as empty', async () => {
    const stub = keep(await startStub((_req, res) => json(res, 200, {
      request_status: 'completed', page: 1, page_count: 0, all_pages_count: 1e9, all_count: 1e11, page_data: [],
    })));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const { ctx, logs } = await context(api);
    await upsertRequest(ctx.wh, { request_id: REQ, status: 'pending' });
    const sink = new PageSink(ctx.wh, { runId: ctx.runId });
    const r = await collectRequest(ctx, requestObject(REQ, 'completed') as never, sink, new PageSizer({ max: 100, targetBytes: 4e6 }));
    expect(r.pages).toBe(1);
    expect(stub.calls).toHaveLength(1);
    expect(logs()).toContain('GET /responses announced more responses than it has');
    const [row] = await ctx.wh.all<{ items_total: number; items_loaded: number; loaded: boolean }>('SELECT items_total, items_loaded, loaded_at IS NOT NULL AS loaded FROM requests');
    expect(row).toEqual({ items_total: 0, items_loaded: 0, loaded: true });
  });

  it('a requests listing whose links.next points back to itself: the poll round ends with a warning', async () => {
    const stub = keep(await startStub((_req, res, call) => {
      if (call.path.endsWith('/requests/' + REQ)) return json(res, 200, requestObject(REQ, 'completed'));
      // every page: nothing of ours finished, and "next" is this very address
      json(res, 200, { page_data: [requestObject('someone-else', 'completed')], links: { next: `${stub.url}/rq/requests?page=1&page_size=100` }, meta: { page: 1, all_pages_count: 1e6 } });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const { ctx, logs } = await context(api);
    const waiting = new Map([[REQ, { requestId: REQ, createdAt: Date.now() }]]);
    const done: string[] = [];
    await pollUntilFinished(ctx, waiting, { finished: (r) => done.push(r.request_id), lost: () => undefined, failed: () => undefined, more: () => false },
      { minIntervalMs: 5, maxIntervalMs: 10, probeAfterRounds: 2, probeGapMs: 5 });
    // the listing never answered for it; the single probe did, after two rounds
    expect(done).toEqual([REQ]);
    const listings = stub.calls.filter((c) => c.path.endsWith('/requests')).length;
    expect(listings).toBeLessThanOrEqual(3 * 2);
    expect(logs()).toContain('GET /requests: links.next points to an address already followed');
  });

  it('a transfer listing that repeats page 1 whatever page is asked: listed once, with a warning', async () => {
    const file = { transfer_file_id: 'f1', name: 'f1.csv', file_type: 'csv', status: 'completed', created_at: new Date().toISOString() };
    const stub = keep(await startStub((_req, res, call) => {
      if (call.path === '/tf/transfer-file') return json(res, 200, { page: 1, page_count: 1, all_count: 1e9, all_pages_count: 1e9, page_data: [file] });
      json(res, 403, { error: 'Forbidden', code: 'INSUFFICIENT_PERMISSIONS', message: 'not in this test' });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const { ctx, logs } = await context(api);
    // the file's own record is refused (one 403: that file fails): the stage's business, not this test's
    const summary = await runTransfer({ api: api.transfer, wh: ctx.wh, stagingDir: '/tmp/never-used-lying', runId: 'r', log: ctx.log, retries: 0 });
    expect(summary).toMatchObject({ listed: 1, loaded: 0 });
    expect(summary.failed.map((f) => f.code)).toEqual(['API_FORBIDDEN_ONE']);
    expect(stub.calls.filter((c) => c.path === '/tf/transfer-file')).toHaveLength(2);
    expect(logs()).toContain('GET /transfer-file: a page repeats the one before it');
  });

  it('a listing announcing more pages than it has items is read by its count of items: no call past the pages that hold them', async () => {
    // 120 items in pages of 100; asked past its end, the listing answers its pages again in turn (never the same
    // page twice in a row, which the repeat guard would catch) and always announces 10^9 pages
    const items = Array.from({ length: 120 }, (_, i) => ({ id: i }));
    const walk = async (pagesAnnounced: number, past: 'wrap' | 'empty') => {
      let calls = 0;
      const fetch = async (c: { page: number }) => {
        calls++;
        const page = past === 'wrap' ? ((c.page - 1) % 2) + 1 : c.page;
        const got = items.slice((page - 1) * 100, page * 100);
        return { items: got, page: c.page, pageCount: got.length, allPagesCount: pagesAnnounced, allCount: 120, allCountGiven: true };
      };
      const read: unknown[] = [];
      for await (const p of walkPages(fetch)) read.push(...p.items);
      return { calls, read: read.length };
    };
    // the lie: before, the wrapping listing was read to the ceiling (10,000 calls), the emptying one a page past its end
    expect(await walk(1e9, 'wrap')).toEqual({ calls: 2, read: 120 });
    expect(await walk(1e9, 'empty')).toEqual({ calls: 2, read: 120 });
    // an honest listing is read as it says
    expect(await walk(2, 'wrap')).toEqual({ calls: 2, read: 120 });
  });

  it('every walk has a ceiling of pages, and stops at once when the run is stopped', async () => {
    let n = 0;
    const endless = async () => { n++; return { items: [{ id: n }], page: n, pageCount: 1, allPagesCount: 1e9, allCount: 1e9 }; };
    const stops: string[] = [];
    for await (const _ of walkPages(endless, { maxPages: 50, label: 'GET /x', onStop: (why) => stops.push(why) })) { /* read */ }
    expect(n).toBe(50);
    expect(stops).toEqual(['GET /x: more than 50 pages: the walk stops at the ceiling']);

    const ac = new AbortController();
    n = 0;
    const t0 = Date.now();
    for await (const _ of walkPages(async (c) => { if (c.page === 5) ac.abort(); return endless(); }, { signal: ac.signal })) { /* read */ }
    expect(n).toBe(5);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
