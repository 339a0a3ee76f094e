import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { parseResetAt, parseRetryAfter, retryDelay } from '../../src/api/backoff.js';
import { KEY, closedAfterEach, json, requestObject, startStub, urlsOf } from './stub.js';

const keep = closedAfterEach();

describe('backoff (pure)', () => {
  it('draws full jitter inside an exponential window that is capped', () => {
    const draws = [0, 0.25, 0.5, 0.999];
    const at = (attempt: number) => draws.map((r) => retryDelay(attempt, {}, { baseDelayMs: 100, maxDelayMs: 1000 }, 0, () => r).ms);
    expect(at(0)).toEqual([0, 25, 50, 100]);
    expect(at(2)).toEqual([0, 100, 200, 400]);
    expect(Math.max(...at(10))).toBeLessThanOrEqual(1000);
  });

  it('takes Retry-After as a floor and spreads the retries above it', () => {
    const seen = new Set<number>();
    let seed = 1;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let i = 0; i < 50; i++) {
      const d = retryDelay(0, { retryAfter: '1' }, { baseDelayMs: 500 }, 0, random);
      expect(d.ms).toBeGreaterThanOrEqual(1000);
      expect(d.ms).toBeLessThan(1500);
      seen.add(d.ms);
    }
    expect(seen.size).toBeGreaterThan(20);
  });

  it('reads Retry-After as seconds or an HTTP date, and X-RateLimit-Reset as epoch or delta seconds', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseResetAt(String(now / 1000 + 7), now)).toBe(now + 7000);
    expect(parseResetAt('7', now)).toBe(now + 7000);
    expect(parseResetAt('1.5', now)).toBe(now + 1500);
  });

  it('waits for X-RateLimit-Reset when nothing remains and no Retry-After is given; Retry-After wins when it is', () => {
    const now = 1_700_000_000_000;
    const reset = String(now / 1000 + 4);
    expect(retryDelay(0, { rateLimitReset: reset, rateLimitRemaining: '0' }, {}, now, () => 0).ms).toBe(4000);
    expect(retryDelay(0, { rateLimitReset: reset, rateLimitRemaining: '5' }, {}, now, () => 0).ms).toBe(0);
    expect(retryDelay(0, { retryAfter: '9', rateLimitReset: reset, rateLimitRemaining: '0' }, {}, now, () => 0).ms).toBe(9000);
    // Retry-After answers for this call: a shorter one than the reset wins too (issue: 61 s waited for a 5 s Retry-After)
    expect(retryDelay(0, { retryAfter: '1', rateLimitReset: reset, rateLimitRemaining: '0' }, {}, now, () => 0).ms).toBe(1000);
  });

  it('gives up rather than shorten a wait longer than maxWaitMs', () => {
    const d = retryDelay(0, { retryAfter: '3600' }, { maxWaitMs: 60_000 }, 0, () => 0.5);
    expect(d.giveUp).toBe(true);
    expect(retryDelay(0, { retryAfter: '30' }, { maxWaitMs: 60_000 }, 0, () => 0.5).giveUp).toBe(false);
  });
});

describe('retries against the service', () => {
  it('waits at least Retry-After after a 429, then succeeds', async () => {
    const times: number[] = [];
    const stub = keep(await startStub((_req, res) => {
      times.push(Date.now());
      // docs/dialect-and-spec-gaps.md, "Spec gaps": 429 {code: RATE_LIMITED} with Retry-After in whole seconds.
      if (times.length === 1) return json(res, 429, { error: 'Too Many Requests', message: 'slow down', code: 'RATE_LIMITED' }, { 'retry-after': '1' });
      json(res, 200, requestObject({ status: 'completed' }));
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 50 }));
    const r = await api.requests.get('r1');
    expect(r.status).toBe('completed');
    expect(times.length).toBe(2);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(1000);
    expect(api.stats().retries).toBe(1);
    expect(api.stats().byStatus).toEqual({ '429': 1, '200': 1 });
  });

  it('retries 5xx with backoff until success', async () => {
    let n = 0;
    const stub = keep(await startStub((_req, res) => {
      // Spec "Errors": other statuses not shown; a 502/503/500 from a gateway is transient.
      n++;
      if (n <= 3) return json(res, [502, 503, 500][n - 1], { error: 'unavailable' });
      json(res, 200, { total: 42 });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10, maxDelayMs: 50 }));
    const r = await api.lawsuits.count({ search: { search_type: 'cnpj', search_key: '12ABC34501DE35' } });
    expect(r.total).toBe(42);
    expect(n).toBe(4);
    expect(api.stats().retries).toBe(3);
    expect(api.stats().byRoute['POST /requests/count']).toBe(4);
  });

  it('gives up after the configured retries with a transient API_SERVER error', async () => {
    const stub = keep(await startStub((_req, res) => json(res, 500, { error: 'boom' })));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 5, maxDelayMs: 10, retries: 2 }));
    const e = await api.requests.get('r1').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('API_SERVER');
    expect((e as ApiError).transient).toBe(true);
    expect((e as ApiError).attempts).toBe(3);
    expect(stub.calls.length).toBe(3);
  });
});
