import {
  EMPTY_BUDGET, budgetAfterRefusal, budgetAfterStart, budgetFromAnswer, effectiveLimit, fallbackReadyAt, foreignFromAnswer, mirrorFree,
  mirrorReadyAt, type Budget, type BudgetOptions,
} from './call-budget.js';
import { inFlight, logEnd, logStart, pruneLog, trialInFlight, type CallLog } from './call-log.js';
import {
  adjustConcurrency, halveConcurrency, initialConcurrency, observeLatency, type Concurrency, type ConcurrencyOptions,
} from './concurrency.js';
import type { RateHeaders } from './rate-headers.js';
import { learnWindow, refuteWindow, type WindowEstimate, type WindowMargins } from './window-estimate.js';

// The whole limiter as a value with pure transitions: a call starts, a call is answered, the next start is
// decided, a pause is taken. The clock is an argument; the p-queue shell (../rate-limit.ts) holds the value,
// applies `concurrency.current` and sleeps until `nextStart` says.
//
// The window is a sliding one: each call frees its slot exactly W after the service counted it. So once the
// first L calls have gone, the best a client can do is to mirror its own past: send the next call as soon as
// the call it made W earlier leaves the window (call-log.ts, window-estimate.ts, call-budget.ts). A 429 is an
// exception (the model was wrong, or someone else uses the key): concurrency halves, the bound on W widens by
// a second (unless it was a trial of the guess), and every call waits for what the service asked.

export interface LimiterConfig extends BudgetOptions, ConcurrencyOptions, WindowMargins {
  /** Longest wait taken on the service's word (Retry-After, or a Reset after a 429), in ms. */
  maxPauseMs: number;
}

export interface LimiterState {
  readonly log: CallLog;
  readonly nextId: number;
  readonly window: WindowEstimate;
  readonly budget: Budget;
  readonly concurrency: Concurrency;
  /** No call starts before this, epoch ms. */
  readonly pausedUntil: number;
  /** The next call to start is the trial of the window guess. */
  readonly nextIsTrial: boolean;
  /** Answers 429 so far. */
  readonly rateLimited: number;
}

/** What an answered (or failed) call reports. */
export interface Answer {
  /** HTTP status; absent when no answer arrived. */
  status?: number;
  rate: RateHeaders;
  /** From sending to the answer's headers, in ms. */
  latencyMs?: number;
}

export function initialState(cfg: LimiterConfig, initial: number): LimiterState {
  return {
    log: [], nextId: 0, window: {}, budget: EMPTY_BUDGET, concurrency: initialConcurrency(cfg.maxConcurrency, initial),
    pausedUntil: 0, nextIsTrial: false, rateLimited: 0,
  };
}

/** The window is known well enough to mirror our own calls one window later. */
export function mirroring(cfg: LimiterConfig, s: LimiterState): boolean {
  return s.window.hi !== undefined && effectiveLimit(s.budget, cfg) !== undefined;
}

/** Calls the limiter believes it may start now, when known. */
export function availableNow(cfg: LimiterConfig, s: LimiterState, now: number): number | undefined {
  return s.window.hi !== undefined && mirroring(cfg, s) ? mirrorFree(s.budget, s.log, s.window.hi, cfg, now) : s.budget.available;
}

/** A call starts now; `id` names it when it ends. */
export function startCall(cfg: LimiterConfig, s: LimiterState, now: number): { state: LimiterState; id: number } {
  const id = s.nextId;
  return {
    id,
    state: {
      ...s,
      nextId: id + 1,
      log: logStart(s.log, s.nextIsTrial ? { id, at: now, trial: true } : { id, at: now }),
      nextIsTrial: false,
      budget: budgetAfterStart(s.budget, mirroring(cfg, s)),
    },
  };
}

/** Call `id` was answered (or failed) now; `demand` says callers are waiting. */
export function answerCall(cfg: LimiterConfig, s: LimiterState, id: number, a: Answer, now: number, demand: boolean): LimiterState {
  const ended = logEnd(s.log, id, now, a.status);
  const sent = ended.call;
  if (sent === undefined) return s;
  let log = ended.log;
  const { limit, remaining } = a.rate;
  // A Reset in whole seconds may have been rounded down by the service (README, "Spec gaps"): count it as up
  // to `wholeSecondMarginMs` later; a Reset given with a fraction is taken as exact.
  const resetAt = a.rate.resetAt === undefined ? undefined : a.rate.resetAt + (a.rate.resetWholeSecond ? cfg.wholeSecondMarginMs : 0);
  let budget = budgetFromAnswer(s.budget, { limit, remaining, resetAt, refused: a.status === 429 }, inFlight(log), cfg);
  let window = s.window;
  if (a.status !== undefined && a.status !== 429 && limit !== undefined && remaining !== undefined) {
    const inWindow = limit - remaining;
    const reset = a.rate.resetAt === undefined ? undefined : { at: a.rate.resetAt, wholeSecond: a.rate.resetWholeSecond };
    window = learnWindow(window, log, sent, inWindow, reset, cfg, now);
    if (window.hi !== undefined) budget = foreignFromAnswer(budget, log, sent, window.hi, inWindow, resetAt, cfg);
  }
  let concurrency = a.latencyMs !== undefined && a.status !== undefined ? observeLatency(s.concurrency, a.latencyMs) : s.concurrency;
  log = pruneLog(log, now, window.hi, budget.limit);
  let next: LimiterState = { ...s, log, window, budget, concurrency };

  if (a.status === 429) {
    // Retry-After is the service's word for this very refusal: honoured whether shorter or longer than the
    // Reset. Without it, the last Reset; never longer than `maxPauseMs` (a lie must not hold the night).
    const asked = a.rate.retryAfterMs ?? Math.max(0, (budget.resetAt ?? now) - now);
    const wait = Math.min(asked, cfg.maxPauseMs);
    next = {
      ...next,
      rateLimited: s.rateLimited + 1,
      concurrency: halveConcurrency(concurrency),
      window: refuteWindow(window, sent.trial === true),
      budget: budgetAfterRefusal(budget, a.rate.retryAfterMs === undefined ? undefined : wait, now, cfg),
    };
    return pauseUntil(next, now + Math.max(wait, 100) + cfg.marginMs, now);
  }
  if (a.status !== undefined && a.status < 500) {
    concurrency = adjustConcurrency(concurrency, { free: availableNow(cfg, next, now), limit: effectiveLimit(budget, cfg), demand }, cfg);
    next = { ...next, concurrency };
  }
  return next;
}

/** Hold every call until `at`. A shorter pause never cuts a longer one short. */
export function pauseUntil(s: LimiterState, at: number, now: number): LimiterState {
  return at <= s.pausedUntil || at <= now ? s : { ...s, pausedUntil: at };
}

/** When the next call may start (`at` now or earlier: at once), and the state deciding it leaves. */
export function nextStart(cfg: LimiterConfig, s: LimiterState, now: number): { state: LimiterState; at: number } {
  if (s.pausedUntil > now) return { state: s, at: s.pausedUntil };
  const flying = inFlight(s.log);
  if (!mirroring(cfg, s) || s.window.hi === undefined) {
    const d = fallbackReadyAt(s.budget, flying, cfg, now);
    return { state: { ...s, budget: d.budget }, at: d.at };
  }
  const safe = mirrorReadyAt(s.budget, s.log, s.window.hi, flying, cfg, now);
  const afterSafe = { ...s, budget: safe.budget };
  // Trials only in a window our own log explains: a foreign call would make the count prove nothing.
  if (safe.at <= now || s.window.guess === undefined || trialInFlight(s.log) || safe.budget.foreign > 0) return { state: afterSafe, at: safe.at };
  // The guess would let a call out before the safe bound: one call goes alone, and its answer (the count of
  // the window) proves the guess or, as a 429, refutes it.
  const guessed = mirrorReadyAt(safe.budget, s.log, s.window.guess, flying, cfg, now);
  if (guessed.at > now) return { state: { ...s, budget: guessed.budget }, at: Math.min(guessed.at, safe.at) };
  return { state: { ...s, budget: guessed.budget, nextIsTrial: true }, at: now };
}
