// The asynchronous flow: POST answers the full Request object pending; the request starts, responses are
// appended court by court until it completes (or, under the cancel fault, goes cancelling then cancelled);
// GET /requests lists with the links/meta envelope; validation errors.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, KEY, sandbox } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request lifecycle', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  /** A document whose lawsuits sit in at least three tribunals. */
  function spreadDocument(s: Sandbox): string {
    const counts = new Map<string, Set<string>>();
    for (let i = 0; i < s.universe.count; i++) {
      const l = s.universe.lawsuit(i, s.state.clock.now());
      if (!l || (l.secrecy_level as number) >= 5) continue;
      for (const q of l.parties as any[]) if (q.document_type === 'CNPJ') counts.set(q.document, (counts.get(q.document) ?? new Set()).add(l.tribunal_acronym as string));
    }
    return [...counts.entries()].find(([, t]) => t.size >= 3)![0];
  }

  test('POST answers pending with every Request field; then started, items court by court; then completed', async () => {
    // One court per sandbox hour: stepping the clock makes the court-by-court appending deterministic.
    const HOUR = 3_600_000;
    sb = await sandbox({ courtDelayMs: HOUR });
    const doc = spreadDocument(sb);
    const truth = sb.truth({ search_type: 'cnpj', search_key: doc });
    const post = await call(sb, 'POST', '/requests', { search: { search_type: 'cnpj', search_key: doc, on_demand: false } });
    expect(post.status).toBe(200);
    const r = post.body;
    expect(r.request_id).toMatch(UUID);
    expect(r.origin_id).toMatch(UUID);
    expect(r.user_id).toMatch(UUID);
    expect(r.origin).toBe('api');
    expect(r.status).toBe('pending');
    expect(r.tags).toEqual({ dashboard_id: null });
    expect(r.search).toMatchObject({ search_type: 'cnpj', search_key: doc, response_type: 'lawsuit', search_params: { filter: {}, pagination: {} } });
    expect(Date.parse(r.created_at)).not.toBeNaN();
    expect(Date.parse(r.updated_at)).not.toBeNaN();
    const tribunals: string[] = [];
    const statuses: string[] = [];
    let seen = 0;
    // Observe at the half hours: a court's items (one millisecond apart) are then all in, or none.
    sb.setNow(new Date(sb.state.clock.now() + HOUR / 2));
    for (let step = 0; step < 50; step++) {
      const page = await call(sb, 'GET', `/responses?request_id=${r.request_id}&page_size=100`);
      const status = (await call(sb, 'GET', `/requests/${r.request_id}`)).body.status;
      if (statuses[statuses.length - 1] !== status) statuses.push(status);
      expect(page.body.request_status).toBe(status);
      // Nothing is listed before it is created.
      for (const item of page.body.page_data) expect(Date.parse(item.created_at)).toBeLessThanOrEqual(sb.state.clock.now());
      const fresh = page.body.page_data.slice(seen);
      // Each step of the clock brings at most one more court's lawsuits.
      expect(new Set(fresh.map((i: any) => i.response_data.tribunal_acronym)).size).toBeLessThanOrEqual(1);
      if (fresh.length) tribunals.push(fresh[0].response_data.tribunal_acronym);
      seen = page.body.all_count;
      if (status === 'completed') break;
      sb.setNow(new Date(sb.state.clock.now() + HOUR));
    }
    // Queued first, then searched court by court, then done: the spec's states in their order.
    expect(statuses).toEqual(['pending', 'started', 'completed']);
    expect(seen).toBe(truth.length);
    expect(new Set(tribunals).size).toBe(tribunals.length);
    expect(tribunals.length).toBeGreaterThanOrEqual(3);
    const final = await call(sb, 'GET', `/responses?request_id=${r.request_id}&page_size=100`);
    const item = final.body.page_data[0];
    expect(item).toMatchObject({ request_id: r.request_id, origin: 'api', origin_id: r.origin_id, response_type: 'lawsuit', user_id: r.user_id, request_status: 'completed' });
    expect(item.response_id).toMatch(UUID);
    expect(item.tags).toEqual({ debug: false, dashboard_id: null, cached_response: false });
  });

  test('with the real clock and a court delay, a request is seen pending, then started, then completed', async () => {
    sb = await sandbox({ courtDelayMs: 150 });
    const post = await call(sb, 'POST', '/requests', { search: { search_type: 'cnpj', search_key: spreadDocument(sb) } });
    const seen: string[] = [];
    for (let k = 0; k < 400 && seen[seen.length - 1] !== 'completed'; k++) {
      const status = (await call(sb, 'GET', `/requests/${post.body.request_id}`)).body.status;
      if (seen[seen.length - 1] !== status) seen.push(status);
      await new Promise((res) => setTimeout(res, 25));
    }
    expect(seen).toEqual(['pending', 'started', 'completed']);
  });

  test('under the cancel fault a request goes cancelling, then cancelled, keeping the courts it had done', async () => {
    const HOUR = 3_600_000;
    sb = await sandbox({ courtDelayMs: HOUR, faults: 'cancel=1' });
    const doc = spreadDocument(sb);
    const post = await call(sb, 'POST', '/requests', { search: { search_type: 'cnpj', search_key: doc } });
    const statuses: string[] = [];
    sb.setNow(new Date(sb.state.clock.now() + HOUR / 2));
    for (let step = 0; step < 60 && statuses[statuses.length - 1] !== 'cancelled'; step++) {
      const status = (await call(sb, 'GET', `/requests/${post.body.request_id}`)).body.status;
      if (statuses[statuses.length - 1] !== status) statuses.push(status);
      sb.setNow(new Date(sb.state.clock.now() + HOUR));
    }
    expect(statuses).toEqual(['pending', 'started', 'cancelling', 'cancelled']);
    const page = await call(sb, 'GET', `/responses?request_id=${post.body.request_id}&page_size=100`);
    expect(page.body.request_status).toBe('cancelled');
    expect(page.body.all_count).toBeGreaterThan(0);
    expect(page.body.all_count).toBeLessThan(sb.truth({ search_type: 'cnpj', search_key: doc }).length);
  });

  test('a request made by the true/false query with create_complete_request starts out created', async () => {
    sb = await sandbox({ courtDelayMs: 3_600_000 });
    const tf = await call(sb, 'POST', '/requests/create', { search: { search_type: 'cnpj', search_key: spreadDocument(sb), search_params: { create_complete_request: true } } });
    expect(tf.status).toBe(200);
    expect((await call(sb, 'GET', `/requests/${tf.body.request_id}`)).body.status).toBe('created');
  });

  test('GET /requests: newest first, links/meta envelope with absolute links, status filter', async () => {
    sb = await sandbox();
    const ids: string[] = [];
    for (const name of ['Ana Silva Santos', 'José Lima Costa', 'Maria Souza Rocha']) {
      ids.push((await call(sb, 'POST', '/requests', { search: { search_type: 'name', search_key: name } })).body.request_id);
    }
    const p1 = await call(sb, 'GET', '/requests?page=1&page_size=2');
    expect(p1.status).toBe(200);
    expect(p1.body.meta).toEqual({ page: 1, page_count: 2, all_pages_count: 2, all_count: 3 });
    expect(p1.body.page_data.map((x: any) => x.request_id)).toEqual([ids[2], ids[1]]);
    expect(p1.body.links.prev).toBeNull();
    expect(p1.body.links.next).toBe(`${sb.url}/requests?page=2&page_size=2`);
    const p2 = await fetch(p1.body.links.next, { headers: { 'api-key': KEY } }).then((x) => x.json() as Promise<any>);
    expect(p2.page_data.map((x: any) => x.request_id)).toEqual([ids[0]]);
    expect(p2.links.next).toBeNull();
    expect((await call(sb, 'GET', '/requests?status=pending')).body.meta.all_count).toBe(0);
    expect((await call(sb, 'GET', '/requests?status=completed,pending')).body.meta.all_count).toBe(3);
  });

  test('validation: 400 with the ValidationError body, 422 for a wrong CNJ check digit, 404 for an unknown id', async () => {
    sb = await sandbox();
    const bad = [
      {},
      { search: { search_type: 'rg', search_key: '1' } },
      { search: { search_type: 'cpf' } },
      { search: { search_type: 'cpf', search_key: '123.456.789-00' } },
      { search: { search_type: 'name', search_key: 'Ana Silva', search_params: { filter: { side: 'Left' } } } },
    ];
    for (const body of bad) {
      const r = await call(sb, 'POST', '/requests', body);
      expect(r.status).toBe(400);
      expect(r.body.error.name).toBe('ValidationError');
      expect(typeof r.body.error.message).toBe('string');
      expect(r.body.error.data.length).toBeGreaterThan(0);
    }
    const cnj = await call(sb, 'POST', '/requests', { search: { search_type: 'lawsuit_cnj', search_key: '0001234-55.2023.8.26.0100' } });
    expect(cnj.status).toBe(422);
    expect(cnj.body.error.name).toBe('ValidationError');
    expect((await call(sb, 'GET', '/requests?page_size=101')).status).toBe(400);
    expect((await call(sb, 'GET', '/responses?page_size=101')).status).toBe(400);
    const nf = await call(sb, 'GET', '/requests/00000000-0000-4000-8000-000000000000');
    expect(nf.status).toBe(404);
    expect(nf.body.error.name).toBe('NotFound');
    expect((await call(sb, 'GET', '/responses?request_id=00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
