import PQueue from 'p-queue';
import { BACKOFF_DEFAULTS } from './backoff.js';
import { API_CODES, ApiError } from './errors.js';
import { inFlight } from './rate-limit/call-log.js';
import {
  answerCall, availableNow, initialState, knownLimit, nextStart, pacingWindow, pauseUntil, startCall, type LimiterConfig, type LimiterState,
} from './rate-limit/limiter-state.js';
import { readRateHeaders } from './rate-limit/rate-headers.js';

// One limiter for every call made with the key: the service counts all four base addresses against the same
// sliding window, so they must share one budget. This file is the shell: it holds the limiter's state (a
// value with pure transitions, rate-limit/limiter-state.ts), feeds it the clock and the answers, and steers
// p-queue with pause()/start() and `concurrency`, sleeping on one timer until the next call may start.

/** The provider's documented window: a sliding 60 s (REFERENCE.md, "The provider's documented dialect"). */
const DOCUMENTED_WINDOW_MS = 60_000;

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
  /**
   * Extra wait after the time a slot is computed to free (W after the answer of the call that held it, or the
   * Reset), absorbing timer and clock granularity, in ms. Default 20.
   */
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
  /**
   * The key's window as believed while the service names no time (no X-RateLimit-Reset, no Retry-After: the
   * provider's documented dialect), in ms. Default 60 000, the documented sliding minute (REFERENCE.md); an
   * answer's count may prove it shorter, and a 429 it let out lengthens it by a second.
   */
  windowMs?: number;
  /** How long to wait for an in-flight answer to refresh a spent budget whose reset time already passed, in ms. Default 1000. */
  awaitAnswerMs?: number;
  /**
   * Longest pause taken on the service's word (a 429's Retry-After, or its Reset), in ms; an X-RateLimit-Reset
   * further ahead is not believed. Default 300 000, the backoff's `maxWaitMs`, beyond which a call gives up
   * rather than wait.
   */
  maxPauseMs?: number;
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
  /** Wait the service asked for on a 429 (Retry-After), in ms. Default: read from `headers`. */
  retryAfterMs?: number;
}

interface ScheduleOptions {
  /** Higher runs first (p-queue priority). Default 0. Use it so that e.g. submissions are not starved by polling. */
  priority?: number;
}

interface LimiterSnapshot {
  concurrency: number;
  inFlight: number;
  queued: number;
  /**
   * The window's size as learned from X-RateLimit-Limit (or configured), or, from a service that names no time
   * and sends no Limit, from its first refusal; when known.
   */
  limit: number | undefined;
  /** Calls the limiter believes it may still start now, when known. */
  available: number | undefined;
  resetAt: number | undefined;
  pausedUntil: number;
  paused: boolean;
  /** Highest concurrency reached so far. */
  peakConcurrency: number;
  rateLimited: number;
  /**
   * The window's length paced by, in ms, when known: the upper bound learned from the answers, or, while the
   * service names no time, the believed one when shorter.
   */
  windowMs: number | undefined;
  /** No answer has named when a slot frees (Reset or Retry-After): the limiter paces itself. */
  selfPaced: boolean;
  /** Calls in the service's window that the limiter's own log does not explain (another user of the key). */
  foreign: number;
}

export class AdaptiveLimiter {
  readonly maxConcurrency: number;
  private readonly queue: PQueue;
  private readonly cfg: LimiterConfig;
  private readonly now: () => number;
  private state: LimiterState;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  private closed = false;
  // Lets close() reject the calls still waiting, instead of leaving their promises pending for ever. One signal per
  // waiting call, dropped as it starts: a call already running ends with its own answer (or is cut off by the
  // HTTP client), never with "closed before it was sent".
  private readonly waiting = new Set<AbortController>();

  constructor(opts: LimiterOptions = {}) {
    this.maxConcurrency = Math.max(1, Math.floor(opts.maxConcurrency ?? 16));
    this.cfg = {
      maxConcurrency: this.maxConcurrency,
      limit: opts.limit,
      marginMs: opts.marginMs ?? 20,
      latencyFactor: opts.latencyFactor ?? 3,
      latencySlackMs: opts.latencySlackMs ?? 100,
      awaitAnswerMs: opts.awaitAnswerMs ?? 1000,
      wholeSecondMarginMs: opts.wholeSecondMarginMs ?? 1000,
      maxPauseMs: opts.maxPauseMs ?? BACKOFF_DEFAULTS.maxWaitMs,
      windowMs: opts.windowMs ?? DOCUMENTED_WINDOW_MS,
    };
    this.now = opts.now ?? Date.now;
    this.state = initialState(this.cfg, opts.initialConcurrency ?? 1);
    this.queue = new PQueue({ concurrency: this.state.concurrency.current });
  }

  /**
   * Run `fn` when the budget allows. `fn` receives `report`, to be called as soon as the answer's headers
   * arrive (so that the budget is refreshed before the body is read); a call that ends without reporting
   * counts as an answer without headers.
   */
  schedule<T>(fn: (report: (fb: Feedback) => void) => Promise<T>, opts: ScheduleOptions = {}): Promise<T> {
    const waiting = new AbortController();
    if (this.closed) waiting.abort(closedError());
    this.waiting.add(waiting);
    return this.queue.add(async () => {
      this.waiting.delete(waiting);
      // Runs synchronously inside p-queue's dequeue loop, so a pause taken here stops the loop at once.
      const started = startCall(this.cfg, this.state, this.now());
      this.state = started.state;
      this.gate();
      let reported = false;
      const report = (fb: Feedback): void => {
        if (reported) return;
        reported = true;
        this.onAnswer(started.id, fb);
      };
      try {
        return await fn(report);
      } finally {
        report({});
      }
    }, { priority: opts.priority ?? 0, signal: waiting.signal }).finally(() => this.waiting.delete(waiting));
  }

  /** Hold every call until `at` (epoch ms). A shorter pause never cuts a longer one short. */
  pauseUntil(at: number): void {
    if (this.closed) return;
    const before = this.state;
    this.state = pauseUntil(this.state, at, this.now());
    if (this.state !== before) this.gate();
  }

  snapshot(): LimiterSnapshot {
    const s = this.state;
    return {
      concurrency: this.queue.concurrency,
      inFlight: inFlight(s.log),
      queued: this.queue.size,
      limit: knownLimit(this.cfg, s),
      available: availableNow(this.cfg, s, this.now()),
      resetAt: s.budget.resetAt,
      pausedUntil: s.pausedUntil,
      paused: this.queue.isPaused,
      peakConcurrency: s.concurrency.peak,
      rateLimited: s.rateLimited,
      windowMs: pacingWindow(s),
      selfPaced: !s.timesNamed,
      foreign: s.budget.foreign,
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
    for (const w of this.waiting) w.abort(closedError());
    this.waiting.clear();
    this.clearTimer();
  }

  private onAnswer(id: number, fb: Feedback): void {
    const now = this.now();
    // The headers are read here, once per answer; every later step works on the checked figures.
    const read = readRateHeaders(fb.headers, now, { maxResetAheadMs: this.cfg.maxPauseMs });
    const rate = fb.retryAfterMs === undefined ? read : { ...read, retryAfterMs: fb.retryAfterMs, namesTime: true as const };
    this.state = answerCall(this.cfg, this.state, id, { status: fb.status, rate, latencyMs: fb.latencyMs }, now, this.queue.size > 0);
    if (this.closed) return;
    if (this.queue.concurrency !== this.state.concurrency.current) this.queue.concurrency = this.state.concurrency.current;
    this.gate();
  }

  /** Starts the queue when a call may go now, otherwise pauses it until the time one may. */
  private gate(): void {
    if (this.closed) return;
    const now = this.now();
    const next = nextStart(this.cfg, this.state, now);
    this.state = next.state;
    const wake = next.at;
    if (wake <= now) {
      this.clearTimer();
      this.queue.start();
      return;
    }
    this.queue.pause();
    if (this.timer && this.timerAt === wake) return;
    this.clearTimer();
    this.timerAt = wake;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.gate();
    }, Math.max(0, wake - now));
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function closedError(): ApiError {
  return new ApiError(API_CODES.closed, 'the API client was closed before the call was sent', { notProcessed: true });
}
