// Fault switches: each misbehaviour happens as specified and never corrupts the sandbox's own state.
import { afterEach, describe, expect, test } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox, waitFinished } from './helpers.js';

const SEARCH = { search: { search_type: 'name', search_key: 'Ana Silva Santos' } };

describe('faults', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });
  const listed = async (s: Sandbox) => { s.setFaults(''); return (await call(s, 'GET', '/requests?page_size=100')).body.meta.all_count as number; };

  test('the spec string parses into settings; bad parts are all reported', () => {
    expect(parseFaults('5xx=0.05,reset=0.02,slow=0.05:1500,truncate=0.02,storm=0.01,pending_long=0.1:9000,cancel=0.05,post_after_store=0.5,reset_after=0.1')).toEqual({
      error5xx: 0.05, reset: 0.02, slow: 0.05, slowMs: 1500, truncate: 0.02, storm: 0.01, pendingLong: 0.1, pendingLongMs: 9000, cancel: 0.05, postAfterStore: 0.5, resetAfter: 0.1,
    });
    expect(parseFaults('stale_listing=0.5,ignore_filters=1,foreign=0.5:2000')).toEqual({ staleListing: 0.5, ignoreFilters: 1, foreign: 0.5, foreignMs: 2000 });
    expect(() => parseFaults('boom=1,5xx=2,foreign=1:0')).toThrow(/boom.*5xx.*foreign/s);
  });

  test('5xx before processing: the request is not stored', async () => {
    sb = await sandbox({ faults: '5xx=1' });
    const r = await call(sb, 'POST', '/requests', SEARCH);
    expect([500, 502, 503]).toContain(r.status);
    expect(r.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(await listed(sb)).toBe(0);
  });

  test('post_after_store: answered 500 but the request exists', async () => {
    sb = await sandbox({ faults: 'post_after_store=1' });
    const r = await call(sb, 'POST', '/requests', SEARCH);
    expect(r.status).toBe(500);
    expect(await listed(sb)).toBe(1);
  });

  test('reset before processing loses the call; reset_after keeps its effect', async () => {
    sb = await sandbox({ faults: 'reset=1' });
    await expect(call(sb, 'POST', '/requests', SEARCH)).rejects.toThrow();
    expect(await listed(sb)).toBe(0);
    sb.setFaults('reset_after=1');
    await expect(call(sb, 'POST', '/requests', SEARCH)).rejects.toThrow();
    expect(await listed(sb)).toBe(1);
  });

  test('truncate: the body is cut short of its announced length', async () => {
    sb = await sandbox({ faults: 'truncate=1' });
    await expect(call(sb, 'GET', '/requests')).rejects.toThrow();
    expect(sb.counters().by_endpoint['GET /requests']['200-truncated']).toBe(1);
  });

  test('slow: the answer is held back', async () => {
    sb = await sandbox({ faults: 'slow=1:400' });
    const t0 = Date.now();
    expect((await call(sb, 'GET', '/requests')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(380);
  });

  test('storm: every call is refused with 429 for a while, whatever the budget', async () => {
    sb = await sandbox({ faults: 'storm=1:5000' });
    for (let k = 0; k < 3; k++) {
      const r = await call(sb, 'GET', '/requests');
      expect(r.status).toBe(429);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(5);
    }
    sb.setFaults({ storm: 0 });
    expect((await call(sb, 'GET', '/requests')).status).toBe(200);
  });

  test('cancel: requests end cancelled; pending_long: requests stay pending', async () => {
    sb = await sandbox({ faults: 'cancel=1' });
    const c = await call(sb, 'POST', '/requests', SEARCH);
    expect(c.body.status).toBe('pending');
    expect(await waitFinished(sb, c.body.request_id)).toBe('cancelled');
    sb.setFaults('pending_long=1:600000');
    const p = await call(sb, 'POST', '/requests', SEARCH);
    expect((await call(sb, 'GET', `/requests/${p.body.request_id}`)).body.status).toBe('pending');
    sb.advanceDays(1);
    expect((await call(sb, 'GET', `/requests/${p.body.request_id}`)).body.status).toBe('completed');
  });

  test('fault draws are deterministic for a seed, and switchable per test through /_sandbox/faults', async () => {
    const run = async () => {
      const s = await sandbox({ seed: 11 });
      const set = await fetch(`${s.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: '5xx=0.4' }) });
      expect(set.status).toBe(200);
      const statuses: number[] = [];
      for (let k = 0; k < 20; k++) statuses.push((await call(s, 'GET', '/requests')).status);
      await s.close();
      return statuses;
    };
    const a = await run();
    expect(a.filter((x) => x !== 200).length).toBeGreaterThan(2);
    expect(a.filter((x) => x === 200).length).toBeGreaterThan(2);
    expect(await run()).toEqual(a);
  });
});

