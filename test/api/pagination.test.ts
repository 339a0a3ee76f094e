import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { KEY, closedAfterEach, json, startStub, urlsOf } from './stub.js';

const keep = closedAfterEach();

const REQ = 'c0ffee00-0000-4000-8000-000000000001';
const item = (i: number) => ({ request_id: REQ, response_id: `resp-${i}`, response_type: 'lawsuit', response_data: { code: `code-${i}`, instance: 1 }, created_at: 'x' });
const tracking = (i: number) => ({ tracking_id: `trk-${i}`, status: 'active', recurrence: 7, search: {}, created_at: 'x' });

describe('pagination', () => {
  it('walks the counts form by page number up to all_pages_count', async () => {
    const total = 23;
    const stub = keep(await startStub((_req, res, call) => {
      // Spec "Pagination envelope", counts form (responses listing), page_size 10 -> 3 pages.
      const page = Number(call.query.get('page'));
      const size = Number(call.query.get('page_size'));
      const items = Array.from({ length: total }, (_, i) => item(i)).slice((page - 1) * size, page * size);
      json(res, 200, { request_status: 'completed', page, page_count: items.length, all_pages_count: Math.ceil(total / size), all_count: total, page_data: items });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const ids: string[] = [];
    const pages: number[] = [];
    for await (const p of api.responses.walk(REQ, { pageSize: 10 })) {
      pages.push(p.page);
      expect(p.requestStatus).toBe('completed');
      ids.push(...p.items.map((x) => x.response_id));
    }
    expect(pages).toEqual([1, 2, 3]);
    expect(ids).toEqual(Array.from({ length: total }, (_, i) => `resp-${i}`));
    expect(stub.calls.every((c) => c.query.get('request_id') === REQ)).toBe(true);
  });

  it('resumes the counts form from a given page', async () => {
    const stub = keep(await startStub((_req, res, call) => {
      const page = Number(call.query.get('page'));
      json(res, 200, { request_status: 'pending', page, page_count: 1, all_pages_count: 4, all_count: 4, page_data: [item(page)] });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const got: string[] = [];
    for await (const p of api.responses.walk(REQ, { pageSize: 1, startPage: 3 })) got.push(...p.items.map((x) => x.response_id));
    expect(got).toEqual(['resp-3', 'resp-4']);
  });

  it('an empty document search (counts 0) yields one empty page', async () => {
    // Spec "List responses": document search with no lawsuit: page 1, counts 0, page_data empty.
    const stub = keep(await startStub((_req, res) => json(res, 200, {
      request_status: 'completed', page: 1, page_count: 0, all_pages_count: 0, all_count: 0, page_data: [],
    })));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const pages = [];
    for await (const p of api.responses.walk(REQ)) pages.push(p);
    expect(pages.length).toBe(1);
    expect(pages[0].items).toEqual([]);
  });

  it('follows links.next until it is null (links/meta form)', async () => {
    const total = 7;
    const stub = keep(await startStub((_req, res, call) => {
      // Spec "Pagination envelope", links form (tracking listing); next is an absolute address with page and page_size.
      const page = Number(call.query.get('page') ?? 1);
      const size = 3;
      const pages = Math.ceil(total / size);
      const items = Array.from({ length: total }, (_, i) => tracking(i)).slice((page - 1) * size, page * size);
      const next = page < pages ? `${stub.url}/tk/tracking?page=${page + 1}&page_size=${size}&status=active&status=updated` : null;
      json(res, 200, { page_data: items, links: { next, prev: null, first: null, last: null }, meta: { page, page_count: items.length, all_pages_count: pages, all_count: total } });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const ids: string[] = [];
    for await (const t of api.tracking.walk({ status: ['active', 'updated'] })) ids.push(t.tracking_id);
    expect(ids).toEqual(Array.from({ length: total }, (_, i) => `trk-${i}`));
    expect(stub.calls.length).toBe(3);
    expect(stub.calls[0].query.getAll('status')).toEqual(['active', 'updated']);
    expect(stub.calls[2].query.get('page')).toBe('3');
    expect(stub.calls.every((c) => c.headers['api-key'] === KEY)).toBe(true);
  });

  it('refuses a links.next on another origin, so the key never goes there', async () => {
    const other = keep(await startStub((_req, res) => json(res, 200, {
      page_data: [], links: { next: null }, meta: { page: 2, page_count: 0, all_pages_count: 2, all_count: 1 },
    })));
    const stub = keep(await startStub((_req, res) => json(res, 200, {
      page_data: [tracking(0)], links: { next: `${other.url}/tk/tracking?page=2` }, meta: { page: 1, page_count: 1, all_pages_count: 2, all_count: 2 },
    })));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const e = await (async () => { for await (const _ of api.tracking.walk()) { /* drain */ } })().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('API_BAD_RESPONSE');
    expect(other.calls.length).toBe(0);
  });

  it('rejects an envelope without page_data as API_BAD_RESPONSE', async () => {
    const stub = keep(await startStub((_req, res) => json(res, 200, { page: 1, items: [] })));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const e = await api.requests.list().catch((x: unknown) => x);
    expect((e as ApiError).code).toBe('API_BAD_RESPONSE');
    expect((e as ApiError).message).toContain('page_data');
  });
});
