import { isApiError } from '../api/errors.js';
import type { RequestObject } from '../api/types.js';
import { sleep, type RunContext } from './context.js';

// Polling costs calls and calls are the run's budget, so completion is learnt in batches: one page of the
// requests listing filtered to finished statuses answers for up to 100 requests. The listing is newest
// first, so the walk stops once it is past the oldest request still waited for. Where the listing cannot
// answer (an error other than a transient one), each request is asked for on its own.

const DONE = ['completed', 'cancelled'];

export interface PollOptions {
  /** First wait between rounds, in ms. Default 500. */
  minIntervalMs?: number;
  /** Longest wait between rounds while nothing finishes, in ms. Default 30 000. */
  maxIntervalMs?: number;
  /** Give up waiting after this long; what is still running stays outstanding for the next run. Default 6 h. */
  maxWaitMs?: number;
}

export interface Waiting { requestId: string; createdAt: number }

export interface PollStats { rounds: number; calls: number; fallbackCalls: number }

/**
 * Waits for every request in `waiting` to finish, calling onFinished for each as soon as it is known.
 * New requests may be added to `waiting` while it runs (submissions go on in parallel); `more()` tells
 * whether more may still come. Returns when nothing is waited for, on abort, or after maxWaitMs.
 */
export async function pollUntilFinished(
  ctx: RunContext,
  waiting: Map<string, Waiting>,
  onFinished: (req: RequestObject) => void,
  more: () => boolean,
  opts: PollOptions = {},
): Promise<PollStats> {
  const minI = opts.minIntervalMs ?? 500;
  const maxI = opts.maxIntervalMs ?? 30_000;
  const deadline = Date.now() + (opts.maxWaitMs ?? 6 * 3_600_000);
  const stats: PollStats = { rounds: 0, calls: 0, fallbackCalls: 0 };
  let interval = minI;
  let useListing = true;
  while (!ctx.signal.aborted && Date.now() < deadline) {
    if (waiting.size === 0) {
      if (!more()) break;
      await sleep(50, ctx.signal);
      continue;
    }
    stats.rounds++;
    let finished = 0;
    const finish = (r: RequestObject): void => {
      if (!waiting.delete(r.request_id)) return;
      finished++;
      onFinished(r);
    };
    if (useListing) {
      try {
        await listingRound(ctx, waiting, finish, stats);
      } catch (e) {
        if (isApiError(e) && (e.transient || e.exitCode === 3)) throw e;
        ctx.log.warn({ code: isApiError(e) ? e.code : undefined }, 'the requests listing cannot answer for completion; asking for each request instead');
        useListing = false;
      }
    }
    if (!useListing) await singleRound(ctx, waiting, finish, stats);
    interval = finished > 0 ? minI : Math.min(maxI, Math.round(interval * 1.6));
    if (waiting.size > 0 || more()) await sleep(interval, ctx.signal);
  }
  return stats;
}

async function listingRound(ctx: RunContext, waiting: Map<string, Waiting>, finish: (r: RequestObject) => void, stats: PollStats): Promise<void> {
  const oldest = Math.min(...[...waiting.values()].map((w) => w.createdAt));
  let next: string | undefined;
  for (let page = 1; waiting.size > 0; page++) {
    const res = await ctx.api.requests.list({ page, pageSize: 100, status: DONE }, next);
    stats.calls++;
    let older = false;
    for (const r of res.items) {
      if (waiting.has(r.request_id) && DONE.includes(r.status)) finish(r);
      const at = Date.parse(r.created_at);
      if (!Number.isNaN(at) && at < oldest - 60_000) older = true;
    }
    if (older || res.items.length === 0) return;
    if (res.next === null || (res.next === undefined && page >= res.allPagesCount)) return;
    next = res.next ?? undefined;
  }
}

async function singleRound(ctx: RunContext, waiting: Map<string, Waiting>, finish: (r: RequestObject) => void, stats: PollStats): Promise<void> {
  await Promise.all([...waiting.keys()].map(async (id) => {
    const r = await ctx.api.requests.get(id);
    stats.calls++;
    stats.fallbackCalls++;
    if (DONE.includes(r.status)) finish(r);
  }));
}
