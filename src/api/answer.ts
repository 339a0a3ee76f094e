import type { RetryHints } from './backoff.js';
import type { CallResult, CallSpec } from './call-spec.js';
import type { RateFigures } from './call-stats.js';
import { badResponse, errorForStatus, type ApiError } from './errors.js';
import type { RawHeaders } from './transport.js';
import { ShapeError } from './validate.js';

// What an answer means, pure: a success read into the call's typed result, or the typed error its status
// stands for. No I/O and no memory of earlier answers (the refusal gate remembers; the policy decides).

/** An answer read whole, as the classification needs it. */
export interface Answer {
  status: number;
  headers: RawHeaders;
  text: string;
  /** The answer's Retry-After in ms, read when its headers arrived. */
  retryAfterMs?: number;
  /** What the call's sink made of a streamed body (CallSpec.sink), instead of `text`. */
  sunk?: { value: unknown };
}

function flatHeaders(h: RawHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The headers the backoff reads (Retry-After, X-RateLimit-Reset and -Remaining). */
export function hintsOf(h: RawHeaders): RetryHints {
  const flat = flatHeaders(h);
  return { retryAfter: flat['retry-after'], rateLimitReset: flat['x-ratelimit-reset'], rateLimitRemaining: flat['x-ratelimit-remaining'] };
}

/** X-RateLimit-Limit and -Remaining as numbers, for the calls' time line. */
export function rateFigures(h: RawHeaders): RateFigures {
  return { limit: numberHeader(h['x-ratelimit-limit']), remaining: numberHeader(h['x-ratelimit-remaining']) };
}

export function isSuccess(spec: Pick<CallSpec<unknown>, 'ok'>, status: number): boolean {
  return (spec.ok ?? [200, 201]).includes(status);
}

/**
 * The typed error of an answer whose status is no success. `redact` removes the key and signed addresses from
 * what the provider echoed.
 */
export function errorOfAnswer(spec: Pick<CallSpec<unknown>, 'route'>, a: Answer, redact: (s: string) => string): ApiError {
  return errorForStatus(a.status, parseOrUndefined(a.text), spec.route, redact, hintsOf(a.headers), a.retryAfterMs);
}

/**
 * The typed result of a successful answer; throws API_BAD_RESPONSE for a body that is not JSON or not of the
 * call's shape, and whatever else the call's parser throws.
 */
export function resultOfAnswer<T>(spec: CallSpec<T>, a: Answer, redact: (s: string) => string): CallResult<T> {
  const headers = flatHeaders(a.headers);
  if (a.sunk) return { status: a.status, body: a.sunk.value as T, headers };
  try {
    // A body read by parseText is parsed there, holding each item's bytes as received.
    if (spec.parseText) return { status: a.status, body: spec.parseText(a.text, a.status), headers };
    let parsed: unknown;
    try {
      parsed = a.text === '' ? undefined : JSON.parse(a.text);
    } catch {
      throw badResponse(spec.route, 'not JSON', a.status);
    }
    return { status: a.status, body: spec.parse(parsed, a.status), headers };
  } catch (e) {
    if (e instanceof ShapeError) throw badResponse(spec.route, redact(e.message), a.status);
    if (e instanceof SyntaxError && spec.parseText) throw badResponse(spec.route, 'not JSON', a.status);
    throw e;
  }
}

/** An error body is small and read whole: JSON when it is, undefined when it is not. */
function parseOrUndefined(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function numberHeader(v: string | string[] | undefined): number | undefined {
  const n = Number(Array.isArray(v) ? v[0] : v);
  return v === undefined || !Number.isFinite(n) ? undefined : n;
}
