import { AdaptiveLimiter, type LimiterOptions } from '../../src/api/rate-limit.js';

// Rate-limited services on a fake clock, and a driver that runs calls through the real AdaptiveLimiter
// against them, for the limiter's scenario tests (vitest fake timers: no real time, no server). Each service
// is a model of one way a provider may count; each test says which case it exists for.

export type Headers = Record<string, string>;
export interface Verdict { status: 200 | 429; headers: Headers }

/** A service's rate limit: decides, at the moment a call is counted, whether it passes and what the headers say. */
export interface FakeService {
  take(now: number): Verdict;
  /** Calls it counted, by the time it counted them. */
  counted: number[];
  refused: number;
}

const sec = (ms: number): string => String(ms / 1000);

/**
 * The provider's documented limit (REFERENCE.md: a sliding window, 429 past it with Retry-After), as the
 * sandbox serves it: Reset is the epoch second, rounded up, at which the oldest call leaves the window
 * (`resetPrecision`: 'floor' as a service might round it, 'fraction' with milliseconds). A refused call is
 * not counted, unless `countRefused` (the provider's documentation: refused calls count against the window
 * too). `limit` may change with the time.
 */
export function slidingWindow(opts: {
  limit: number | ((now: number) => number); windowMs: number; resetPrecision?: 'ceil' | 'floor' | 'fraction'; countRefused?: boolean;
}): FakeService {
  const log: number[] = [];
  const counted: number[] = [];
  const svc: FakeService = {
    counted,
    refused: 0,
    take(now) {
      const limit = typeof opts.limit === 'function' ? opts.limit(now) : opts.limit;
      while (log.length && log[0] <= now - opts.windowMs) log.shift();
      const allowed = log.length < limit;
      if (allowed) {
        log.push(now);
        counted.push(now);
      } else {
        svc.refused++;
        if (opts.countRefused) log.push(now);
      }
      const oldestLeaves = (log[0] ?? now) + opts.windowMs;
      const reset = opts.resetPrecision === 'fraction' ? sec(oldestLeaves)
        : String(opts.resetPrecision === 'floor' ? Math.floor(oldestLeaves / 1000) : Math.ceil(oldestLeaves / 1000));
      const headers: Headers = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(Math.max(0, limit - log.length)), 'x-ratelimit-reset': reset };
      // After a drop of the limit, more calls than it may be in the window: a slot frees when enough have left.
      const slotFrees = log.length >= limit ? log[log.length - limit] + opts.windowMs : now;
      if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((slotFrees - now) / 1000)));
      return { status: allowed ? 200 : 429, headers };
    },
  };
  return svc;
}

/**
 * A fixed window, as many other APIs count: `limit` calls per window aligned on multiples of `windowMs`,
 * Remaining counting down within it and Reset at its end (epoch seconds).
 */
export function fixedWindow(opts: { limit: number; windowMs: number }): FakeService {
  let windowStart = -Infinity;
  let used = 0;
  const counted: number[] = [];
  const svc: FakeService = {
    counted,
    refused: 0,
    take(now) {
      const start = Math.floor(now / opts.windowMs) * opts.windowMs;
      if (start !== windowStart) { windowStart = start; used = 0; }
      const allowed = used < opts.limit;
      if (allowed) { used++; counted.push(now); } else svc.refused++;
      const end = start + opts.windowMs;
      const headers: Headers = { 'x-ratelimit-limit': String(opts.limit), 'x-ratelimit-remaining': String(opts.limit - used), 'x-ratelimit-reset': String(Math.ceil(end / 1000)) };
      if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((end - now) / 1000)));
      return { status: allowed ? 200 : 429, headers };
    },
  };
  return svc;
}

/**
 * The provider as its documentation shows it (REFERENCE.md, "The provider's documented dialect"): a sliding
 * window that counts refused calls too, no Reset and no Retry-After; `headers` 'limit-remaining' sends
 * X-RateLimit-Limit and -Remaining on 200 answers only, 'none' no rate header at all.
 */
export function documentedDialect(opts: { limit: number; windowMs: number; headers: 'limit-remaining' | 'none' }): FakeService {
  const keep = opts.headers === 'none' ? [] : ['x-ratelimit-limit', 'x-ratelimit-remaining'];
  return withHeaders(slidingWindow({ limit: opts.limit, windowMs: opts.windowMs, countRefused: true }),
    (h, _now, status) => (status === 200 ? Object.fromEntries(Object.entries(h).filter(([k]) => keep.includes(k))) : {}));
}

/** The same service with its headers rewritten (headers that lie, or none at all). */
export function withHeaders(svc: FakeService, rewrite: (h: Headers, now: number, status: number) => Headers): FakeService {
  return {
    get counted() { return svc.counted; },
    get refused() { return svc.refused; },
    take(now) {
      const v = svc.take(now);
      return { status: v.status, headers: rewrite(v.headers, now, v.status) };
    },
  };
}

export interface RunFigures {
  /** From the first call started to the last answer, in ms. */
  spanMs: number;
  /** Answers 429 (each was retried through the limiter). */
  answered429: number;
  /** Start time of every attempt, relative to the first. */
  starts: number[];
  /** Most calls in flight at once. */
  peakInFlight: number;
  limiter: AdaptiveLimiter;
}

/**
 * Sends `calls` calls through a new AdaptiveLimiter to `svc`, each counted `upMs` after it starts and
 * answered when its latency is over; a 429 is sent again through the limiter (whose pause holds it), as http.ts does
 * minus the backoff's own delay, so that what is measured is the limiter alone. Runs on vitest's fake timers,
 * which the caller has installed.
 */
export async function runCalls(
  svc: FakeService, advance: (ms: number) => Promise<unknown>,
  opts: {
    calls: number;
    /** Latency of each call, given the calls in flight when it starts (itself included). Default 10 ms. */
    latencyMs?: (inFlight: number) => number;
    /** Part of the latency before the service counts the call. Default half. */
    upMs?: number;
    limiter?: LimiterOptions;
    /** Fake time after which the run is declared stuck. Default one hour. */
    maxMs?: number;
  },
): Promise<RunFigures> {
  const limiter = new AdaptiveLimiter({ maxConcurrency: 32, ...opts.limiter });
  const t0 = Date.now();
  const starts: number[] = [];
  let inFlight = 0;
  let peakInFlight = 0;
  let answered429 = 0;
  let last = t0;
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  const once = () => limiter.schedule(async (report) => {
    const at = Date.now();
    starts.push(at - t0);
    inFlight++;
    peakInFlight = Math.max(peakInFlight, inFlight);
    const total = opts.latencyMs?.(inFlight) ?? 10;
    const up = Math.min(total, opts.upMs ?? Math.floor(total / 2));
    await sleep(up);
    const v = svc.take(Date.now());
    await sleep(total - up);
    inFlight--;
    last = Math.max(last, Date.now());
    const retryAfter = v.headers['retry-after'];
    report({ status: v.status, headers: v.headers, latencyMs: total, retryAfterMs: retryAfter === undefined ? undefined : Number(retryAfter) * 1000 });
    return v.status;
  });
  const one = async () => {
    while ((await once()) === 429) answered429++;
  };
  let finished = false;
  const all = Promise.all(Array.from({ length: opts.calls }, one)).then(() => { finished = true; });
  const maxMs = opts.maxMs ?? 3_600_000;
  while (!finished && Date.now() - t0 < maxMs) await advance(100);
  limiter.close();
  if (!finished) throw new Error(`${opts.calls} calls did not finish in ${maxMs} ms of fake time (${starts.length} attempts)`);
  await all;
  return { spanMs: last - t0, answered429, starts, peakInFlight, limiter };
}

/** Counted times of a sliding window obey t[k+L] >= t[k] + W, so C calls span at least floor((C-1)/L) windows. */
export const leastSpanMs = (calls: number, limit: number, windowMs: number): number => Math.floor((calls - 1) / limit) * windowMs;
