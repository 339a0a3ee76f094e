import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import { parseResetAt } from './backoff.js';
import { API_CODES, ApiError } from './errors.js';

// One limiter for every call made with the key: the service counts all four base addresses against the same
// sliding window, so they must share one budget.
//
// The window is a sliding one: each call frees its slot exactly W after the service counted it. So once the
// first L calls have gone, the best a client can do is to mirror its own past: send the next call as soon as
// the call it made W earlier leaves the window. The limiter therefore keeps a log of its own calls and learns
// L (X-RateLimit-Limit) and an upper bound of W from the answers, never from a 429. A call is counted somewhere
// between its start and its answer, so its slot surely frees W after the answer: the log reckons from there,
// which costs one answer latency per window and holds however slow the request was on its way in.
//   - An answer whose Remaining says the window holds only that call dates the window: its Reset is when that
//     very call leaves, so W <= Reset - (its start). Reset in whole seconds may be rounded either way
//     (README, "Spec gaps"), so `wholeSecondMarginMs` is added and the bound holds for both.
//   - Remaining alone bounds W once calls leave the window: if an answer reports n calls in the window while
//     n of ours were surely counted after call m (started after m's answer, answered before this one
//     started), m has left, so W <= (this answer) - (m's start). No rounding assumption; it tightens the bound
//     whenever calls leave the window while others arrive.
//   - The second margin would make every window a second late. Windows are whole seconds in practice (180 per
//     60 s) and a Reset rounded up, as its meaning ("a slot frees" then) implies, puts W at the whole second
//     at or below Reset - start. That guess is tried by one call alone, sent before the safe bound allows;
//     its count proves it (the rule above) or its 429 refutes it and the next second is tried. Against the
//     documented header no trial is refused; against a service rounding down, one is.
// Knowing W, the budget at any moment is L minus our own calls that may still be in the window, minus what
// Remaining shows beyond our own log (another program on the key, or an earlier run): those are waited out
// until the Reset, the only thing known about them. Before a bound on W is known, the limiter falls back on
// Remaining minus the calls in flight and pauses until the Reset when that is spent.
//
// A 429 is an exception (the model was wrong, or someone else uses the key): concurrency halves, the bound on
// W widens by a second (unless it was a trial of the guess), and the queue pauses for what the service asked.
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
  /** Calls the limiter believes it may still start now, when known. */
  available: number | undefined;
  resetAt: number | undefined;
  pausedUntil: number;
  paused: boolean;
  /** Highest concurrency reached so far. */
  peakConcurrency: number;
  rateLimited: number;
  /** Upper bound of the window's length learned from the answers, in ms, when known. */
  windowMs: number | undefined;
  /** Calls in the service's window that the limiter's own log does not explain (another user of the key). */
  foreign: number;
}

/** One call started by this limiter. */
interface Sent {
  /** When it was started, epoch ms. */
  at: number;
  /**
   * When its answer's headers arrived, or when it failed without one; undefined while in flight. The service
   * counted the call (if at all) before this, so its slot surely frees W after it.
   */
  endedAt?: number;
  /** Answered with a status other than 429: surely counted. */
  counted?: boolean;
  /** Answered 429: the service did not count it. */
  refused?: boolean;
  /** Sent alone on the guess of a whole-second window, before the safe bound allowed it. */
  trial?: boolean;
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

/**
 * Upper bound of W from Remaining alone (see the header comment), or undefined when the answer proves no call
 * of the log left the window. `log` is ordered by start; `j` is the answered call, `inWindow` the service's count.
 */
export function windowBoundFromCount(log: readonly Sent[], j: Sent, inWindow: number, answeredAt: number): number | undefined {
  for (let m = log.length - 1; m >= 0; m--) {
    const cand = log[m];
    if (cand === j || !cand.counted || cand.endedAt === undefined || cand.endedAt >= j.at) continue;
    let surelyAfter = 1;
    for (const i of log) {
      if (i !== cand && i.counted && i.at > cand.endedAt && i.endedAt !== undefined && i.endedAt < j.at) surelyAfter++;
    }
    if (surelyAfter >= inWindow) return answeredAt - cand.at;
  }
  return undefined;
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
  /** Our own calls, by start time; the ones that may still matter to the window. */
  private log: Sent[] = [];
  private windowHi: number | undefined;
  /** A whole-second window length below `windowHi`, tried by one call at a time until an answer proves it. */
  private windowGuess: number | undefined;
  private trialNext = false;
  private trialInFlight = false;
  private foreign = 0;
  private foreignUntil: number | undefined;
  /** Before W is known: Remaining minus the calls in flight, spent by each start. */
  private available: number | undefined;
  private learnedLimit: number | undefined;
  private resetAt: number | undefined;
  /** The Reset already spent on a probe call, so that one stale Reset does not let a second probe out. */
  private probedReset: number | undefined;
  private awaitDeadline: number | undefined;
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
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
      const sent = this.onStart();
      let reported = false;
      const report = (fb: Feedback): void => {
        if (reported) return;
        reported = true;
        this.onAnswer(sent, fb);
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
    this.gate();
  }

  snapshot(): LimiterSnapshot {
    const now = this.now();
    return {
      concurrency: this.queue.concurrency,
      inFlight: this.inFlight,
      queued: this.queue.size,
      limit: this.effectiveLimit(),
      available: this.mirroring() ? this.mirrorFree(now) : this.available,
      resetAt: this.resetAt,
      pausedUntil: this.pausedUntil,
      paused: this.queue.isPaused,
      peakConcurrency: this.peak,
      rateLimited: this.rateLimited,
      windowMs: this.windowHi,
      foreign: this.foreign,
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
    this.clearTimer();
  }

  private effectiveLimit(): number | undefined {
    if (this.cfgLimit === undefined) return this.learnedLimit;
    return this.learnedLimit === undefined ? this.cfgLimit : Math.min(this.cfgLimit, this.learnedLimit);
  }

  private mirroring(): boolean {
    return this.windowHi !== undefined && this.effectiveLimit() !== undefined;
  }

  /**
   * When each of our calls that may still be in a window of `windowMs` leaves it, soonest first (a refused
   * call was never counted; one in flight leaves at an unknown time, after its answer).
   */
  private ownLeaving(windowMs: number, now: number): number[] {
    const out: number[] = [];
    for (let i = this.log.length - 1; i >= 0; i--) {
      const e = this.log[i];
      if (e.refused) continue;
      const leaves = e.endedAt === undefined ? Infinity : e.endedAt + windowMs + this.marginMs;
      if (leaves > now) out.push(leaves);
      else if (e.at + 2 * windowMs < now) break;
    }
    return out.sort((a, b) => a - b);
  }

  private mirrorFree(now: number): number {
    return (this.effectiveLimit() ?? 0) - this.foreign - this.ownLeaving(this.windowHi ?? 0, now).length;
  }

  /** When the next call may start: `now` or earlier means at once. */
  private readyAt(now: number): number {
    if (this.mirroring()) {
      const safe = this.mirrorReadyAt(this.windowHi ?? 0, now);
      // Trials only in a window our own log explains: a foreign call would make the count prove nothing.
      if (safe <= now || this.windowGuess === undefined || this.trialInFlight || this.foreign > 0) return safe;
      // The guess would let a call out before the safe bound: one call goes alone, and its answer (the
      // count of the window) proves the guess or, as a 429, refutes it.
      const guessed = this.mirrorReadyAt(this.windowGuess, now);
      if (guessed > now) return Math.min(guessed, safe);
      this.trialNext = true;
      return now;
    }
    if (this.available === undefined || this.available > 0) return now;
    if (this.resetAt !== undefined && this.resetAt + this.marginMs > now) return this.resetAt + this.marginMs;
    // The reset already passed, so some slot has freed, but how many is unknown: wait for an answer in flight
    // (which brings fresh figures) rather than guess; with nothing in flight, or no answer in time, or a
    // reset not yet spent on a probe, let one call out.
    if (this.inFlight > 0 && this.probedReset === this.resetAt) {
      this.awaitDeadline ??= now + this.awaitAnswerMs;
      if (this.awaitDeadline > now) return this.awaitDeadline;
    }
    this.awaitDeadline = undefined;
    this.probedReset = this.resetAt;
    this.available = 1;
    return now;
  }

  /** When the next call may start if the window is `windowMs` long. */
  private mirrorReadyAt(windowMs: number, now: number): number {
    const own = this.ownLeaving(windowMs, now);
    const room = (this.effectiveLimit() ?? 0) - this.foreign;
    if (own.length < room) return now;
    // Enough of our own calls leave the window in time order: wait for the one that makes room (an answer
    // still awaited gates again when it comes).
    const leave = own.length - room;
    if (leave < own.length) return own[leave] === Infinity ? now + this.awaitAnswerMs : own[leave];
    return this.foreignWait(now);
  }

  /** The window is full of calls we did not make: wait for the Reset, then let one call find out. */
  private foreignWait(now: number): number {
    if (this.foreignUntil !== undefined && this.foreignUntil > now) return this.foreignUntil;
    if (this.inFlight > 0) {
      this.awaitDeadline ??= now + this.awaitAnswerMs;
      if (this.awaitDeadline > now) return this.awaitDeadline;
    }
    this.awaitDeadline = undefined;
    this.foreignUntil = undefined;
    this.foreign = Math.max(0, this.foreign - 1);
    return now;
  }

  /** Starts the queue when a call may go now, otherwise pauses it until the time one may. */
  private gate(): void {
    if (this.closed) return;
    const now = this.now();
    const wake = this.pausedUntil > now ? this.pausedUntil : this.readyAt(now);
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

  private onStart(): Sent {
    const sent: Sent = { at: this.now() };
    if (this.trialNext) {
      sent.trial = true;
      this.trialNext = false;
      this.trialInFlight = true;
    }
    this.log.push(sent);
    this.inFlight++;
    if (!this.mirroring() && this.available !== undefined) this.available--;
    this.gate();
    return sent;
  }

  private onAnswer(sent: Sent, fb: Feedback): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const now = this.now();
    sent.endedAt = now;
    if (fb.status === 429) sent.refused = true;
    else if (fb.status !== undefined) sent.counted = true;
    if (sent.trial) this.trialInFlight = false;
    const limit = int(header(fb.headers, 'x-ratelimit-limit'));
    const remaining = int(header(fb.headers, 'x-ratelimit-remaining'));
    const rawReset = header(fb.headers, 'x-ratelimit-reset');
    let reset = parseResetAt(rawReset, now);
    // A reset in whole seconds may have been rounded down by the service (README, "Spec gaps"): count it as
    // up to `wholeSecondMarginMs` later; a reset given with a fraction is taken as exact.
    const wholeSecond = reset !== undefined && rawReset !== undefined && !rawReset.includes('.');
    if (reset !== undefined && wholeSecond) reset += this.wholeSecondMarginMs;
    if (limit !== undefined && limit > 0) this.learnedLimit = limit;
    if (reset !== undefined) this.resetAt = reset;
    if (remaining !== undefined) {
      this.awaitDeadline = undefined;
      let left = remaining;
      // A configured ceiling below the service's limit: what we used is limit - remaining, so what we may
      // still use is the ceiling minus that.
      if (this.cfgLimit !== undefined && limit !== undefined) left = Math.min(left, this.cfgLimit - (limit - remaining));
      this.available = left - this.inFlight;
    }
    if (fb.status !== undefined && fb.status !== 429 && limit !== undefined && remaining !== undefined) {
      this.learnWindow(sent, limit - remaining, reset, wholeSecond, now);
    }
    if (fb.latencyMs !== undefined && fb.status !== undefined) this.observeLatency(fb.latencyMs);
    this.prune(now);

    if (fb.status === 429) {
      this.rateLimited++;
      this.queue.concurrency = Math.max(1, Math.floor(this.queue.concurrency / 2));
      if (sent.trial) {
        // The window is longer than guessed: try the next whole second, until the guess meets the safe bound.
        const next = (this.windowGuess ?? Infinity) + 1000;
        this.windowGuess = this.windowHi !== undefined && next < this.windowHi ? next : undefined;
      } else if (this.windowHi !== undefined) {
        // The model let a call out too early: trust the bound on W a second less.
        this.windowHi += 1000;
      }
      const resetWait = this.resetAt !== undefined ? this.resetAt - now : 0;
      const wait = Math.max(fb.retryAfterMs ?? 0, resetWait, 0);
      this.available = Math.min(this.available ?? 0, 0);
      this.pauseUntil(now + Math.max(wait, 100) + this.marginMs);
      this.gate();
      return;
    }
    if (fb.status !== undefined && fb.status < 500) this.adjustConcurrency(now);
    this.gate();
  }

  /** Bounds W from one counted answer, then measures what the service counts beyond our own log. */
  private learnWindow(sent: Sent, inWindow: number, reset: number | undefined, wholeSecond: boolean, now: number): void {
    let hi = this.windowHi ?? Infinity;
    // Only this call in the window: the Reset is when this very call leaves it.
    if (inWindow === 1 && reset !== undefined && reset > sent.at) {
      hi = Math.min(hi, reset - sent.at);
      // Windows are whole seconds in practice (180 per 60 s), and a whole-second Reset rounded up, as its
      // meaning ("a slot frees" then) implies, puts W in the whole second at or below Reset - start.
      if (this.windowHi === undefined && wholeSecond && reset - this.wholeSecondMarginMs - sent.at >= 1000) {
        const guess = Math.floor((reset - this.wholeSecondMarginMs - sent.at) / 1000) * 1000;
        if (guess < hi) this.windowGuess = guess;
      }
    }
    const fromCount = windowBoundFromCount(this.log, sent, inWindow, now);
    if (fromCount !== undefined && fromCount > 0) hi = Math.min(hi, fromCount);
    if (hi !== Infinity) this.windowHi = hi;
    // A trial call that was counted settles the guess: the count bound above now holds it (or the guess was
    // moot); either way the safe bound rules from here.
    if (sent.trial || (this.windowGuess !== undefined && this.windowHi !== undefined && this.windowHi <= this.windowGuess + this.marginMs)) this.windowGuess = undefined;
    if (this.windowHi === undefined) return;
    // Our calls that may be in the window at this call's count: started before its answer, answered (or still
    // unanswered) after the window's earliest possible start.
    const earliest = sent.at - this.windowHi;
    let ours = 0;
    for (const i of this.log) if (!i.refused && (i.endedAt ?? Infinity) > earliest) ours++;
    this.foreign = Math.max(0, inWindow - ours);
    this.foreignUntil = this.foreign > 0 && reset !== undefined ? reset + this.marginMs : undefined;
  }

  /** Drops log entries that can no longer be in the window nor bound it. */
  private prune(now: number): void {
    const keep = Math.max(64, 4 * (this.learnedLimit ?? 256));
    const horizon = this.windowHi === undefined ? -Infinity : now - 2 * this.windowHi - 10_000;
    let drop = 0;
    while (drop < this.log.length && (this.log.length - drop > keep || this.log[drop].at < horizon) && this.log[drop].endedAt !== undefined) drop++;
    if (drop > 0) this.log.splice(0, drop);
  }

  private observeLatency(ms: number): void {
    this.bestLatency = Math.min(this.bestLatency, ms);
    this.avgLatency = this.avgLatency === undefined ? ms : this.avgLatency * 0.8 + ms * 0.2;
  }

  private adjustConcurrency(now: number): void {
    const c = this.queue.concurrency;
    const ok = this.bestLatency * this.latencyFactor + this.latencySlackMs;
    if (this.avgLatency !== undefined && this.avgLatency > 2 * ok) {
      if (c > 1) this.queue.concurrency = c - 1;
      return;
    }
    const limit = this.effectiveLimit();
    const cap = Math.min(this.maxConcurrency, limit ?? this.maxConcurrency);
    const free = this.mirroring() ? this.mirrorFree(now) : this.available;
    const budgetAllows = free === undefined ? limit === undefined : free > c;
    const demand = this.queue.size > 0;
    const latencyAllows = this.avgLatency === undefined || this.avgLatency <= ok;
    if (c < cap && budgetAllows && demand && latencyAllows) {
      this.queue.concurrency = c + 1;
      this.peak = Math.max(this.peak, c + 1);
    }
  }
}
