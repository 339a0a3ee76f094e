import { NewestFirstWatch } from '../api/listing-order.js';
import type { RequestObject } from '../spec/types.js';
import { codeOf, resolveFailure } from '../shared/failure-policy.js';
import { sleep, type RunContext } from './context.js';

// Polling costs calls and calls are the run's budget, so completion is learnt in batches: one page of the
// requests listing filtered to finished statuses answers for up to 100 requests. The listing is newest
// first, so the walk stops once it is past the oldest request still waited for.
//
// One signal alone is not trusted: a provider whose listing lags, or never shows a request finished, would
// make the run wait for ever. A request the listing has not shown finished is asked for on its own
// (GET /requests/<id>) once it is overdue — three rounds unseen, and either a minute old or the listing has
// shown nothing finished at all (it may be the listing that is broken) — then once per step of its own
// backoff; a request from an earlier run is asked for at once (the provider may have forgotten it). Probes cost
// a call each, where one listing call answers for a hundred requests, so at most a few go out per round,
// oldest first. A request the provider no longer knows (404) is handed back as lost, never waited on. The wait itself is bounded (the run's wait budget, counted from the
// end of the submissions): what is still running then stays outstanding in the ledger for the next run. While waiting, a log line says what is
// waited for at least every `heartbeatMs`.

const DONE = ['completed', 'cancelled'];

interface PollOptions {
  /** First wait between rounds, in ms. Default 500. */
  minIntervalMs?: number;
  /** Longest wait between rounds while nothing finishes, in ms. Default 30 000. */
  maxIntervalMs?: number;
  /**
   * The wait budget, in ms: how long to keep waiting once no more requests can come (submissions are done).
   * Submitting is never cut short by it. Default six hours.
   */
  budgetMs?: number;
  /** Listing rounds a request may go unseen as finished before it is asked for on its own. Default 3. */
  probeAfterRounds?: number;
  /** Age a request must reach before it is asked for on its own, unless the listing showed nothing finished. Default 60 000. */
  probeAgeMs?: number;
  /** First gap between two single probes of one request, doubled after each up to ten minutes, in ms. Default 30 000. */
  probeGapMs?: number;
  /** Most single probes in one round. Default 10. */
  probesPerRound?: number;
  /** At least one "still waiting" log line this often, in ms. Default 30 000. */
  heartbeatMs?: number;
  /** The longest a round waits for a request its expected time (Waiting.expectedMs), in ms. Default 30 000. */
  expectedCapMs?: number;
  /** Told the wait budget's end (epoch ms) once it is known: when no more requests can come. */
  onDeadline?: (at: number) => void;
}

export interface Waiting {
  requestId: string;
  /** The provider's created_at (its clock), compared only with other created_at values of the listing. */
  createdAt: number;
  /** When this run started waiting for it (our clock). Default: when the poller first saw it. */
  since?: number;
  /** Submitted by an earlier run: asked for on its own at once, since the provider may no longer know it. */
  resumed?: boolean;
  /** Listing rounds that did not show it finished. */
  unseenRounds?: number;
  /** When it may next be asked for on its own (epoch ms). */
  nextProbeAt?: number;
  /** The gap before the probe after that, in ms. */
  probeGapMs?: number;
  /** How long the same search took the provider the last time (PlannedSearch.tookMs), ms: the first round waits for it. */
  expectedMs?: number;
}

export interface PollStats { rounds: number; calls: number; probes: number; lost: number }

interface PollHandlers {
  /** A request finished (completed or cancelled). */
  finished(req: RequestObject): void;
  /** The provider answered 404 for a request: it does not know it (any more). */
  lost(requestId: string, reason: string): void;
  /** Asking for a request on its own failed in a way no retry helps (not a 404). */
  failed(requestId: string, e: unknown): void;
  /** Whether more requests may still be added to `waiting` (submissions going on). */
  more(): boolean;
}

/**
 * Waits for every request in `waiting` to finish, calling the handlers as soon as each is known. New requests
 * may be added to `waiting` while it runs. Returns when nothing is waited for, on abort, or at the deadline.
 * Throws what reaches the run (the key refused).
 */
export async function pollUntilFinished(ctx: RunContext, waiting: Map<string, Waiting>, on: PollHandlers, opts: PollOptions = {}): Promise<PollStats> {
  const minI = opts.minIntervalMs ?? 500;
  const maxI = opts.maxIntervalMs ?? 30_000;
  const budget = opts.budgetMs ?? 6 * 3_600_000;
  let deadline = Infinity;
  const heartbeat = opts.heartbeatMs ?? 30_000;
  const stats: PollStats = { rounds: 0, calls: 0, probes: 0, lost: 0 };
  let interval = minI;
  let useListing = true;
  let listingShowedAny = false;
  let lastBeat = Date.now();
  while (!ctx.signal.aborted) {
    const more = on.more();
    if (!more && deadline === Infinity) {
      deadline = Date.now() + budget;
      opts.onDeadline?.(deadline);
    }
    if (Date.now() >= deadline) break;
    if (waiting.size === 0) {
      if (!more) break;
      await sleep(50, ctx.signal);
      continue;
    }
    for (const w of waiting.values()) w.since ??= Date.now();
    if (more ? tooEarly(waiting, minI) : expectedRunning(waiting, opts.expectedCapMs ?? 30_000)) {
      await sleep(50, ctx.signal);
      continue;
    }
    stats.rounds++;
    let finished = 0;
    const finish = (r: RequestObject): void => {
      if (!waiting.delete(r.request_id)) return;
      finished++;
      on.finished(r);
    };
    if (useListing) {
      try {
        if (await listingRound(ctx, waiting, finish, stats)) listingShowedAny = true;
      } catch (e) {
        if (resolveFailure(e).reach === 'run') throw e;
        if (ctx.signal.aborted) break;
        ctx.log.warn({ code: codeOf(e) }, 'the requests listing cannot answer for completion; asking for each request instead');
        useListing = false;
      }
    }
    await probeRound(ctx, waiting, finish, on, stats, {
      all: !useListing, after: opts.probeAfterRounds ?? 3, age: listingShowedAny ? opts.probeAgeMs ?? 60_000 : 0,
      gap: opts.probeGapMs ?? 30_000, maxGap: 600_000, perRound: useListing ? opts.probesPerRound ?? 10 : Infinity,
    });
    interval = finished > 0 ? minI : Math.min(maxI, Math.round(interval * 1.6));
    const wait = Math.max(0, Math.min(interval, deadline - Date.now()));
    if (Date.now() - lastBeat >= heartbeat || (wait >= heartbeat && waiting.size > 0)) {
      lastBeat = Date.now();
      logWaiting(ctx, waiting, wait, deadline);
    }
    if (waiting.size > 0 || on.more()) await sleep(wait, ctx.signal);
  }
  return stats;
}

/** The "still waiting" line: how many requests, the oldest's age, the next poll and what is left of the wait budget. */
function logWaiting(ctx: RunContext, waiting: ReadonlyMap<string, Waiting>, wait: number, deadline: number): void {
  const left = deadline === Infinity ? null : Math.max(0, Math.round((deadline - Date.now()) / 1000));
  const oldest = Math.min(...[...waiting.values()].map((w) => w.since ?? Date.now()));
  ctx.log.info({
    event: 'poll.waiting', requests: waiting.size, oldest_age_s: Number.isFinite(oldest) ? Math.round((Date.now() - oldest) / 1000) : null,
    next_poll_s: Math.round(wait / 1000), budget_left_s: left,
  }, `waiting for ${waiting.size} requests still running`);
}

/**
 * Whether a round now would answer for too few: while submissions go on, a round waits until the oldest request
 * waited for is `minMs` old, so that one listing answers for the requests submitted together. A round at the
 * first submission's answer found that one finished and sent a second for the rest of its wave: a night of three
 * companies polled twice a wave where once does (4 calls of GET /requests for 2 waves). A request an earlier
 * run submitted is asked for at once.
 */
function tooEarly(waiting: ReadonlyMap<string, Waiting>, minMs: number): boolean {
  const now = Date.now();
  for (const w of waiting.values()) if (w.resumed || now - (w.since ?? now) >= minMs) return false;
  return true;
}

/**
 * Whether a request waited for is expected to be running still: once submissions are done, a round waits until
 * each request is as old as its search took the last time (at most `capMs`). A night of three companies, each
 * search answering court by court for a few seconds, found them running at its first round and needed a second
 * (the documents' wave: 2 calls of GET /requests where 1 does, every later night of the levels bench). A request
 * an earlier run submitted, or whose search never completed before, is not waited for. While submissions go on
 * it is not asked: the requests submitted last would hold back reading those submitted first (tooEarly then).
 */
function expectedRunning(waiting: ReadonlyMap<string, Waiting>, capMs: number): boolean {
  const now = Date.now();
  for (const w of waiting.values()) {
    if (!w.resumed && w.expectedMs !== undefined && now - (w.since ?? now) < Math.min(w.expectedMs, capMs)) return true;
  }
  return false;
}

/** One round of the listing; true when it showed any of the requests waited for finished. */
async function listingRound(ctx: RunContext, waiting: Map<string, Waiting>, finish: (r: RequestObject) => void, stats: PollStats): Promise<boolean> {
  const oldest = Math.min(...[...waiting.values()].map((w) => w.createdAt));
  const seen = new Set<string>();
  // The requests created since the oldest waited for (less a minute of clock slack), newest first where the
  // upstream honours it: past the first older one nothing more can be ours, once the pages have shown they
  // descend (NewestFirstWatch; the provider's examples list oldest first). A listing that lies about its pages
  // cannot hold the round: walkPages ends it.
  const order = new NewestFirstWatch();
  const pages = ctx.api.requests.walkSince(oldest - 60_000, {
    status: DONE, signal: ctx.signal, maxPages: 1_000, onStop: (why, fields) => ctx.log.warn(fields, why),
  });
  for await (const res of pages) {
    stats.calls++;
    order.saw(res.items.map((r) => Date.parse(r.created_at)));
    let older = false;
    for (const r of res.items) {
      if (waiting.has(r.request_id) && DONE.includes(r.status)) {
        seen.add(r.request_id);
        finish(r);
      }
      const at = Date.parse(r.created_at);
      if (!Number.isNaN(at) && at < oldest - 60_000) older = true;
    }
    if ((older && order.shown()) || waiting.size === 0) break;
  }
  for (const w of waiting.values()) if (!seen.has(w.requestId)) w.unseenRounds = (w.unseenRounds ?? 0) + 1;
  return seen.size > 0;
}

/**
 * Asks for requests on their own: all of them when the listing cannot answer; otherwise the resumed ones at
 * once and those overdue (unseen for `after` rounds and `age` old), each no more often than its own doubling
 * gap, at most `perRound`, oldest first.
 */
async function probeRound(
  ctx: RunContext, waiting: Map<string, Waiting>, finish: (r: RequestObject) => void, on: PollHandlers, stats: PollStats,
  o: { all: boolean; after: number; age: number; gap: number; maxGap: number; perRound: number },
): Promise<void> {
  const now = Date.now();
  const overdue = (w: Waiting): boolean => (w.nextProbeAt === undefined
    ? w.resumed === true || ((w.unseenRounds ?? 0) >= o.after && now - (w.since ?? now) >= o.age)
    : w.nextProbeAt <= now);
  const due = [...waiting.values()].filter((w) => o.all || overdue(w)).sort((a, b) => a.createdAt - b.createdAt).slice(0, o.perRound);
  await Promise.all(due.map(async (w) => {
    w.probeGapMs = Math.min(o.maxGap, w.probeGapMs === undefined ? o.gap : w.probeGapMs * 2);
    w.nextProbeAt = Date.now() + w.probeGapMs;
    try {
      const r = await ctx.api.requests.get(w.requestId);
      stats.calls++;
      stats.probes++;
      if (DONE.includes(r.status)) finish(r);
    } catch (e) {
      stats.calls++;
      const r = resolveFailure(e, { ofRequest: true });
      if (r.reach === 'run') throw e;
      if (r.action === 'resubmit') {
        if (waiting.delete(w.requestId)) {
          stats.lost++;
          on.lost(w.requestId, (e as Error).message);
        }
      } else if (!r.transient) {
        if (waiting.delete(w.requestId)) on.failed(w.requestId, e);
      }
      // a passing failure the client has retried as far as it would: asked again at the request's next probe
    }
  }));
}
