import { describe, expect, it } from 'vitest';
import { errorOfAnswer, hintsOf, isSuccess, rateFigures, resultOfAnswer, type Answer } from '../../src/api/answer.js';
import type { CallSpec } from '../../src/api/call-spec.js';
import { narrowClock } from '../../src/api/provider-clock.js';
import { ShapeError } from '../../src/api/validate.js';

// What an answer means is a pure function of the answer and the call: no socket, no clock, no memory.

const redact = (s: string) => s.split('k3y').join('[redacted]');
const spec = (over: Partial<CallSpec<unknown>> = {}): CallSpec<unknown> => ({
  base: 'requests', method: 'GET', path: '/requests/1', route: 'GET /requests/:id',
  parse: (b) => { if (typeof b !== 'object' || b === null || !('request_id' in b)) throw new ShapeError('request.request_id is missing'); return b; },
  ...over,
});
const answer = (status: number, text: string, headers: Answer['headers'] = {}): Answer => ({ status, text, headers });

describe('an answer, classified', () => {
  it('maps each status to its typed error, the provider\'s words redacted and the rate headers kept for the backoff', () => {
    const rows: Array<[number, string, string]> = [
      [401, '{"code":"INVALID_API_KEY","message":"bad key k3y"}', 'API_UNAUTHORIZED'],
      [403, '{}', 'API_FORBIDDEN'],
      [429, '', 'API_RATE_LIMITED'],
      [503, '<html>', 'API_SERVER'],
      [400, '{"error":{"name":"ValidationError","data":["bad k3y digit"]}}', 'API_VALIDATION'],
      [404, '{}', 'API_NOT_FOUND'],
      [409, '{}', 'API_CONFLICT'],
      [418, '{}', 'API_HTTP'],
    ];
    for (const [status, text, code] of rows) {
      const e = errorOfAnswer(spec(), answer(status, text, { 'retry-after': '3', 'x-ratelimit-remaining': '0' }), redact);
      expect(e.code, String(status)).toBe(code);
      expect(e.statusCode).toBe(status);
      expect(e.message).not.toContain('k3y');
      expect(e.hints).toEqual({ retryAfter: '3', rateLimitRemaining: '0', rateLimitReset: undefined });
    }
    expect(errorOfAnswer(spec(), answer(400, '{"error":{"data":["bad k3y digit"]}}'), redact).reasons).toEqual(['bad [redacted] digit']);
  });

  it('reads a success with the call\'s parser, and a body of the wrong shape or not JSON as API_BAD_RESPONSE', () => {
    expect(resultOfAnswer(spec(), answer(200, '{"request_id":"r1"}', { 'x-a': ['1', '2'] }), redact)).toEqual({ status: 200, body: { request_id: 'r1' }, headers: { 'x-a': '1, 2' } });
    expect(() => resultOfAnswer(spec(), answer(200, '{"status":"x"}'), redact)).toThrow(/request_id/);
    expect(() => resultOfAnswer(spec(), answer(200, '<html>'), redact)).toThrow(/not JSON/);
    const byText = spec({ parseText: (t) => JSON.parse(t) as unknown });
    expect(() => resultOfAnswer(byText, answer(200, '<html>'), redact)).toThrow(/not JSON/);
    expect(isSuccess(spec(), 201)).toBe(true);
    expect(isSuccess(spec(), 202)).toBe(false);
    expect(isSuccess(spec({ ok: [202] }), 202)).toBe(true);
  });

  it('reads the rate figures and the backoff hints from the headers', () => {
    expect(rateFigures({ 'x-ratelimit-limit': '180', 'x-ratelimit-remaining': ['7'] })).toEqual({ limit: 180, remaining: 7 });
    expect(rateFigures({ 'x-ratelimit-limit': 'many' })).toEqual({ limit: undefined, remaining: undefined });
    expect(hintsOf({ 'x-ratelimit-reset': '1700000000' })).toEqual({ retryAfter: undefined, rateLimitReset: '1700000000', rateLimitRemaining: undefined });
  });
});

describe('the provider\'s clock', () => {
  it('narrows the offset with each Date header, and starts again when the provider\'s clock jumps', () => {
    const at = Date.parse('2025-01-01T00:00:10Z');
    // sent 10:00.200 ours, answered 10:00.400 ours; the provider said 00:00:10 (whole seconds)
    let c = narrowClock(undefined, new Date(at).toUTCString(), at + 200, at + 400);
    expect(c).toEqual({ low: -400, high: 800 });
    c = narrowClock(c, new Date(at + 1000).toUTCString(), at + 1100, at + 1150);
    expect(c).toEqual({ low: -150, high: 800 });
    expect(narrowClock(c, 'not a date', 0, 0)).toBe(c);
    expect(narrowClock(c, new Date(at + 86_400_000).toUTCString(), at, at)).toEqual({ low: 86_400_000, high: 86_401_000 });
  });
});
