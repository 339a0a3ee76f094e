import { request } from 'undici';
import PQueue from 'p-queue';
import { LawsuitApi } from '../api/client.js';
import { startSandbox } from '../sandbox/server.js';

// Rate-limit use: how close to the key's budget a client runs, without being told the limit.
// Under a sliding window of L calls per W ms, the first L calls may go at once and every later call must
// wait for a slot; C calls therefore need at least (C - L) / L * W ms. rate_use = that ideal / the time
// actually taken, from the first call sent to the last answered.

export interface RateFigures { calls: number; ms: number; idealMs: number; rateUse: number; share429: number; status429: number }

export async function rateUse(opts: { limit: number; windowMs: number; calls: number }): Promise<{ adaptive: RateFigures; fixed: RateFigures }> {
  const adaptive = await measure(opts, async (url, calls) => {
    const api = new LawsuitApi({ apiKey: 'sandbox-key', urls: { requests: url, tracking: url, lawsuits: url, transfer: url }, maxConcurrency: 32 });
    try {
      await Promise.all(Array.from({ length: calls }, (_, i) => api.requests.list({ page: 1 + (i % 3), pageSize: 1 })));
    } finally {
      await api.close();
    }
  });
  const fixed = await measure(opts, async (url, calls) => {
    // The usual client: a fixed concurrency, a 429 waits Retry-After and tries again.
    const q = new PQueue({ concurrency: 8 });
    await Promise.all(Array.from({ length: calls }, () => q.add(async () => {
      for (;;) {
        const res = await request(`${url}/requests?page=1&page_size=1`, { headers: { 'api-key': 'sandbox-key' } });
        await res.body.dump();
        if (res.statusCode !== 429) return;
        await new Promise((r) => setTimeout(r, Number(res.headers['retry-after'] ?? 1) * 1000));
      }
    })));
  });
  return { adaptive, fixed };
}

async function measure(opts: { limit: number; windowMs: number; calls: number }, client: (url: string, calls: number) => Promise<void>): Promise<RateFigures> {
  const sb = await startSandbox({ rateLimit: opts.limit, rateWindowMs: opts.windowMs });
  try {
    const t0 = Date.now();
    await client(sb.url, opts.calls);
    const ms = Date.now() - t0;
    const c = sb.counters();
    const byStatus = c.by_endpoint['GET /requests'] ?? {};
    const status429 = byStatus['429'] ?? 0;
    const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
    const idealMs = ((opts.calls - opts.limit) / opts.limit) * opts.windowMs;
    return { calls: total, ms, idealMs, rateUse: round(idealMs / ms), share429: round(status429 / Math.max(total, 1), 4), status429 };
  } finally {
    await sb.close();
  }
}

const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
