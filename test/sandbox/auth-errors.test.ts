// api-key authentication: the spec's exact 401 and 403 bodies, with the rate-limit headers on them too.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';

describe('authentication', () => {
  let sb: Sandbox;
  beforeAll(async () => { sb = await sandbox({ apiKeys: ['k1', 'k2'], noPermissionKeys: ['np'], overQuotaKeys: ['oq'] }); });
  afterAll(async () => sb.close());

  const expectRateHeaders = (h: Headers) => {
    for (const n of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(Number(h.get(n))).toBeGreaterThanOrEqual(0);
  };

  test('missing and invalid keys: 401 INVALID_API_KEY', async () => {
    for (const key of [null, 'nope', '']) {
      const r = await call(sb, 'GET', '/requests?page=1&page_size=1', undefined, key);
      expect(r.status).toBe(401);
      expect(Object.keys(r.body).sort()).toEqual(['code', 'error', 'message']);
      expect(r.body.error).toBe('Unauthorized');
      expect(r.body.code).toBe('INVALID_API_KEY');
      expect(typeof r.body.message).toBe('string');
      expectRateHeaders(r.headers);
    }
  });

  test('a key without permission and a key over its quota: 403 INSUFFICIENT_PERMISSIONS', async () => {
    const np = await call(sb, 'POST', '/requests', { search: { search_type: 'name', search_key: 'Ana Silva Santos' } }, 'np');
    expect(np.status).toBe(403);
    expect(np.body).toEqual({ error: 'Forbidden', message: expect.any(String), code: 'INSUFFICIENT_PERMISSIONS' });
    const oq = await call(sb, 'GET', '/requests?page=1&page_size=1', undefined, 'oq');
    expect(oq.status).toBe(403);
    expect(oq.body.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(oq.body.message).toMatch(/limit exceeded/i);
    expectRateHeaders(oq.headers);
  });

  test('a valid key passes the key-validity test (page=1, page_size=1), and each user sees only its own requests', async () => {
    const ok = await call(sb, 'GET', '/requests?page=1&page_size=1', undefined, 'k1');
    expect(ok.status).toBe(200);
    const post = await call(sb, 'POST', '/requests', { search: { search_type: 'name', search_key: 'Ana Silva Santos' } }, 'k1');
    expect(post.status).toBe(200);
    expect((await call(sb, 'GET', `/requests/${post.body.request_id}`, undefined, 'k2')).status).toBe(404);
    expect((await call(sb, 'GET', `/requests/${post.body.request_id}`, undefined, 'k1')).status).toBe(200);
  });
});
