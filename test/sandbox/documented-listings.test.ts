// The documented dialect's listings (REFERENCE.md, "The provider's documented dialect"): sorted by orderField /
// orderDirection, the spec dialect's order_by / order and unknown names ignored, GET /responses newest first
// and GET /requests oldest first by default, page_size up to 1000 (more is clamped silently), the flat envelope
// everywhere with "page" as a string and the counts as numbers.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, NOW, sandbox } from './helpers.js';

const at = (ms: number) => new Date(Date.parse(NOW) + ms);
const ids = (page: any): string[] => page.page_data.map((x: any) => x.response_id ?? x.request_id ?? x.tracking_id);
/** (created_at, id) pairs in the listing's order, to check against the same pairs sorted. */
const keys = (page: any): string[] => page.page_data.map((x: any) => `${x.created_at} ${x.response_id ?? x.request_id ?? x.tracking_id}`);

describe('the documented dialect: listings', () => {
  let sb: Sandbox;
  let cnpjs: string[];
  beforeAll(async () => {
    // 10,000 lawsuits: its biggest litigants hold about 300 each, so five searches list over 1,000 responses.
    sb = await sandbox({ dialect: 'documented', lawsuits: 10_000 });
    const found = sb.sampleDocuments(200).filter((d) => d.search_type === 'cnpj')
      .map((d) => ({ key: d.search_key.replace(/\D/g, ''), n: sb.truth({ search_type: 'cnpj', search_key: d.search_key }).length }));
    cnpjs = [...new Map(found.map((f) => [f.key, f])).values()].sort((a, b) => b.n - a.n).slice(0, 5).map((f) => f.key);
    // Each request a second of sandbox time after the previous, then an hour on: every item has appeared.
    for (const [k, key] of cnpjs.entries()) {
      sb.setNow(at(k * 1000));
      const post = await call(sb, 'POST', '/requests', { search: { search_type: 'cnpj', search_key: key } });
      expect(post.status, JSON.stringify(post.body)).toBe(201);
    }
    sb.setNow(at(3_600_000));
  });
  afterAll(async () => sb.close());

  test('GET /responses: newest first by default; orderField/orderDirection honoured; order_by/order ignored', async () => {
    const first = (await call(sb, 'GET', '/requests?page_size=1')).body.page_data[0].request_id;
    const byDefault = (await call(sb, 'GET', `/responses?request_id=${first}&page_size=1000`)).body;
    expect(byDefault.page_data.length).toBeGreaterThan(10);
    expect(keys(byDefault)).toEqual([...keys(byDefault)].sort().reverse());
    const asc = (await call(sb, 'GET', `/responses?request_id=${first}&page_size=1000&orderField=created_at&orderDirection=asc`)).body;
    expect(ids(asc)).toEqual([...ids(byDefault)].reverse());
    // The spec dialect's names are not an error here, and not honoured either.
    const specNames = await call(sb, 'GET', `/responses?request_id=${first}&page_size=1000&order_by=created_at&order=asc`);
    expect(specNames.status).toBe(200);
    expect(ids(specNames.body)).toEqual(ids(byDefault));
    expect((await call(sb, 'GET', `/responses?request_id=${first}&colour=blue`)).status).toBe(200);
    // A value it does not know for a name it honours is still refused.
    expect((await call(sb, 'GET', `/responses?request_id=${first}&orderDirection=sideways`)).status).toBe(400);
  });

  test('GET /responses across requests: newest first, bounded by created_at_gte/lte, page_size clamped to 1000', async () => {
    const all = (await call(sb, 'GET', '/responses?page_size=1000')).body;
    const total = all.all_count;
    expect(total).toBeGreaterThan(1000);
    expect(all.page_count).toBe(1000);
    expect(keys(all)).toEqual([...keys(all)].sort().reverse());
    // 5,000 asked, 1,000 served: the same pages as page_size=1000, nothing said.
    const big = await call(sb, 'GET', '/responses?page_size=5000&page=2');
    expect(big.status).toBe(200);
    expect(big.body).toMatchObject({ page: '2', page_count: Math.min(1000, total - 1000), all_pages_count: Math.ceil(total / 1000), all_count: total });
    expect(ids(big.body)).toEqual(ids((await call(sb, 'GET', '/responses?page_size=1000&page=2')).body));
    // Bounds on the responses' own creation, inclusive.
    const times = all.page_data.map((x: any) => x.created_at).sort();
    const [lo, hi] = [times[100], times[400]];
    const bounded = (await call(sb, 'GET', `/responses?page_size=1000&created_at_gte=${lo}&created_at_lte=${hi}`)).body;
    expect(bounded.all_count).toBeGreaterThanOrEqual(301);
    expect(bounded.page_data.every((x: any) => x.created_at >= lo && x.created_at <= hi)).toBe(true);
    expect(bounded.all_count).toBe(times.filter((t: string) => t >= lo && t <= hi).length);
  });

  test('the flat envelope: "page" a string, the counts numbers, on every listing', async () => {
    for (const path of ['/responses?page_size=3', '/requests?page_size=3', '/tracking?page_size=3']) {
      const r = await call(sb, 'GET', path);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).filter((k) => k !== 'request_status')).toEqual(['page', 'page_count', 'all_pages_count', 'all_count', 'page_data']);
      expect(r.body.page).toBe('1');
      for (const k of ['page_count', 'all_pages_count', 'all_count']) expect(typeof r.body[k]).toBe('number');
    }
  });

  test('GET /requests: oldest first by default, orderDirection=desc newest first, order_by/order ignored', async () => {
    const byDefault = (await call(sb, 'GET', '/requests?page_size=100')).body;
    expect(byDefault.all_count).toBe(cnpjs.length);
    expect(byDefault.page_data.map((r: any) => r.search.search_key)).toEqual(cnpjs);
    expect(keys(byDefault)).toEqual([...keys(byDefault)].sort());
    const desc = (await call(sb, 'GET', '/requests?page_size=100&orderField=created_at&orderDirection=desc')).body;
    expect(ids(desc)).toEqual([...ids(byDefault)].reverse());
    const specNames = await call(sb, 'GET', '/requests?page_size=100&order_by=created_at&order=desc');
    expect(ids(specNames.body)).toEqual(ids(byDefault));
    const paged = (await call(sb, 'GET', '/requests?page_size=2&page=2')).body;
    expect(paged).toMatchObject({ page: '2', page_count: 2, all_pages_count: Math.ceil(cnpjs.length / 2), all_count: cnpjs.length });
    expect(ids(paged)).toEqual(ids(byDefault).slice(2, 4));
  });

  test('GET /tracking: sorted by orderDirection, oldest first by default', async () => {
    for (const key of cnpjs.slice(0, 3)) expect((await call(sb, 'POST', '/tracking', { recurrence: 7, search: { search_type: 'cnpj', search_key: key } })).status).toBe(200);
    const byDefault = (await call(sb, 'GET', '/tracking')).body;
    expect(byDefault.page_data.map((t: any) => t.search.search_key)).toEqual(cnpjs.slice(0, 3));
    const desc = (await call(sb, 'GET', '/tracking?orderDirection=desc')).body;
    expect(ids(desc)).toEqual([...ids(byDefault)].reverse());
  });
});
