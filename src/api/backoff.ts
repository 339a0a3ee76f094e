// How long to wait before retry n. Pure: the clock and the random source are arguments.
//
// Full jitter (a uniform draw over the exponential window) spreads the retries of many concurrent callers so
// that they do not return in a herd. When the service names a time, that time is a floor, not a suggestion: the
// jitter is added on top of it, never cut from it. Retry-After is the service's answer about this very call,
// so it wins when given, shorter or longer; X-RateLimit-Reset (with no budget left) is only the moment the
// oldest call leaves the window, the fallback when Retry-After is absent — a 429 saying "retry in 5 s" must not
// wait the 61 s until a reset.
// Unlike undici's retry handler, a long Retry-After is not silently shortened; beyond `maxWaitMs` the caller
// gives up instead, because retrying earlier than asked only earns another 429.

export interface BackoffOptions {
  /** First window of the exponential backoff, in ms. Default 500. */
  baseDelayMs?: number;
  /** Ceiling of the exponential window (and of the jitter added to a server-named wait), in ms. Default 30 000. */
  maxDelayMs?: number;
  /** Longest server-named wait the client accepts before giving up instead, in ms. Default 300 000 (5 min). */
  maxWaitMs?: number;
}

export interface RetryHints {
  /** The Retry-After header: delta seconds or an HTTP date. */
  retryAfter?: string | null;
  /** X-RateLimit-Reset: epoch seconds, or delta seconds when below 1e9 (docs/dialect-and-spec-gaps.md, "Spec gaps"). */
  rateLimitReset?: string | null;
  /** X-RateLimit-Remaining: the reset matters only when nothing remains. */
  rateLimitRemaining?: string | null;
}

export interface Delay {
  /** Milliseconds to wait. */
  ms: number;
  /** The service asked for a wait longer than maxWaitMs: do not retry. */
  giveUp: boolean;
  /** The server-named floor included in ms, 0 when none. */
  floorMs: number;
}

export const BACKOFF_DEFAULTS = { baseDelayMs: 500, maxDelayMs: 30_000, maxWaitMs: 300_000 } as const;

/** Retry-After in ms (delta seconds or HTTP date), undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.max(0, Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** X-RateLimit-Reset as an absolute time in ms. Values below 1e9 are delta seconds. */
export function parseResetAt(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const n = Number(value.trim());
  if (!Number.isFinite(n) || n < 0) return undefined;
  return n < 1e9 ? now + n * 1000 : n * 1000;
}

export function retryDelay(
  attempt: number, hints: RetryHints = {}, opts: BackoffOptions = {}, now = Date.now(), random: () => number = Math.random,
): Delay {
  const base = opts.baseDelayMs ?? BACKOFF_DEFAULTS.baseDelayMs;
  const max = opts.maxDelayMs ?? BACKOFF_DEFAULTS.maxDelayMs;
  const maxWait = opts.maxWaitMs ?? BACKOFF_DEFAULTS.maxWaitMs;
  const window = Math.min(max, base * 2 ** Math.max(0, attempt));
  const retryAfter = parseRetryAfter(hints.retryAfter, now);
  let floor = retryAfter ?? 0;
  const remaining = hints.rateLimitRemaining == null ? undefined : Number(hints.rateLimitRemaining);
  if (retryAfter === undefined && remaining !== undefined && remaining <= 0) {
    const resetAt = parseResetAt(hints.rateLimitReset, now);
    if (resetAt !== undefined) floor = Math.max(0, resetAt - now);
  }
  if (floor > maxWait) return { ms: floor, giveUp: true, floorMs: floor };
  const jitter = random() * window;
  return { ms: Math.round(floor + jitter), giveUp: false, floorMs: floor };
}
