import {
  EMPTY_BUDGET, budgetAfterRefusal, budgetAfterStart, budgetFromAnswer, effectiveLimit, fallbackReadyAt, foreignFromAnswer, mirrorFree,
  mirrorReadyAt, type Budget, type BudgetOptions,
} from './call-budget.js';
import { inFlight, logEnd, logStart, ownLeaving, ownSince, pruneLog, trialInFlight, type CallLog, type SentCall } from './call-log.js';
import {
  adjustConcurrency, concurrencyOf, halveConcurrency, initialConcurrency, observeLatency, type Concurrency, type ConcurrencyOptions,
} from './concurrency.js';
import { explorers, learnedLimit, limitAfterAcceptance, limitAfterRefusal, type LimitEstimate } from './limit-estimate.js';
import type { RateHeaders } from './rate-headers.js';
import { learnWindow, refuteWindow, windowInUse, type WindowEstimate, type WindowMargins } from './window-estimate.js';

// The whole limiter as a value with pure transitions: a call starts, a call is answered, the next start is
// decided, a pause is taken. The clock is an argument; the p-queue shell (../rate-limit.ts) holds the value,
// applies `concurrency.current` and sleeps until `nextStart` says.
//
// The window is a sliding one: each call frees its slot exactly W after the service counted it. So once the
// first L calls have gone, the best a client can do is to mirror its own past: send the next call as soon as
// the call it made W earlier leaves the window (call-log.ts, window-estimate.ts, call-budget.ts). A 429 is an
// exception (the model was wrong, or someone else uses the key): concurrency halves, the bound on W widens by
// a second (unless it was a trial of the guess), and every call waits for what the service asked.
//
// Until an answer names when a slot frees (a Reset or a Retry-After header), the limiter paces itself: the
// provider documents neither (REFERENCE.md). W is then the one believed (`windowMs`, the documented 60 s by
// default) unless the count proves it shorter; L is the Limit header, or learned from the first refusal
// (limit-estimate.ts); and a 429 pauses until the oldest of our calls in the window leaves it, a wait of at
// most W. Once a service has named a time, its word paces as it always did.

export interface LimiterConfig extends BudgetOptions, ConcurrencyOptions, WindowMargins {
  /** Longest wait taken on the service's word (Retry-After, or a Reset after a 429), in ms. */
  maxPauseMs: number;
  /** The window believed while no answer has named a time, in ms. */
  windowMs: number;
}

export interface LimiterState {
  readonly log: CallLog;
  readonly nextId: number;
  readonly window: WindowEstimate;
  /** The W believed while the service names no time: `windowMs`, lengthened by the 429s it let out. */
  readonly believedWindowMs: number;
  /** Some answer carried a Reset or a Retry-After: the service's word paces. */
  readonly timesNamed: boolean;
  /** L as learned while the service names no time and sends no Limit. */
  readonly limits: LimitEstimate;
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
interface Answer {
  /** HTTP status; absent when no answer arrived. */
  status?: number;
  rate: RateHeaders;
  /** From sending to the answer's headers, in ms. */
  latencyMs?: number;
}

export function initialState(cfg: LimiterConfig, initial: number): LimiterState {
  return {
    log: [], nextId: 0, window: {}, believedWindowMs: cfg.windowMs, timesNamed: false, limits: {}, budget: EMPTY_BUDGET,
    concurrency: initialConcurrency(cfg.maxConcurrency, initial), pausedUntil: 0, nextIsTrial: false, rateLimited: 0,
  };
}

/** The W paced by: the proven bound, or while the service names no time, the one believed when shorter. */
export function pacingWindow(s: LimiterState): number | undefined {
  return windowInUse(s.window, s.timesNamed ? undefined : s.believedWindowMs);
}

/** L is being learned: the service names no time and sends no Limit. */
function learningLimit(s: LimiterState): boolean {
  return !s.timesNamed && s.budget.limit === undefined;
}

/** L as paced by: the service's Limit, or while it names no time and sends none, the one learned; under the ceiling. */
function pacingLimit(cfg: LimiterConfig, s: LimiterState, now: number): number | undefined {
  if (!learningLimit(s)) return effectiveLimit(s.budget, cfg);
  return effectiveLimit({ limit: learnedLimit(s.limits, pacingWindow(s) ?? s.believedWindowMs, now) }, cfg);
}

/** Calls let out at once to find L, while no refusal has taught it and no ceiling is configured. */
function exploring(cfg: LimiterConfig, s: LimiterState, now: number): number | undefined {
  if (!learningLimit(s) || cfg.limit !== undefined) return undefined;
  return explorers(s.limits, pacingWindow(s) ?? s.believedWindowMs, now, cfg.maxConcurrency);
}

/** L as known (told, configured or learned from a refusal), not the calls let out to find it. */
export function knownLimit(cfg: LimiterConfig, s: LimiterState): number | undefined {
  return effectiveLimit(learningLimit(s) ? { limit: s.limits.hi } : s.budget, cfg);
}

/** The window is known well enough to mirror our own calls one window later. */
function mirroring(cfg: LimiterConfig, s: LimiterState, now: number): boolean {
  return pacingWindow(s) !== undefined && pacingLimit(cfg, s, now) !== undefined;
}

/** Calls the limiter believes it may start now, when known. */
export function availableNow(cfg: LimiterConfig, s: LimiterState, now: number): number | undefined {
  const w = pacingWindow(s);
  const limit = pacingLimit(cfg, s, now);
  return w !== undefined && limit !== undefined ? mirrorFree(s.budget, s.log, w, cfg, now, limit) : s.budget.available;
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
      budget: budgetAfterStart(s.budget, mirroring(cfg, s, now)),
    },
  };
}

/** Call `id` was answered (or failed) now; `demand` says callers are waiting. */
export function answerCall(cfg: LimiterConfig, s: LimiterState, id: number, a: Answer, now: number, demand: boolean): LimiterState {
  const timesNamed = s.timesNamed || a.rate.namesTime === true;
  // The documented dialect names no time and counts refused calls against the window (REFERENCE.md); a service
  // that names times (the spec's reading, the sandbox) does not count them, and holding their slots against it
  // cost a whole window per refused trial (rate use 0.80 where 0.98 is held).
  const ended = logEnd(s.log, id, now, a.status, !timesNamed);
  const sent = ended.call;
  if (sent === undefined) return s;
  const log = ended.log;
  const { limit, remaining } = a.rate;
  // A Reset in whole seconds may have been rounded down by the service (docs/dialect-and-spec-gaps.md, "Spec gaps"): count it as up
  // to `wholeSecondMarginMs` later; a Reset given with a fraction is taken as exact.
  const resetAt = a.rate.resetAt === undefined ? undefined : a.rate.resetAt + (a.rate.resetWholeSecond ? cfg.wholeSecondMarginMs : 0);
  let budget = budgetFromAnswer(s.budget, { limit, remaining, resetAt, refused: a.status === 429 }, inFlight(log), cfg);
  let window = s.window;
  if (a.status !== undefined && a.status !== 429 && limit !== undefined && remaining !== undefined) {
    const inWindow = limit - remaining;
    const reset = a.rate.resetAt === undefined ? undefined : { at: a.rate.resetAt, wholeSecond: a.rate.resetWholeSecond };
    window = learnWindow(window, log, sent, inWindow, reset, cfg, now);
    const w = pacingWindow({ ...s, timesNamed, window });
    if (w !== undefined) budget = foreignFromAnswer(budget, log, sent, w, inWindow, resetAt, cfg);
  }
  let next: LimiterState = { ...s, log, timesNamed, window, budget };
  const w = pacingWindow(next);
  // Without a Limit, while no time is named, each verdict teaches L (limit-estimate.ts).
  const learning = learningLimit(next) && w !== undefined && a.status !== undefined;
  if (learning && a.status !== 429) next = { ...next, limits: limitAfterAcceptance(next.limits, log, sent, w) };
  if (learning && a.status === 429) next = { ...next, limits: limitAfterRefusal(next.limits, log, sent, w, now) };
  const concurrency = a.latencyMs !== undefined && a.status !== undefined ? observeLatency(s.concurrency, a.latencyMs) : s.concurrency;
  next = { ...next, log: pruneLog(log, now, w, pacingLimit(cfg, next, now)), concurrency };
  if (a.status === 429) return afterRefusal(cfg, s, next, log, sent, a.rate, learning, now);
  if (a.status !== undefined && a.status < 500) return afterAcceptance(cfg, next, demand, now);
  return next;
}

/**
 * What a 429 does to the state `next` its answer made of `s`: it teaches (the window, or the believed W), halves
 * concurrency and pauses every call. `log` is the log with the refused call ended, before pruning.
 */
function afterRefusal(cfg: LimiterConfig, s: LimiterState, next: LimiterState, log: CallLog, sent: SentCall, rate: RateHeaders,
  learning: boolean, now: number): LimiterState {
  const { budget, window } = next;
  // What the refusal teaches: with a time named, the window (refuteWindow); without one, L when it was not
  // told (answerCall), else the model let a call out too early and W is trusted a second less.
  if (next.timesNamed) next = { ...next, window: refuteWindow(window, sent.trial === true) };
  else if (!learning) next = { ...next, window: refuteWindow(window, false), believedWindowMs: s.believedWindowMs + 1000 };
  // Retry-After is the service's word for this very refusal: honoured whether shorter or longer than the
  // Reset. Without it, the last Reset. Without either (the documented dialect), nothing says when a slot
  // frees: every call waits until the oldest of ours in the window leaves it, at most W after this refusal,
  // never a fixed guess that storms or stalls. Never longer than `maxPauseMs` (a lie must not hold the night).
  // A refusal the told Limit says cannot be the window's is passing, whatever a Reset says of the window: it
  // is waited out as if the service had said a second (the budget too, which would otherwise wait for the Reset).
  const passing = rate.retryAfterMs === undefined && notTheWindow(s, log, now);
  const named = rate.retryAfterMs ?? (passing ? NOT_THE_WINDOW_PAUSE_MS : undefined);
  const asked = named ?? (budget.resetAt !== undefined ? Math.max(0, budget.resetAt - now) : Math.max(0, oldestLeaves(next, log, now) - now));
  const wait = Math.min(asked, cfg.maxPauseMs);
  next = {
    ...next,
    rateLimited: s.rateLimited + 1,
    concurrency: halveConcurrency(next.concurrency),
    budget: budgetAfterRefusal(budget, named === undefined ? undefined : wait, now, cfg),
  };
  return pauseUntil(next, now + Math.max(wait, 100) + cfg.marginMs, now);
}

/** What an answer the service accepted (or refused for a reason of the call's own) does to concurrency. */
function afterAcceptance(cfg: LimiterConfig, next: LimiterState, demand: boolean, now: number): LimiterState {
  let concurrency = adjustConcurrency(next.concurrency, { free: availableNow(cfg, next, now), limit: pacingLimit(cfg, next, now), demand }, cfg);
  // While L is sought, exactly the explorers fly, whatever the growth rule says.
  const k = exploring(cfg, next, now);
  if (k !== undefined) concurrency = concurrencyOf(concurrency, k, cfg);
  return { ...next, concurrency };
}

/** The pause after a 429 that cannot be the window's (notTheWindow): a passing refusal, not a full window. */
const NOT_THE_WINDOW_PAUSE_MS = 1_000;

/**
 * Whether a 429 that names no time cannot be the window's: the service told its Limit, and our calls in the
 * window with the others' it reported are under nine tenths of it. A refusal then is passing (an overloaded
 * front, a fault): waiting for the Reset or a whole window for it cost a night of 29 documents three minutes
 * (three 60 s pauses against a limit of 100,000, the every-fault test).
 */
function notTheWindow(s: LimiterState, log: CallLog, now: number): boolean {
  const told = s.budget.limit;
  if (told === undefined) return false;
  const w = pacingWindow(s) ?? s.believedWindowMs;
  return ownSince(log, now - w) + s.budget.foreign < told * 0.9;
}

/**
 * When the oldest of our calls that may be in the window leaves it; at most W away, since the refused call just
 * answered holds its slot in the documented dialect (and is the fallback otherwise).
 */
function oldestLeaves(s: LimiterState, log: CallLog, now: number): number {
  const w = pacingWindow(s) ?? s.believedWindowMs;
  return ownLeaving(log, w, 0, now).find((t) => t !== Infinity) ?? now + w;
}

/** Hold every call until `at`. A shorter pause never cuts a longer one short. */
export function pauseUntil(s: LimiterState, at: number, now: number): LimiterState {
  return at <= s.pausedUntil || at <= now ? s : { ...s, pausedUntil: at };
}

/** When the next call may start (`at` now or earlier: at once), and the state deciding it leaves. */
export function nextStart(cfg: LimiterConfig, s: LimiterState, now: number): { state: LimiterState; at: number } {
  if (s.pausedUntil > now) return { state: s, at: s.pausedUntil };
  const flying = inFlight(s.log);
  // Finding L: k calls in flight at a time, so that the first refusal costs at most k 429s.
  const k = exploring(cfg, s, now);
  if (k !== undefined) return { state: s, at: flying < k ? now : now + cfg.awaitAnswerMs };
  const w = pacingWindow(s);
  const limit = pacingLimit(cfg, s, now);
  if (w === undefined || limit === undefined) {
    const d = fallbackReadyAt(s.budget, flying, cfg, now);
    return { state: { ...s, budget: d.budget }, at: d.at };
  }
  const safe = mirrorReadyAt(s.budget, s.log, w, flying, cfg, now, limit);
  const afterSafe = { ...s, budget: safe.budget };
  // Trials only in a window our own log explains: a foreign call would make the count prove nothing.
  if (safe.at <= now || s.window.guess === undefined || trialInFlight(s.log) || safe.budget.foreign > 0) return { state: afterSafe, at: safe.at };
  // The guess would let a call out before the safe bound: one call goes alone, and its answer (the count of
  // the window) proves the guess or, as a 429, refutes it.
  const guessed = mirrorReadyAt(safe.budget, s.log, s.window.guess, flying, cfg, now, limit);
  if (guessed.at > now) return { state: { ...s, budget: guessed.budget }, at: Math.min(guessed.at, safe.at) };
  return { state: { ...s, budget: guessed.budget, nextIsTrial: true }, at: now };
}
