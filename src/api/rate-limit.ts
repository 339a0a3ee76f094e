import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import { parseResetAt } from './backoff.js';
import { API_CODES, ApiError } from './errors.js';

// One limiter for every call made with the key: the service counts all four base addresses against the same
// sliding window, so they must share one budget.
//
// The budget is read from X-RateLimit-Limit/-Remaining/-Reset as answers arrive, never configured: Remaining
// is what the window still allows once the answered call was counted, so the calls still in flight (sent,
// unanswered) must be taken off it — they may already be counted, and assuming so costs a little throughput
// but never a 429. Each start spends one unit of that estimate; when it is spent the queue pauses until the
// Reset time, when the oldest call leaves the window and at least one slot frees. After that pause one probe
// call goes out and its answer tells how much more is free. A 429 is treated as an exception (the estimate was
// wrong, or someone else uses the key): concurrency halves and the queue pauses for what the service asked.
//
// p-queue cannot change interval/intervalCap at run time, so the limiter steers it only with pause()/start()
// and `concurrency`. Concurrency starts at 1 (the first answer reveals the budget) and grows by one per
// answer while the budget has room for another call in flight, callers are waiting, and latency stays near
// the best seen; it shrinks when latency degrades.

export interface LimiterOptions {
  /** Configured ceiling of calls in flight. Default 16; at least 1. */
  maxConcurrency?: number;
  /** Calls in flight allowed before any answer was seen. Default 1. */
  initialConcurrency?: number;
  /**
   * Configured ceiling of calls per window, below what the service grants (e.g. to leave room for another
   * program using the same key). Default: none, the service's X-RateLimit-Limit alone applies.
   */
  limit?: number;
  /** Extra wait after a reset time before the next call, absorbing clock skew, in ms. Default 20. */
  marginMs?: number;
  /**
   * Concurrency grows only while the recent latency (moving average) is at most `latencyFactor` times the
   * best latency seen plus `latencySlackMs`; above twice that it shrinks. Defaults 3 and 100 ms.
   */
  latencyFactor?: number;
  latencySlackMs?: number;
  /**
   * Added to an X-RateLimit-Reset given in whole seconds, which the service may have rounded down, in ms.
   * Default 1000; 0 trusts whole seconds as rounded up.
   */
  wholeSecondMarginMs?: number;
  /** How long to wait for an in-flight answer to refresh a spent budget whose reset time already passed, in ms. Default 1000. */
  awaitAnswerMs?: number;
  /** Clock, for tests. Default Date.now. */
  now?: () => number;
}

/** What one answered (or failed) call tells the limiter. */
export interface Feedback {
  /** HTTP status; absent when no answer arrived (network failure). */
  status?: number;
  /** Answer headers (lower-case names, as undici gives them). */
  headers?: Record<string, string | string[] | undefined>;
  /** From sending to the answer's headers, in ms. */
  latencyMs?: number;
  /** Wait the service asked for on a 429 (Retry-After), in ms. */
  retryAfterMs?: number;
}

export interface ScheduleOptions {
  /** Higher runs first (p-queue priority). Default 0. Use it so that e.g. submissions are not starved by polling. */
  priority?: number;
}

export interface LimiterSnapshot {
  concurrency: number;
  inFlight: number;
  queued: number;
  /** The window's size as learned from X-RateLimit-Limit (or configured), when known. */
  limit: number | undefined;
  /** Calls the limiter believes it may still start before the reset, when known. */
  available: number | undefined;
  resetAt: number | undefined;
  pausedUntil: number;
  paused: boolean;
  /** Highest concurrency reached so far. */
  peakConcurrency: number;
  rateLimited: number;
}

function header(h: Feedback['headers'], name: string): string | undefined {
  const v = h?.[name];
  return Array.isArray(v) ? v[0] : v;
}

function int(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export class AdaptiveLimiter {
  readonly maxConcurrency: number;
  private readonly queue: PQueue;
  private readonly cfgLimit: number | undefined;
  private readonly marginMs: number;
  private readonly latencyFactor: number;
  private readonly latencySlackMs: number;
  private readonly awaitAnswerMs: number;
  private readonly wholeSecondMarginMs: number;
  private readonly now: () => number;
  private inFlight = 0;
  private available: number | undefined;
  private learnedLimit: number | undefined;
  private resetAt: number | undefined;
  private pausedUntil = 0;
  private pauseTimer: NodeJS.Timeout | undefined;
  private awaiting = false;
  private awaitTimer: NodeJS.Timeout | undefined;
  private bestLatency = Infinity;
  private avgLatency: number | undefined;
  private peak: number;
  private rateLimited = 0;
  private closed = false;
  // Lets close() reject the calls still waiting, instead of leaving their promises pending for ever.
  private readonly abort = new AbortController();

  constructor(opts: LimiterOptions = {}) {
    this.maxConcurrency = Math.max(1, Math.floor(opts.maxConcurrency ?? 16));
    const initial = Math.min(this.maxConcurrency, Math.max(1, Math.floor(opts.initialConcurrency ?? 1)));
    this.queue = new PQueue({ concurrency: initial });
    this.peak = initial;
    this.cfgLimit = opts.limit;
    this.marginMs = opts.marginMs ?? 20;
    this.latencyFactor = opts.latencyFactor ?? 3;
    this.latencySlackMs = opts.latencySlackMs ?? 100;
    this.awaitAnswerMs = opts.awaitAnswerMs ?? 1000;
    this.wholeSecondMarginMs = opts.wholeSecondMarginMs ?? 1000;
    this.now = opts.now ?? Date.now;
    setMaxListeners(0, this.abort.signal);
  }

  /**
   * Run `fn` when the budget allows. `fn` receives `report`, to be called as soon as the answer's headers
   * arrive (so that the budget is refreshed before the body is read); a call that ends without reporting
   * counts as an answer without headers.
   */
  schedule<T>(fn: (report: (fb: Feedback) => void) => Promise<T>, opts: ScheduleOptions = {}): Promise<T> {
    return this.queue.add(async () => {
      // Runs synchronously inside p-queue's dequeue loop, so a pause taken here stops the loop at once.
      this.onStart();
      let reported = false;
      const report = (fb: Feedback): void => {
        if (reported) return;
        reported = true;
        this.onAnswer(fb);
      };
      try {
        return await fn(report);
      } finally {
        report({});
      }
    }, { priority: opts.priority ?? 0, signal: this.abort.signal });
  }

  /** Hold every call until `at` (epoch ms). A shorter pause never cuts a longer one short. */
  pauseUntil(at: number): void {
    if (this.closed || at <= this.pausedUntil || at <= this.now()) return;
    this.pausedUntil = at;
    this.queue.pause();
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = setTimeout(() => this.endPause(), at - this.now());
  }

  snapshot(): LimiterSnapshot {
    return {
      concurrency: this.queue.concurrency,
      inFlight: this.inFlight,
      queued: this.queue.size,
      limit: this.effectiveLimit(),
      available: this.available,
      resetAt: this.resetAt,
      pausedUntil: this.pausedUntil,
      paused: this.queue.isPaused,
      peakConcurrency: this.peak,
      rateLimited: this.rateLimited,
    };
  }

  /** Resolves when nothing is queued or running. */
  onIdle(): Promise<void> {
    return this.queue.onIdle();
  }

  /** Rejects queued calls with API_CLOSED and drops the timers. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort(new ApiError(API_CODES.closed, 'the API client was closed before the call was sent'));
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    if (this.awaitTimer) clearTimeout(this.awaitTimer);
    this.pauseTimer = this.awaitTimer = undefined;
  }

  private effectiveLimit(): number | undefined {
    if (this.cfgLimit === undefined) return this.learnedLimit;
    return this.learnedLimit === undefined ? this.cfgLimit : Math.min(this.cfgLimit, this.learnedLimit);
  }

  private onStart(): void {
    this.inFlight++;
    if (this.available === undefined) return;
    this.available--;
    if (this.available <= 0) this.blockOnBudget();
  }

  private blockOnBudget(): void {
    const now = this.now();
    if (this.resetAt !== undefined && this.resetAt > now) {
      this.pauseUntil(this.resetAt + this.marginMs);
      return;
    }
    // The reset already passed, so some slot has freed, but how many is unknown: wait for an answer in flight
    // (which brings fresh figures) rather than guess; with nothing in flight, probe with one call.
    if (this.inFlight === 0) {
      this.available = 1;
      this.awaiting = false;
      this.resume();
      return;
    }
    this.awaiting = true;
    this.queue.pause();
    if (this.awaitTimer) clearTimeout(this.awaitTimer);
    this.awaitTimer = setTimeout(() => {
      this.awaitTimer = undefined;
      if (!this.awaiting) return;
      this.awaiting = false;
      if ((this.available ?? 1) <= 0) this.available = 1;
      this.resume();
    }, this.awaitAnswerMs);
  }

  private endPause(): void {
    this.pauseTimer = undefined;
    this.pausedUntil = 0;
    // At the reset the oldest call has left the window: one slot at least is free. The probe's answer
    // tells how many more.
    if (this.available !== undefined && this.available <= 0) this.available = 1;
    this.resume();
  }

  private resume(): void {
    if (this.closed || this.awaiting || this.pausedUntil > this.now()) return;
    this.queue.start();
  }

  private onAnswer(fb: Feedback): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const now = this.now();
    const limit = int(header(fb.headers, 'x-ratelimit-limit'));
    const remaining = int(header(fb.headers, 'x-ratelimit-remaining'));
    const rawReset = header(fb.headers, 'x-ratelimit-reset');
    let reset = parseResetAt(rawReset, now);
    // A reset in whole seconds may have been rounded down by the service: resuming at it could be up to a
    // second early and earn a 429 per window. Waiting the extra second costs at most 1 s per window (under
    // 2% of a 60 s window); a reset given with a fraction is taken as exact.
    if (reset !== undefined && rawReset !== undefined && !rawReset.includes('.')) reset += this.wholeSecondMarginMs;
    if (limit !== undefined && limit > 0) this.learnedLimit = limit;
    if (remaining !== undefined) {
      let left = remaining;
      // A configured ceiling below the service's limit: what we used is limit - remaining, so what we may
      // still use is the ceiling minus that.
      if (this.cfgLimit !== undefined && limit !== undefined) left = Math.min(left, this.cfgLimit - (limit - remaining));
      this.available = left - this.inFlight;
    }
    if (reset !== undefined) this.resetAt = reset;
    if (fb.latencyMs !== undefined && fb.status !== undefined) this.observeLatency(fb.latencyMs);

    if (fb.status === 429) {
      this.rateLimited++;
      this.queue.concurrency = Math.max(1, Math.floor(this.queue.concurrency / 2));
      const resetWait = this.resetAt !== undefined ? this.resetAt - now : 0;
      const wait = Math.max(fb.retryAfterMs ?? 0, resetWait, 0);
      this.available = Math.min(this.available ?? 0, 0);
      this.pauseUntil(now + Math.max(wait, 100) + this.marginMs);
      return;
    }
    if (this.awaiting && remaining !== undefined) {
      this.awaiting = false;
      if (this.awaitTimer) clearTimeout(this.awaitTimer);
      this.awaitTimer = undefined;
    }
    if (this.available !== undefined && this.available <= 0) {
      this.blockOnBudget();
      return;
    }
    if (fb.status !== undefined && fb.status < 500) this.adjustConcurrency();
    this.resume();
  }

  private observeLatency(ms: number): void {
    this.bestLatency = Math.min(this.bestLatency, ms);
    this.avgLatency = this.avgLatency === undefined ? ms : this.avgLatency * 0.8 + ms * 0.2;
  }

  private adjustConcurrency(): void {
    const c = this.queue.concurrency;
    const ok = this.bestLatency * this.latencyFactor + this.latencySlackMs;
    if (this.avgLatency !== undefined && this.avgLatency > 2 * ok) {
      if (c > 1) this.queue.concurrency = c - 1;
      return;
    }
    const limit = this.effectiveLimit();
    const cap = Math.min(this.maxConcurrency, limit ?? this.maxConcurrency);
    const budgetAllows = this.available === undefined ? limit === undefined : this.available > c;
    const demand = this.queue.size > 0;
    const latencyAllows = this.avgLatency === undefined || this.avgLatency <= ok;
    if (c < cap && budgetAllows && demand && latencyAllows) {
      this.queue.concurrency = c + 1;
      this.peak = Math.max(this.peak, c + 1);
    }
  }
}
