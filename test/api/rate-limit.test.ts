import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { KEY, closedAfterEach, json, requestObject, startStub, urlsOf } from './stub.js';

// End to end: the limiter inside the client, over undici, against a stub server with a real sliding window.
// The limiter's arithmetic and its scenarios (fixed windows, limits that change, headers that lie or are
// missing, 429s) are tested on a fake clock in rate-limit-*.test.ts; these check that it holds on a real clock.

const keep = closedAfterEach();

/**
 * The service's limit (REFERENCE.md: a sliding window per key, 429 past it with Retry-After), scaled down
 * to `limit` calls per `windowMs` so the test stays short. X-RateLimit-Reset is the epoch second (with a
 * fraction) at which the oldest call leaves the window (docs/dialect-and-spec-gaps.md, "Spec gaps").
 */
function slidingWindow(limit: number, windowMs: number, latencyMs: number) {
  const log: number[] = [];
  let open = 0;
  const stats = { ok: 0, limited: 0, concurrentAtArrival: [] as number[] };
  const handler = (_req: unknown, res: import('node:http').ServerResponse) => {
    const now = Date.now();
    while (log.length && log[0] <= now - windowMs) log.shift();
    open++;
    stats.concurrentAtArrival.push(open);
    const reply = (status: number, body: unknown, headers: Record<string, string>) => setTimeout(() => { open--; json(res, status, body, headers); }, latencyMs);
    if (log.length >= limit) {
      stats.limited++;
      const wait = log[0] + windowMs - now;
      return reply(429, { error: 'Too Many Requests', message: 'limit', code: 'RATE_LIMITED' }, {
        'retry-after': String(Math.ceil(wait / 1000)), 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String((log[0] + windowMs) / 1000),
      });
    }
    log.push(now);
    stats.ok++;
    reply(200, requestObject({ status: 'completed' }), {
      'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(limit - log.length), 'x-ratelimit-reset': String((log[0] + windowMs) / 1000),
    });
  };
  return { handler, stats };
}

describe('adaptive rate limiter', () => {
  it('runs a burst near the sliding-window limit with no 429, growing concurrency from 1 and learning the limit', async () => {
    const limit = 20;
    const windowMs = 500;
    const sw = slidingWindow(limit, windowMs, 8);
    const stub = keep(await startStub((req, res) => { sw.handler(req, res); }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 50 }));
    const n = 100;
    const t0 = Date.now();
    await Promise.all(Array.from({ length: n }, (_, i) => api.requests.get(`r${i}`)));
    const seconds = (Date.now() - t0) / 1000;
    const achieved = n / seconds;
    const allowed = limit / (windowMs / 1000);
    // eslint-disable-next-line no-console
    console.log(`limiter: ${n} calls in ${seconds.toFixed(2)} s = ${achieved.toFixed(1)}/s against ${allowed}/s; 429s: ${sw.stats.limited}; peak concurrency ${api.limiter.snapshot().peakConcurrency}`);
    expect(sw.stats.limited).toBe(0);
    expect(sw.stats.ok).toBe(n);
    expect(achieved / allowed).toBeGreaterThanOrEqual(0.8);
    // Concurrency starts at 1: the second call waits for the first answer.
    expect(sw.stats.concurrentAtArrival.slice(0, 2)).toEqual([1, 1]);
    expect(Math.max(...sw.stats.concurrentAtArrival)).toBeGreaterThan(2);
    expect(api.limiter.snapshot().limit).toBe(limit);
  });

  it('keeps under a configured ceiling below the service limit', async () => {
    const sw = slidingWindow(40, 400, 2);
    // The stub would allow 40 per window; the configured ceiling is 10, so 30 calls need three windows.
    const stub = keep(await startStub((req, res) => { sw.handler(req, res); }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), rateLimit: 10 }));
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 30 }, (_, i) => api.requests.get(`r${i}`)));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(750);
    expect(sw.stats.limited).toBe(0);
    expect(api.limiter.snapshot().limit).toBe(10);
  });

  it('recovers from an unexpected 429 by pausing for Retry-After and halving concurrency', async () => {
    let n = 0;
    const stub = keep(await startStub((_req, res) => {
      n++;
      // Someone else used the key: a 429 the headers did not predict.
      if (n === 3) return json(res, 429, { code: 'RATE_LIMITED' }, { 'retry-after': '1' });
      json(res, 200, requestObject(), { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '90', 'x-ratelimit-reset': '0.5' });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10 }));
    await Promise.all(Array.from({ length: 6 }, (_, i) => api.requests.get(`r${i}`)));
    expect(api.limiter.snapshot().rateLimited).toBe(1);
    expect(api.stats().byStatus['429']).toBe(1);
    expect(api.stats().byStatus['200']).toBe(6);
  });
});
