// /_sandbox/: counters by route pattern and status, truth, samples, clock and the full lawsuit; no key needed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, keyOf, runSearch, sandbox } from './helpers.js';

describe('introspection', () => {
  let sb: Sandbox;
  beforeAll(async () => { sb = await sandbox(); });
  afterAll(async () => sb.close());

  test('counters by endpoint label and status; reset', async () => {
    await call(sb, 'POST', '/_sandbox/counters/reset', undefined, null);
    const post = await call(sb, 'POST', '/requests', { search: { search_type: 'name', search_key: 'Ana Silva Santos' } });
    await call(sb, 'GET', `/requests/${post.body.request_id}`);
    await call(sb, 'GET', '/requests/nope');
    await call(sb, 'GET', '/responses', undefined, null);
    const c = await call(sb, 'GET', '/_sandbox/counters', undefined, null);
    expect(c.body).toEqual({
      total: 4,
      by_endpoint: { 'POST /requests': { 200: 1 }, 'GET /requests/:id': { 200: 1, 404: 1 }, 'GET /responses': { 401: 1 } },
    });
    expect(sb.counters().total).toBe(4);
    sb.resetCounters();
    expect(sb.counters()).toEqual({ total: 0, by_endpoint: {} });
  });

  test('truth equals what the asynchronous flow returns, honouring filters and on_demand', async () => {
    const samples = (await call(sb, 'GET', '/_sandbox/samples?n=30', undefined, null)).body.samples;
    const types = new Set(samples.map((s: any) => s.search_type));
    for (const t of ['cpf', 'cnpj', 'oab', 'name', 'lawsuit_cnj', 'lawsuit_id']) expect(types.has(t)).toBe(true);
    expect(samples.some((s: any) => s.label === 'homonyms')).toBe(true);
    for (const s of samples.slice(0, 12)) {
      const search = { search_type: s.search_type, search_key: s.search_key, on_demand: true, search_params: { filter: { amount_gte: 100 } } };
      const truth = await call(sb, 'POST', '/_sandbox/truth', { search }, null);
      const got = (await runSearch(sb, search)).items.filter((i) => i.response_type === 'lawsuit').map((i) => keyOf(i.response_data));
      expect(got.sort()).toEqual(truth.body.lawsuits.map(keyOf).sort());
      expect(truth.body.count).toBe(truth.body.lawsuits.length);
    }
    const found = samples.filter((s: any) => s.label !== 'finds nothing');
    for (const s of found) expect(sb.truth({ search_type: s.search_type, search_key: s.search_key }).length).toBeGreaterThan(0);
  });

  test('the full current lawsuit by code and instance; the clock can be set', async () => {
    const [s] = sb.sampleDocuments(30).filter((x) => x.search_type === 'lawsuit_cnj');
    const l = await call(sb, 'GET', `/_sandbox/lawsuit?code=${encodeURIComponent(s.search_key)}&instance=1`, undefined, null);
    expect(l.status === 200 || l.status === 404).toBe(true);
    const any = await call(sb, 'GET', `/_sandbox/lawsuit?code=${encodeURIComponent(s.search_key)}`, undefined, null);
    expect(any.status).toBe(200);
    expect(any.body.lawsuits[0].code).toBe(s.search_key);
    const set = await call(sb, 'POST', '/_sandbox/clock', { now: '2027-01-01T00:00:00Z' }, null);
    expect(Date.parse(set.body.now)).toBeGreaterThanOrEqual(Date.parse('2027-01-01T00:00:00Z'));
    expect((await call(sb, 'POST', '/_sandbox/clock', { bogus: 1 }, null)).status).toBe(400);
  });
});
