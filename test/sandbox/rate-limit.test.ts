// Sliding-window rate limit per key: headers on every response, 429 with Retry-After past the limit,
// refused calls do not consume the budget, the window slides.
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';

describe('rate limit', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { vi.useRealTimers(); await sb?.close(); sb = undefined; });

  test('the real provider\'s default: 180 per minute', async () => {
    sb = await sandbox({ rateLimit: undefined });
    const r = await call(sb, 'GET', '/requests');
    expect(r.headers.get('x-ratelimit-limit')).toBe('180');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('179');
    const reset = Number(r.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 59);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61);
  });

  test('past the limit: 429 with Retry-After and the RATE_LIMITED body; refused calls do not consume; the window slides', async () => {
    // the window is wall-clock time: Date alone is faked, and moved past the window instead of waiting it out
    vi.useFakeTimers({ toFake: ['Date'] });
    sb = await sandbox({ rateLimit: 3, rateWindowMs: 4000 });
    const remaining: string[] = [];
    for (let k = 0; k < 3; k++) remaining.push((await call(sb, 'GET', '/requests')).headers.get('x-ratelimit-remaining')!);
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await call(sb, 'GET', '/requests');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Too Many Requests', message: expect.any(String), code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another key has its own budget.
    const other = await call(sb, 'GET', '/requests', undefined, 'sandbox-noperm');
    expect(other.status).toBe(403);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
    vi.advanceTimersByTime(3900);
    expect((await call(sb, 'GET', '/requests')).status, 'still inside the window').toBe(429);
    vi.advanceTimersByTime(200);
    const again = await call(sb, 'GET', '/requests');
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('2');
    const counts = sb.counters().by_endpoint['GET /requests'];
    expect(counts['429']).toBe(2);
    expect(counts['200']).toBe(4);
  });

  test('introspection routes are exempt', async () => {
    sb = await sandbox({ rateLimit: 1 });
    await call(sb, 'GET', '/requests');
    for (let k = 0; k < 5; k++) expect((await call(sb, 'GET', '/_sandbox/counters', undefined, null)).status).toBe(200);
    expect((await call(sb, 'GET', '/requests')).status).toBe(429);
  });
});
