import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import type { Search } from '../../src/spec/types.js';
import { KEY, closedAfterEach, freePort, json, startStub, urlsOf, type Recorded, type Stub } from './stub.js';

// POST /requests may be billed: it must never create two requests for one submission.

const keep = closedAfterEach();

const search: Search = { search_type: 'cpf', search_key: '092.065.297-22' };

/** A requests store like the service's: POST creates, GET /requests lists newest first (links form). */
function store() {
  const created: Array<Record<string, unknown>> = [];
  let n = 0;
  return {
    created,
    create(body: { search: Search }) {
      n++;
      const r = {
        request_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, status: 'pending', origin: 'api',
        created_at: new Date().toISOString(),
        // Spec "Request": the search as accepted (digits only), with filter and pagination echoed.
        search: { ...body.search, search_key: body.search.search_key.replace(/\D/g, ''), response_type: 'lawsuit', search_params: { filter: {}, pagination: {} } },
      };
      created.push(r);
      return r;
    },
    list(base: string, page: number, size: number) {
      const newest = [...created].reverse();
      const items = newest.slice((page - 1) * size, page * size);
      const pages = Math.ceil(newest.length / size);
      return {
        page_data: items,
        links: { next: page < pages ? `${base}/rq/requests?page=${page + 1}&page_size=${size}` : null, prev: null, first: null, last: null },
        meta: { page, page_count: items.length, all_pages_count: pages, all_count: newest.length },
      };
    },
  };
}

/**
 * A stub whose POST /requests creates the request in `s` and then drops the connection before answering (the
 * answer lost on the wire), and whose GET /requests answers with `list`; `posts()` counts the creations.
 */
async function losingAnswers(s: ReturnType<typeof store>, list: (call: Recorded) => unknown): Promise<{ stub: Stub; posts(): number }> {
  let posts = 0;
  const stub = keep(await startStub((req, res, call) => {
    if (call.method === 'POST' && call.path === '/rq/requests') {
      posts++;
      s.create(call.body as { search: Search });
      req.socket.destroy();
      return;
    }
    if (call.method === 'GET' && call.path === '/rq/requests') return json(res, 200, list(call));
    json(res, 404, {});
  }));
  return { stub, posts: () => posts };
}

describe('POST /requests retry safety', () => {
  it('after a reset once the body was sent, finds the created request in the listing instead of sending again', async () => {
    const s = store();
    // Two unrelated older requests first, so the look-up has to pick the right one.
    s.create({ search: { search_type: 'cnpj', search_key: '11222333000181' } });
    // The case: the service created the request, then the connection died before the answer. The listing is the
    // spec's "List requests": links/meta envelope, newest first (docs/dialect-and-spec-gaps.md, "Spec gaps").
    let url = '';
    const { stub, posts } = await losingAnswers(s, (call) => s.list(url, Number(call.query.get('page') ?? 1), Number(call.query.get('page_size') ?? 20)));
    url = stub.url;
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10, lookupDelayMs: 10 }));
    const r = await api.requests.create(search);
    expect(posts()).toBe(1);
    expect(s.created.length).toBe(2);
    expect(r.request_id).toBe(s.created[1].request_id);
    expect(api.stats().byRoute['GET /requests']).toBeGreaterThanOrEqual(1);
  });

  /**
   * A provider whose created_at runs `createdOffsetMs` off our clock and whose Date header runs `dateOffsetMs` off
   * it (not always the same clock: a proxy's Date, a clock apart from the one stamping created_at); its POST
   * creates the request, then its answer is lost: dropped (`lose` 'reset') or a 500 (`lose` '500'), for the
   * searches `lost` names. Yesterday's request for the same search (on its created_at clock) is in the listing.
   */
  async function skewedProvider(o: { createdOffsetMs: number; dateOffsetMs: number; lose: 'reset' | '500'; lost: (s: Search) => boolean }) {
    const createdNow = () => Date.now() + o.createdOffsetMs;
    const created: Array<Record<string, unknown>> = [];
    const make = (body: { search: Search }, at: number) => {
      const r = { request_id: `00000000-0000-4000-8000-${String(created.length + 1).padStart(12, '0')}`, status: 'pending', origin: 'api',
        created_at: new Date(at).toISOString(), search: { ...body.search, search_key: body.search.search_key.replace(/\D/g, '') } };
      created.push(r);
      return r;
    };
    make({ search }, createdNow() - 86_400_000);
    let posts = 0;
    const stub = keep(await startStub((req, res, call) => {
      const date = { date: new Date(Date.now() + o.dateOffsetMs).toUTCString() };
      if (call.method === 'POST' && call.path === '/rq/requests') {
        posts++;
        const body = call.body as { search: Search };
        const r = make(body, createdNow());
        if (!o.lost(body.search)) return json(res, 201, r, date);
        if (o.lose === 'reset') return void req.socket.destroy();
        return json(res, 500, { error: 'InternalServerError', message: 'lost after it was made' }, date);
      }
      if (call.method === 'GET' && call.path === '/rq/requests') {
        const newest = [...created].reverse();
        return json(res, 200, { page_data: newest, links: { next: null }, meta: { page: 1, page_count: newest.length, all_pages_count: 1, all_count: newest.length } }, date);
      }
      json(res, 404, {}, date);
    }));
    return { stub, created, posts: () => posts };
  }

  it('bounds the look-up by our own clock, never by the provider\'s Date header: a Date a day ahead does not buy twice', async () => {
    // every Date header a day ahead, created_at on our clock, and every answer lost after the request was made
    const p = await skewedProvider({ createdOffsetMs: 0, dateOffsetMs: 86_400_000, lose: '500', lost: () => true });
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(p.stub), baseDelayMs: 10, lookupDelayMs: 10 }));
    const other: Search = { search_type: 'cnpj', search_key: '11.222.333/0001-81' };
    const a = await api.requests.create(search);
    const b = await api.requests.create(other);
    expect(p.posts()).toBe(2);
    expect(p.created).toHaveLength(3);
    expect([a.request_id, b.request_id]).toEqual([p.created[1].request_id, p.created[2].request_id]);
  });

  for (const [what, offsetMs] of [['ten months behind', -300 * 86_400_000], ['ten months ahead of', 300 * 86_400_000]] as const) {
    it(`finds the created request with the provider's created_at ${what} ours (learnt from its answered creations), not yesterday's`, async () => {
      const other: Search = { search_type: 'cnpj', search_key: '11.222.333/0001-81' };
      // The Date header on the created_at clock, as an honest provider's: no help to the look-up, which ignores it.
      const p = await skewedProvider({ createdOffsetMs: offsetMs, dateOffsetMs: offsetMs, lose: 'reset', lost: (s) => s.search_type === 'cpf' });
      const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(p.stub), baseDelayMs: 10, lookupDelayMs: 10 }));
      await api.requests.create(other);
      const r = await api.requests.create(search);
      expect(p.posts()).toBe(2);
      expect(p.created).toHaveLength(3);
      expect(r.request_id).toBe(p.created[2].request_id);
    });
  }

  it('after a reset where nothing was created, submits again once', async () => {
    const s = store();
    let posts = 0;
    const stub = keep(await startStub((req, res, call) => {
      if (call.method === 'POST') {
        posts++;
        // First POST: the connection dies before the service acted.
        if (posts === 1) return void req.socket.destroy();
        return json(res, 200, s.create(call.body as { search: Search }));
      }
      json(res, 200, s.list(stub.url, 1, 100));
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10, lookupDelayMs: 10 }));
    const r = await api.requests.create(search);
    expect(posts).toBe(2);
    expect(s.created.length).toBe(1);
    expect(r.request_id).toBe(s.created[0].request_id);
  });

  it('a 5xx on POST is ambiguous too: looked up, not resent when found', async () => {
    const s = store();
    let posts = 0;
    const stub = keep(await startStub((_req, res, call) => {
      if (call.method === 'POST') {
        posts++;
        s.create(call.body as { search: Search });
        // A gateway time-out after the service created the request.
        return json(res, 504, { error: 'gateway timeout' });
      }
      json(res, 200, s.list(stub.url, 1, 100));
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10, lookupDelayMs: 10 }));
    const r = await api.requests.create(search);
    expect(posts).toBe(1);
    expect(r.request_id).toBe(s.created[0].request_id);
  });

  it('retries blindly after a 429 (surely not processed)', async () => {
    const s = store();
    let posts = 0;
    const stub = keep(await startStub((_req, res, call) => {
      posts++;
      // docs/dialect-and-spec-gaps.md, "Spec gaps": 429 with Retry-After; the call was not processed.
      if (posts === 1) return json(res, 429, { error: 'Too Many Requests', message: 'x', code: 'RATE_LIMITED' }, { 'retry-after': '0' });
      json(res, 200, s.create(call.body as { search: Search }));
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10 }));
    const r = await api.requests.create(search);
    expect(posts).toBe(2);
    expect(stub.calls.every((c) => c.method === 'POST')).toBe(true);
    expect(r.request_id).toBe(s.created[0].request_id);
  });

  it('retries blindly after a refused connection', async () => {
    const port = await freePort();
    const s = store();
    // Nothing listens at first: the connection is refused. The service comes up a little later.
    const late = new Promise<Stub>((resolve) => setTimeout(() => {
      void startStub((_req, res, call) => json(res, 200, s.create(call.body as { search: Search })), port).then(resolve);
    }, 300));
    const api = keep(new LawsuitApi({
      apiKey: KEY, urls: urlsOf({ url: `http://127.0.0.1:${port}` } as Stub), baseDelayMs: 100, maxDelayMs: 200, retries: 10,
    }));
    const r = await api.requests.create(search);
    const stub = keep(await late);
    expect(stub.calls.length).toBe(1);
    expect(r.request_id).toBe(s.created[0].request_id);
    expect(api.stats().byStatus.network).toBeGreaterThanOrEqual(1);
  });

  it('against an upstream that ignores the date bound and the sort and lists oldest first, the lost answer still finds its request', async () => {
    // The provider's documented examples list GET /requests oldest first; a key holding 300 requests of earlier
    // days puts the new one on the fourth page. Reading the first page as "newest first" concluded "not sent".
    const s = store();
    for (let i = 0; i < 300; i++) s.create({ search: { search_type: 'cnpj', search_key: '11222333000181' } }).created_at = new Date(Date.now() - 2 * 86_400_000 + i * 1000).toISOString();
    const queries: string[] = [];
    const { stub, posts } = await losingAnswers(s, (call) => {
      queries.push(call.query.toString());
      // Oldest first, whatever was asked.
      const page = Number(call.query.get('page') ?? 1);
      const size = Number(call.query.get('page_size') ?? 20);
      const oldest = [...s.created].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
      const items = oldest.slice((page - 1) * size, page * size);
      return { page: String(page), page_count: items.length, all_pages_count: Math.ceil(oldest.length / size), all_count: oldest.length, page_data: items };
    });
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10, lookupDelayMs: 10 }));
    const r = await api.requests.create(search);
    expect(posts()).toBe(1);
    expect(r.search).toMatchObject({ search_type: 'cpf' });
    expect(s.created.filter((c) => (c.search as Search).search_type === 'cpf')).toHaveLength(1);
    // It asked for the requests since the submission, newest first, by the documented names.
    expect(queries[0]).toMatch(/created_at_gte=/);
    expect(queries[0]).toMatch(/orderField=created_at&orderDirection=desc/);
  });

  it('a listing that ends early proves nothing: the search is not submitted again', async () => {
    const s = store();
    // A listing that announces three pages and answers the same full page each time: the walk stops at the repeat.
    const filler = Array.from({ length: 100 }, (_, i) => ({ request_id: `old-${i}`, status: 'completed', created_at: '2020-01-01T00:00:00.000Z', search: { search_type: 'cnpj', search_key: '1' } }));
    const { stub, posts } = await losingAnswers(s, () => ({ page: 1, page_count: 100, all_pages_count: 3, all_count: 300, page_data: filler }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10, lookupDelayMs: 10 }));
    await expect(api.requests.create(search)).rejects.toMatchObject({ code: 'REQUEST_LOOKUP_UNPROVEN' });
    expect(posts()).toBe(1);
  });
});
