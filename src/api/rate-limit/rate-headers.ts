import { parseResetAt, parseRetryAfter } from '../backoff.js';

// What one answer says about the key's budget, read once and checked. A value that cannot be true is dropped
// here, so that the rest of the limiter reasons only about figures that could be: believing a lie costs more
// than ignoring a figure (the limiter then falls back on what it measures, and on 429s).

/** Answer headers, lower-case names, as undici gives them. */
type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

export interface RateHeaders {
  /** X-RateLimit-Limit: calls per window, a positive integer. */
  limit?: number;
  /** X-RateLimit-Remaining: calls still allowed in the window, an integer from 0 to `limit`. */
  remaining?: number;
  /** X-RateLimit-Reset as epoch ms: when the oldest call in the window leaves it, so that a slot frees. */
  resetAt?: number;
  /** The Reset came in whole seconds and may have been rounded, either way (docs/dialect-and-spec-gaps.md, "Spec gaps"). */
  resetWholeSecond: boolean;
  /** Retry-After, in ms. */
  retryAfterMs?: number;
  /**
   * The answer carried X-RateLimit-Reset or Retry-After, readable or not: a service that names when a slot
   * frees. The provider's documented dialect names neither (REFERENCE.md), and is then paced by the limiter alone.
   */
  namesTime?: true;
}

interface ReadRateHeadersOptions {
  /**
   * A Reset further ahead than this is not believed, in ms: believing it would hold every call that long
   * (a clock far off, or a day given as seconds), while a rate window is a minute (REFERENCE.md).
   */
  maxResetAheadMs: number;
}

function first(headers: HeaderBag | undefined, name: string): string | undefined {
  const v = headers?.[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A count of calls: digits only (no sign, fraction, exponent or hex), a safe integer. */
function callCount(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*\d+\s*$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The rate-limit figures of one answer, each either believable or absent. Pure: the clock is `now`. */
export function readRateHeaders(headers: HeaderBag | undefined, now: number, opts: ReadRateHeadersOptions): RateHeaders {
  let limit = callCount(first(headers, 'x-ratelimit-limit'));
  // A window of no calls cannot be used nor divided; a key without quota is answered 403 anyway.
  if (limit === 0) limit = undefined;
  let remaining = callCount(first(headers, 'x-ratelimit-remaining'));
  // Remaining above its Limit: one of the two is wrong, and which one is unknown. A Remaining too large would
  // spend calls the window does not have, and (limit - remaining) would date calls out of the window that are
  // still in it; a Limit alone would hold concurrency at 1. Both go: the answer counts as one without figures.
  if (remaining !== undefined && limit !== undefined && remaining > limit) remaining = limit = undefined;
  const rawReset = first(headers, 'x-ratelimit-reset');
  let resetAt = parseResetAt(rawReset, now);
  if (resetAt !== undefined && resetAt - now > opts.maxResetAheadMs) resetAt = undefined;
  const rawRetryAfter = first(headers, 'retry-after');
  const out: RateHeaders = { resetWholeSecond: resetAt !== undefined && rawReset !== undefined && !rawReset.includes('.') };
  if ((rawReset ?? '').trim() !== '' || (rawRetryAfter ?? '').trim() !== '') out.namesTime = true;
  if (limit !== undefined) out.limit = limit;
  if (remaining !== undefined) out.remaining = remaining;
  if (resetAt !== undefined) out.resetAt = resetAt;
  const retryAfterMs = parseRetryAfter(rawRetryAfter, now);
  if (retryAfterMs !== undefined) out.retryAfterMs = retryAfterMs;
  return out;
}
