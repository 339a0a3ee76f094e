import { afterEach, describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { AdaptiveLimiter } from '../../src/api/rate-limit.js';
import { KEY, json, requestObject, startStub, urlsOf, type Stub } from './stub.js';

let stub: Stub | undefined;
let api: LawsuitApi | undefined;
afterEach(async () => {
  await api?.close();
  await stub?.close();
  api = stub = undefined;
});

/**
 * The service's limit (REFERENCE.md: a sliding window per key, 429 past it with Retry-After), scaled down
 * to `limit` calls per `windowMs` so the test stays short. X-RateLimit-Reset is the epoch second (with a
 * fraction) at which the oldest call leaves the window (README, "Spec gaps").
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
    stub = await startStub((req, res) => { sw.handler(req, res); });
    api = new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 50 });
    const n = 100;
    const t0 = Date.now();
    await Promise.all(Array.from({ length: n }, (_, i) => api!.requests.get(`r${i}`)));
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
    stub = await startStub((req, res) => { sw.handler(req, res); });
    api = new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), rateLimit: 10 });
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 30 }, (_, i) => api!.requests.get(`r${i}`)));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(750);
    expect(sw.stats.limited).toBe(0);
    expect(api.limiter.snapshot().limit).toBe(10);
  });

  it('recovers from an unexpected 429 by pausing for Retry-After and halving concurrency', async () => {
    let n = 0;
    stub = await startStub((_req, res) => {
      n++;
      // Someone else used the key: a 429 the headers did not predict.
      if (n === 3) return json(res, 429, { code: 'RATE_LIMITED' }, { 'retry-after': '1' });
      json(res, 200, requestObject(), { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '90', 'x-ratelimit-reset': '0.5' });
    });
    api = new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => api!.requests.get(`r${i}`)));
    expect(api.limiter.snapshot().rateLimited).toBe(1);
    expect(api.stats().byStatus['429']).toBe(1);
    expect(api.stats().byStatus['200']).toBe(6);
  });
});

/**
 * The same sliding window, but X-RateLimit-Reset in whole epoch seconds as the sandbox sends it: rounded up
 * (`ceil`, the header's meaning: a slot has freed by then) or, as a service might, rounded down (`floor`).
 */
function wholeSecondWindow(limit: number, windowMs: number, rounding: 'ceil' | 'floor') {
  const log: number[] = [];
  const stats = { ok: 0, limited: 0, first: Infinity, last: 0 };
  const round = rounding === 'ceil' ? Math.ceil : Math.floor;
  const handler = (_req: unknown, res: import('node:http').ServerResponse) => {
    const now = Date.now();
    stats.first = Math.min(stats.first, now);
    while (log.length && log[0] <= now - windowMs) log.shift();
    const allowed = log.length < limit;
    if (allowed) log.push(now);
    const frees = (log[0] ?? now) + windowMs;
    const headers = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(limit - log.length), 'x-ratelimit-reset': String(round(frees / 1000)) };
    setTimeout(() => {
      stats.last = Math.max(stats.last, Date.now());
      if (!allowed) {
        stats.limited++;
        return json(res, 429, { error: 'Too Many Requests', message: 'limit', code: 'RATE_LIMITED' }, { ...headers, 'retry-after': String(Math.max(1, Math.ceil((frees - now) / 1000))) });
      }
      stats.ok++;
      json(res, 200, requestObject({ status: 'completed' }), headers);
    }, 2);
  };
  return { handler, stats };
}

/** Counted times t[k] of a sliding window obey t[k+L] >= t[k] + W, so C calls span at least floor((C-1)/L) windows. */
const leastSpanMs = (calls: number, limit: number, windowMs: number) => Math.floor((calls - 1) / limit) * windowMs;

describe('adaptive rate limiter against whole-second resets', () => {
  it('mirrors its own calls one window later: near the least possible time, no 429, window learned', async () => {
    const limit = 20;
    const windowMs = 2000;
    const n = 80;
    const sw = wholeSecondWindow(limit, windowMs, 'ceil');
    stub = await startStub((req, res) => { sw.handler(req, res); });
    api = new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 50, maxConcurrency: 32 });
    const t0 = Date.now();
    await Promise.all(Array.from({ length: n }, (_, i) => api!.requests.get(`r${i}`)));
    const ms = Date.now() - t0;
    const rateUse = leastSpanMs(n, limit, windowMs) / ms;
    // eslint-disable-next-line no-console
    console.log(`whole-second reset: ${n} calls in ${ms} ms, rate_use ${rateUse.toFixed(3)}, 429s ${sw.stats.limited}, window ${api.limiter.snapshot().windowMs} ms`);
    expect(sw.stats.limited).toBe(0);
    expect(sw.stats.ok).toBe(n);
    expect(rateUse).toBeGreaterThanOrEqual(0.85);
    // The window was learned from the answers, not configured: within a few answer latencies above the truth.
    expect(api.limiter.snapshot().windowMs).toBeGreaterThanOrEqual(windowMs);
    expect(api.limiter.snapshot().windowMs).toBeLessThan(windowMs + 300);
  });

  it('stays correct when the service rounds the reset down: at most one 429, every call answered', async () => {
    const limit = 20;
    const windowMs = 2000;
    const n = 60;
    const sw = wholeSecondWindow(limit, windowMs, 'floor');
    stub = await startStub((req, res) => { sw.handler(req, res); });
    api = new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 50, maxConcurrency: 32 });
    const t0 = Date.now();
    await Promise.all(Array.from({ length: n }, (_, i) => api!.requests.get(`r${i}`)));
    const ms = Date.now() - t0;
    expect(sw.stats.ok).toBe(n);
    expect(sw.stats.limited).toBeLessThanOrEqual(1);
    expect(leastSpanMs(n, limit, windowMs) / ms).toBeGreaterThanOrEqual(0.6);
  });
});

describe('limiter pauses and priorities', () => {
  it('a shorter pause never cuts a longer one short', async () => {
    const l = new AdaptiveLimiter();
    const t0 = Date.now();
    l.pauseUntil(t0 + 400);
    l.pauseUntil(t0 + 100);
    const started = await l.schedule(async () => Date.now());
    expect(started - t0).toBeGreaterThanOrEqual(390);
    l.close();
  });

  it('a longer pause extends a shorter one', async () => {
    const l = new AdaptiveLimiter();
    const t0 = Date.now();
    l.pauseUntil(t0 + 100);
    l.pauseUntil(t0 + 300);
    const started = await l.schedule(async () => Date.now());
    expect(started - t0).toBeGreaterThanOrEqual(290);
    l.close();
  });

  it('pauses until the reset when the budget is spent, counting calls in flight', async () => {
    const l = new AdaptiveLimiter({ maxConcurrency: 8 });
    const now = Date.now();
    const headers = { 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': String((now + 300) / 1000) };
    // First answer: two left in the window.
    await l.schedule(async (report) => report({ status: 200, headers, latencyMs: 1 }));
    const starts: number[] = [];
    await Promise.all([0, 1, 2].map(() => l.schedule(async () => { starts.push(Date.now()); await new Promise((r) => setTimeout(r, 20)); })));
    // Two go at once; the third waits for the reset.
    expect(starts[1] - now).toBeLessThan(200);
    expect(starts[2] - now).toBeGreaterThanOrEqual(290);
    l.close();
  });

  it('runs higher priority first when calls wait', async () => {
    const l = new AdaptiveLimiter({ maxConcurrency: 1 });
    l.pauseUntil(Date.now() + 50);
    const order: string[] = [];
    await Promise.all([
      l.schedule(async () => { order.push('poll'); }),
      l.schedule(async () => { order.push('poll'); }),
      l.schedule(async () => { order.push('submit'); }, { priority: 1 }),
    ]);
    expect(order[0]).toBe('submit');
    l.close();
  });
});

describe('limiter close', () => {
  it('rejects calls still waiting with API_CLOSED instead of leaving them pending', async () => {
    const l = new AdaptiveLimiter({ maxConcurrency: 1 });
    l.pauseUntil(Date.now() + 10_000);
    const waiting = l.schedule(async () => 'ran');
    l.close();
    await expect(waiting).rejects.toMatchObject({ code: 'API_CLOSED' });
  });
});
