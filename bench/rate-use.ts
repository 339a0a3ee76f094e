import PQueue from 'p-queue';
import { BenchClient } from './client.js';
import { HttpClient } from '../src/api/http.js';
import { AdaptiveLimiter } from '../src/api/rate-limit.js';
import { startDocumentedUpstream, type RateDialect } from './documented-rate-upstream.js';
import { startSandbox } from '../src/sandbox/server.js';
import { round } from './round.js';

// Rate-limit use: how close to the key's budget a client runs, without being told the limit.
// Under a sliding window of L calls per W ms, a call is counted only when fewer than L calls were counted in
// the W before it, so the counted times, sorted, obey t[k+L] >= t[k] + W: the first L calls may go at once,
// call L+1 no sooner than W after call 1, call 2L+1 no sooner than 2W, and C calls need at least
// floor((C - 1) / L) * W ms. rate_use = that ideal / the time actually taken, from the first call sent to the
// last answered. (The fluid figure (C - L) / L * W is reachable only when C is a multiple of L; for 150 calls
// at 60 per 20 s it is 30 s, which no client can reach: call 121 cannot be counted before 40 s. It is kept as
// `fluidUse` for comparison with earlier runs.)

export interface RateFigures { calls: number; ms: number; idealMs: number; rateUse: number; share429: number; status429: number; fluidUse: number }

/**
 * Against an upstream of the documented dialect: also the calls that failed after their retries, the retries
 * (of 429s and network failures alike) and what the limiter learned, so that an outlier shows its cause.
 */
export interface DialectRateFigures extends RateFigures { failed: number; retries: number; network: number; learnedLimit?: number; windowMs?: number }

/** The least time C calls can take under a sliding window of `limit` calls per `windowMs`. */
export function idealSpanMs(calls: number, limit: number, windowMs: number): number {
  return Math.floor(Math.max(0, calls - 1) / limit) * windowMs;
}

export async function rateUse(opts: { limit: number; windowMs: number; calls: number }): Promise<{ adaptive: RateFigures; fixed: RateFigures }> {
  const adaptive = await measure(opts, async (url, calls) => {
    const client = new BenchClient(url, { maxConcurrency: 32 });
    try {
      await Promise.all(Array.from({ length: calls }, (_, i) => client.api.requests.list({ page: 1 + (i % 3), pageSize: 1 })));
    } finally {
      await client.close();
    }
  });
  const fixed = await measure(opts, async (url, calls) => {
    // The usual client: a fixed concurrency, a 429 waits Retry-After and tries again (the client under measure
    // reads statuses itself: the bench client's `send`, one attempt whatever it answers).
    const client = new BenchClient(url);
    const q = new PQueue({ concurrency: 8 });
    try {
      await Promise.all(Array.from({ length: calls }, () => q.add(async () => {
        for (;;) {
          const res = await client.send('GET', '/requests', { page: 1, page_size: 1 });
          if (res.status !== 429) return;
          await new Promise((r) => setTimeout(r, Number(res.headers['retry-after'] ?? 1) * 1000));
        }
      })));
    } finally {
      await client.close();
    }
  });
  return { adaptive, fixed };
}

async function measure(opts: { limit: number; windowMs: number; calls: number }, client: (url: string, calls: number) => Promise<void>): Promise<RateFigures> {
  // The spec's dialect, which names the time (Reset, Retry-After): the limiter learns this window from it. The
  // documented dialect names none; its figures come from documented-rate-upstream.ts, at the window it documents.
  const sb = await startSandbox({ rateLimit: opts.limit, rateWindowMs: opts.windowMs, dialect: 'spec' });
  try {
    const t0 = Date.now();
    await client(sb.url, opts.calls);
    const ms = Date.now() - t0;
    const c = sb.counters();
    const byStatus = c.by_endpoint['GET /requests'] ?? {};
    const status429 = byStatus['429'] ?? 0;
    const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
    const idealMs = idealSpanMs(opts.calls, opts.limit, opts.windowMs);
    const fluidMs = Math.max(0, (opts.calls - opts.limit) / opts.limit) * opts.windowMs;
    return { calls: total, ms, idealMs, rateUse: round(idealMs / ms), share429: round(status429 / Math.max(total, 1), 4), status429, fluidUse: round(fluidMs / ms) };
  } finally {
    await sb.close();
  }
}

/**
 * The client's own HTTP layer and limiter against an upstream that names no time (no Reset, no Retry-After)
 * and counts refused calls (bench/documented-rate-upstream.ts). The limiter is told the window, as a night
 * is told the documented 60 s by default: the upstream is the documented 180 per 60 s at a third of the
 * window, so that the bench takes seconds, not minutes. It is not told the limit.
 */
export async function rateUseDocumented(opts: { limit: number; windowMs: number; calls: number; headers: RateDialect }): Promise<DialectRateFigures> {
  const up = await startDocumentedUpstream(opts);
  const limiter = new AdaptiveLimiter({ maxConcurrency: 32, windowMs: opts.windowMs });
  const http = new HttpClient({ apiKey: 'bench-key', urls: { requests: up.url, tracking: up.url, lawsuits: up.url, transfer: up.url }, limiter, connections: 32 });
  let failed = 0;
  try {
    const t0 = Date.now();
    await Promise.all(Array.from({ length: opts.calls }, (_, i) => http.call({
      base: 'requests', method: 'GET', path: '/requests', route: 'GET /requests', query: { page: 1 + (i % 3), page_size: 1 }, parse: (b) => b,
    }).catch(() => { failed++; })));
    const ms = Date.now() - t0;
    const { calls, status429 } = up.counters();
    const idealMs = idealSpanMs(opts.calls, opts.limit, opts.windowMs);
    const fluidMs = Math.max(0, (opts.calls - opts.limit) / opts.limit) * opts.windowMs;
    const st = http.stats();
    const snap = limiter.snapshot();
    return {
      calls, ms, idealMs, rateUse: round(idealMs / ms), share429: round(status429 / Math.max(calls, 1), 4), status429, fluidUse: round(fluidMs / ms), failed,
      retries: st.retries, network: st.byStatus.network ?? 0, learnedLimit: snap.limit, windowMs: snap.windowMs,
    };
  } finally {
    limiter.close();
    await http.close();
    await up.close();
  }
}
