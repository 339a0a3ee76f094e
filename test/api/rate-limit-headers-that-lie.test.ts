import { describe, expect, it } from 'vitest';
import { readRateHeaders } from '../../src/api/rate-limit/rate-headers.js';

// The rate-limit headers of one answer are read once, and a value that cannot be true is dropped there.

const now = Date.parse('2026-01-01T00:00:00Z');
const epoch = (ms: number) => String(ms / 1000);
const read = (h: Record<string, string | string[] | undefined> | undefined) => readRateHeaders(h, now, { maxResetAheadMs: 300_000 });

describe('readRateHeaders: honest headers', () => {
  it('reads Limit, Remaining, an epoch Reset with a fraction, and Retry-After', () => {
    expect(read({ 'x-ratelimit-limit': '180', 'x-ratelimit-remaining': '17', 'x-ratelimit-reset': epoch(now + 2500), 'retry-after': '3' }))
      .toEqual({ limit: 180, remaining: 17, resetAt: now + 2500, resetWholeSecond: false, retryAfterMs: 3000, namesTime: true });
  });

  it('marks a whole-second Reset, which may have been rounded, and reads a small one as delta seconds', () => {
    expect(read({ 'x-ratelimit-reset': epoch(now + 7000) })).toMatchObject({ resetAt: now + 7000, resetWholeSecond: true });
    expect(read({ 'x-ratelimit-reset': '7' })).toMatchObject({ resetAt: now + 7000, resetWholeSecond: true });
    expect(read({ 'x-ratelimit-reset': '1.5' })).toMatchObject({ resetAt: now + 1500, resetWholeSecond: false });
  });

  it('takes the first of repeated headers, and Retry-After as an HTTP date', () => {
    expect(read({ 'x-ratelimit-limit': ['60', '30'], 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' })).toMatchObject({ limit: 60, retryAfterMs: 10_000 });
  });

  it('accepts Remaining 0 and Remaining equal to Limit', () => {
    expect(read({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' })).toMatchObject({ limit: 60, remaining: 0 });
    expect(read({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '60' })).toMatchObject({ limit: 60, remaining: 60 });
  });
});

describe('readRateHeaders: headers that are missing or lie', () => {
  it('no headers at all, or none of the rate limit: nothing known', () => {
    expect(read(undefined)).toEqual({ resetWholeSecond: false });
    expect(read({ 'content-type': 'application/json' })).toEqual({ resetWholeSecond: false });
    expect(read({ 'x-ratelimit-limit': '', 'x-ratelimit-remaining': ' ', 'x-ratelimit-reset': '' })).toEqual({ resetWholeSecond: false });
  });

  it('non-numeric values are dropped one by one, the others kept', () => {
    expect(read({ 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': 'soon', 'retry-after': 'later' }))
      .toEqual({ remaining: 5, resetWholeSecond: false, namesTime: true });
  });

  it('a count must be a plain non-negative integer: signs, fractions, exponents, hex and huge values are dropped', () => {
    for (const v of ['-5', '20.5', '2e1', '0x10', 'NaN', 'Infinity', '99999999999999999999', '12abc']) {
      expect(read({ 'x-ratelimit-limit': v, 'x-ratelimit-remaining': v }), v).toEqual({ resetWholeSecond: false });
    }
    expect(read({ 'x-ratelimit-limit': ' 60 ' }).limit).toBe(60);
  });

  it('a Limit of 0 is dropped: a window of no calls cannot be divided', () => {
    expect(read({ 'x-ratelimit-limit': '0', 'x-ratelimit-remaining': '0' })).toEqual({ remaining: 0, resetWholeSecond: false });
  });

  it('Remaining larger than Limit drops both: which one lies is unknown', () => {
    expect(read({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '160', 'x-ratelimit-reset': epoch(now + 1000) }))
      .toEqual({ resetAt: now + 1000, resetWholeSecond: true, namesTime: true });
  });

  it('a Reset in the past is kept: it says a slot has freed already', () => {
    expect(read({ 'x-ratelimit-reset': epoch(now - 3_600_000) })).toMatchObject({ resetAt: now - 3_600_000 });
  });

  it('a Reset further ahead than the longest pause is not believed, as epoch or as delta seconds', () => {
    expect(read({ 'x-ratelimit-reset': epoch(now + 300_000) }).resetAt).toBe(now + 300_000);
    expect(read({ 'x-ratelimit-reset': epoch(now + 301_000) })).toEqual({ resetWholeSecond: false, namesTime: true });
    expect(read({ 'x-ratelimit-reset': '86400' })).toEqual({ resetWholeSecond: false, namesTime: true });
    expect(readRateHeaders({ 'x-ratelimit-reset': '86400' }, now, { maxResetAheadMs: 86_400_000 }).resetAt).toBe(now + 86_400_000);
  });

  it('a Reset or Retry-After header, even one dropped, says the service names when a slot frees; Limit and Remaining alone do not', () => {
    expect(read({ 'retry-after': 'later' }).namesTime).toBe(true);
    expect(read({ 'x-ratelimit-reset': 'soon' }).namesTime).toBe(true);
    expect(read({ 'x-ratelimit-limit': '180', 'x-ratelimit-remaining': '17' }).namesTime).toBeUndefined();
    expect(read({ 'x-ratelimit-reset': ' ', 'retry-after': '' }).namesTime).toBeUndefined();
  });

  it('a negative Reset is dropped', () => {
    expect(read({ 'x-ratelimit-reset': '-5' })).toEqual({ resetWholeSecond: false, namesTime: true });
  });
});
