// The documented dialect's error bodies, `{error: {name, message, data}}` named by HTTP status, `data` an array
// or (an unknown key) the string USER_NOT_FOUND; its rate headers, only X-RateLimit-Limit and -Remaining and
// only on successful answers, no Reset, and a 429 without Retry-After; and the `no_rate_headers` fault, an
// upstream that sends no rate header at all, in either dialect.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';

const RATE = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];
const rateOf = (h: Headers) => Object.fromEntries(RATE.filter((n) => h.has(n)).map((n) => [n, h.get(n)]));

describe('the documented dialect: errors and rate headers', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  test('every error is named by its status, keeps its message and reasons, and carries no rate header', async () => {
    sb = await sandbox({ dialect: 'documented', transfer: { catalogue: { count: 1, errorCount: 0, minBytes: 2000, maxBytes: 2000 } } });
    const doc = sb.sampleDocuments(10).find((d) => d.search_type === 'cnpj')!;
    const search = { search_type: 'cnpj', search_key: doc.search_key };
    const file = (await call(sb, 'GET', '/transfer-file')).body.page_data[0].transfer_file_id;
    expect((await call(sb, 'POST', '/tracking', { recurrence: 7, search })).status).toBe(200);
    const cases: Array<[number, string, Promise<{ status: number; headers: Headers; body: any }>]> = [
      [400, 'HttpBadRequestError', call(sb, 'GET', '/requests?page=0')],
      [400, 'HttpBadRequestError', call(sb, 'POST', '/requests', { search: { search_type: 'passport', search_key: 'x' } })],
      [401, 'HttpUnauthorizedError', call(sb, 'GET', '/requests', undefined, 'not-a-key')],
      [401, 'HttpUnauthorizedError', call(sb, 'GET', '/requests', undefined, null)],
      [403, 'HttpForbiddenError', call(sb, 'GET', '/requests', undefined, 'sandbox-noperm')],
      [404, 'HttpNotFoundError', call(sb, 'GET', '/requests/00000000-0000-0000-0000-000000000000')],
      [404, 'HttpNotFoundError', call(sb, 'GET', '/no-such-endpoint')],
      [409, 'HttpConflictError', call(sb, 'POST', '/tracking', { recurrence: 7, search })],
      [422, 'HttpUnprocessableEntityError', call(sb, 'POST', '/requests', { search: { search_type: 'lawsuit_cnj', search_key: '0001234-55.2023.8.26.0100' } })],
      [404, 'HttpNotFoundError', call(sb, 'GET', '/transfer-file/no-such-file')],
      [400, 'HttpBadRequestError', call(sb, 'PATCH', `/transfer-file/${file}`, { status: 'completed' })],
    ];
    for (const [status, name, pending] of cases) {
      const r = await pending;
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(Object.keys(r.body)).toEqual(['error']);
      expect(Object.keys(r.body.error)).toEqual(['name', 'message', 'data']);
      expect(r.body.error.name).toBe(name);
      expect(typeof r.body.error.message).toBe('string');
      if (status === 401) expect(r.body.error.data).toBe('USER_NOT_FOUND');
      else expect(Array.isArray(r.body.error.data)).toBe(true);
      expect(rateOf(r.headers), `${status} ${name}`).toEqual({});
    }
    const bad = await call(sb, 'GET', '/requests?page=0');
    expect(bad.body.error.data).toEqual(['page must be an integer >= 1']);
    const dup = await call(sb, 'POST', '/tracking', { recurrence: 7, search });
    expect(dup.body.error.data).toEqual([expect.any(String)]);
    // The spec's reading keeps its own bodies for the same calls.
    const spec = await sandbox({ dialect: 'spec' });
    const specBodies = [(await call(spec, 'GET', '/requests', undefined, 'not-a-key')).body, (await call(spec, 'GET', '/requests?page=0')).body];
    await spec.close();
    expect(specBodies[0]).toMatchObject({ error: 'Unauthorized', code: 'INVALID_API_KEY' });
    expect(specBodies[1].error.name).toBe('ValidationError');
  });

  test('a success carries X-RateLimit-Limit and -Remaining only; a 429 is named and carries no Retry-After', async () => {
    sb = await sandbox({ dialect: 'documented', rateLimit: 2 });
    const doc = sb.sampleDocuments(10).find((d) => d.search_type === 'cpf')!;
    const first = await call(sb, 'GET', '/requests');
    expect(rateOf(first.headers)).toEqual({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1' });
    // A 201 is a success too.
    const created = await call(sb, 'POST', '/requests', { search: { search_type: 'cpf', search_key: doc.search_key } });
    expect(created.status).toBe(201);
    expect(rateOf(created.headers)).toEqual({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0' });
    const refused = await call(sb, 'GET', '/requests');
    expect(refused.status).toBe(429);
    expect(refused.body.error.name).toBe('HttpTooManyRequestsError');
    expect(refused.body.error.data).toEqual(['RATE_LIMITED']);
    expect(refused.body.error.message).not.toMatch(/\d/);
    expect(rateOf(refused.headers)).toEqual({});
  });

  test('the no_rate_headers fault: no rate header at all, in either dialect, switched at run time', async () => {
    for (const dialect of ['documented', 'spec'] as const) {
      sb = await sandbox({ dialect, rateLimit: 3, faults: 'no_rate_headers=1' });
      const ok = await call(sb, 'GET', '/requests');
      expect(ok.status).toBe(200);
      expect(rateOf(ok.headers)).toEqual({});
      await call(sb, 'GET', '/requests');
      await call(sb, 'GET', '/requests');
      const refused = await call(sb, 'GET', '/requests');
      expect(refused.status).toBe(429);
      expect(rateOf(refused.headers)).toEqual({});
      // Off again: the dialect's own headers come back (the window is still full: a 429).
      expect((await call(sb, 'POST', '/_sandbox/faults', { spec: '' }, null)).status).toBe(200);
      const back = await call(sb, 'GET', '/requests');
      expect(back.status).toBe(429);
      expect(rateOf(back.headers)).toEqual(dialect === 'spec'
        ? { 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': expect.any(String), 'retry-after': expect.any(String) }
        : {});
      await sb.close();
      sb = undefined;
    }
  });

  test('the no_rate_headers fault at a rate below 1 spares some answers, the same ones for a seed', async () => {
    const pattern = async () => {
      const s = await sandbox({ dialect: 'documented', faults: 'no_rate_headers=0.5' });
      const seen: boolean[] = [];
      for (let k = 0; k < 40; k++) seen.push((await call(s, 'GET', '/requests')).headers.has('x-ratelimit-limit'));
      await s.close();
      return seen;
    };
    const a = await pattern();
    expect(a.filter(Boolean).length).toBeGreaterThan(5);
    expect(a.filter((x) => !x).length).toBeGreaterThan(5);
    expect(await pattern()).toEqual(a);
  });
});
