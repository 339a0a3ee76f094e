import { ownLeaving, ownSince, type CallLog, type SentCall } from './call-log.js';

// How many calls the key may still start, and when the next one may. Knowing W, the budget at any moment is
// L minus our own calls that may still be in the window, minus what Remaining shows beyond our own log
// (another program on the key, or an earlier run): those are waited out until the Reset, the only thing
// known about them. Before a bound on W is known, the budget falls back on Remaining minus the calls in
// flight, and waits for the Reset when that is spent.

export interface Budget {
  /** X-RateLimit-Limit as last answered. */
  readonly limit?: number;
  /** Before W is known: Remaining minus the calls in flight, spent by each start. */
  readonly available?: number;
  /** When a slot frees as last told (the Reset plus its whole-second margin, or a 429's Retry-After), epoch ms. */
  readonly resetAt?: number;
  /** The Reset already spent on a probe call, so that one stale Reset does not let a second probe out. */
  readonly probedReset?: number;
  /** Until when a spent budget waits for an answer in flight to bring fresh figures, epoch ms. */
  readonly awaitDeadline?: number;
  /** Calls in the service's window that our own log does not explain (another user of the key). */
  readonly foreign: number;
  /** When the foreign calls are known to have left (their Reset), epoch ms. */
  readonly foreignUntil?: number;
}

export interface BudgetOptions {
  /** Configured ceiling of calls per window, below the service's Limit. */
  limit?: number;
  /** Extra wait after a slot is computed to free, in ms. */
  marginMs: number;
  /** How long a spent budget waits for an answer in flight before it lets one call find out, in ms. */
  awaitAnswerMs: number;
}

/** What one answer tells the budget: its figures, the Reset already widened by its whole-second margin. */
interface BudgetFigures { limit?: number; remaining?: number; resetAt?: number; refused: boolean }

/** The next start: `at` now or earlier means at once; `budget` carries what deciding it spent. */
interface BudgetDecision { budget: Budget; at: number }

export const EMPTY_BUDGET: Budget = { foreign: 0 };

/** The window's size: the service's Limit (or the limit learned without one), or the configured ceiling when lower. */
export function effectiveLimit(b: Pick<Budget, 'limit'>, opts: Pick<BudgetOptions, 'limit'>): number | undefined {
  if (opts.limit === undefined) return b.limit;
  return b.limit === undefined ? opts.limit : Math.min(opts.limit, b.limit);
}

/** The budget after an answer's figures; `inFlight` counts the calls still unanswered. */
export function budgetFromAnswer(b: Budget, f: BudgetFigures, inFlight: number, opts: Pick<BudgetOptions, 'limit'>): Budget {
  const next: { -readonly [K in keyof Budget]: Budget[K] } = { ...b };
  if (f.limit !== undefined) next.limit = f.limit;
  // A Reset dates a spent budget only beside a Remaining that spent it, or on a 429. Alone it is when the
  // oldest call leaves a window whose fill is unknown: taken as the end of a spent budget, each answer would
  // push that end a window further and let one call out per window.
  if (f.resetAt !== undefined && (f.remaining !== undefined || f.refused)) next.resetAt = f.resetAt;
  if (f.remaining !== undefined) {
    next.awaitDeadline = undefined;
    let left = f.remaining;
    // A configured ceiling below the service's limit: what we used is limit - remaining, so what we may
    // still use is the ceiling minus that.
    if (opts.limit !== undefined && f.limit !== undefined) left = Math.min(left, opts.limit - (f.limit - f.remaining));
    next.available = left - inFlight;
  }
  return next;
}

/**
 * Measures what the service counts beyond our own log, at a counted answer: `inWindow` calls were in a window
 * of at most `windowMs`, of which ours are those that may have been in it.
 */
export function foreignFromAnswer(b: Budget, log: CallLog, sent: SentCall, windowMs: number, inWindow: number, resetAt: number | undefined, opts: Pick<BudgetOptions, 'marginMs'>): Budget {
  const foreign = Math.max(0, inWindow - ownSince(log, sent.at - windowMs));
  return { ...b, foreign, foreignUntil: foreign > 0 && resetAt !== undefined ? resetAt + opts.marginMs : undefined };
}

/** A call started: before W is known, it spends one of the Remaining. */
export function budgetAfterStart(b: Budget, mirroring: boolean): Budget {
  return mirroring || b.available === undefined ? b : { ...b, available: b.available - 1 };
}

/**
 * A 429: nothing is left. Its Retry-After is the service's own word on when a call may pass, so a spent
 * budget waits that long and no longer, even when an earlier Reset named a later time (issue 11: a 429 that
 * said 5 s waited for a Reset 61 s away).
 */
export function budgetAfterRefusal(b: Budget, retryAfterMs: number | undefined, now: number, opts: Pick<BudgetOptions, 'marginMs'>): Budget {
  const next: { -readonly [K in keyof Budget]: Budget[K] } = { ...b, available: Math.min(b.available ?? 0, 0) };
  if (retryAfterMs !== undefined) {
    next.resetAt = now + retryAfterMs;
    if (next.foreignUntil !== undefined) next.foreignUntil = Math.min(next.foreignUntil, now + retryAfterMs + opts.marginMs);
  }
  return next;
}

/** Calls that may start now if the window is `windowMs` long and holds `limit` calls (default: the budget's). */
export function mirrorFree(b: Budget, log: CallLog, windowMs: number, opts: BudgetOptions, now: number, limit = effectiveLimit(b, opts) ?? 0): number {
  return limit - b.foreign - ownLeaving(log, windowMs, opts.marginMs, now).length;
}

/** When the next call may start if the window is `windowMs` long and holds `limit` calls (default: the budget's). */
export function mirrorReadyAt(
  b: Budget, log: CallLog, windowMs: number, inFlight: number, opts: BudgetOptions, now: number, limit = effectiveLimit(b, opts) ?? 0,
): BudgetDecision {
  const own = ownLeaving(log, windowMs, opts.marginMs, now);
  const room = limit - b.foreign;
  if (own.length < room) return { budget: b, at: now };
  // Enough of our own calls leave the window in time order: wait for the one that makes room (an answer
  // still awaited gates again when it comes).
  const leave = own.length - room;
  if (leave < own.length) return { budget: b, at: own[leave] === Infinity ? now + opts.awaitAnswerMs : own[leave] };
  return foreignWait(b, inFlight, opts, now);
}

/** The window is full of calls we did not make: wait for their Reset, then let one call find out. */
function foreignWait(b: Budget, inFlight: number, opts: BudgetOptions, now: number): BudgetDecision {
  if (b.foreignUntil !== undefined && b.foreignUntil > now) return { budget: b, at: b.foreignUntil };
  if (inFlight > 0) {
    const deadline = b.awaitDeadline ?? now + opts.awaitAnswerMs;
    if (deadline > now) return { budget: { ...b, awaitDeadline: deadline }, at: deadline };
  }
  return { budget: { ...b, awaitDeadline: undefined, foreignUntil: undefined, foreign: Math.max(0, b.foreign - 1) }, at: now };
}

/** When the next call may start while W is unknown: Remaining is spent down, then the Reset is waited for. */
export function fallbackReadyAt(b: Budget, inFlight: number, opts: BudgetOptions, now: number): BudgetDecision {
  if (b.available === undefined || b.available > 0) return { budget: b, at: now };
  if (b.resetAt !== undefined && b.resetAt + opts.marginMs > now) return { budget: b, at: b.resetAt + opts.marginMs };
  // The reset already passed, so some slot has freed, but how many is unknown: wait for an answer in flight
  // (which brings fresh figures) rather than guess; with nothing in flight, or no answer in time, or a
  // reset not yet spent on a probe, let one call out.
  if (inFlight > 0 && b.probedReset === b.resetAt) {
    const deadline = b.awaitDeadline ?? now + opts.awaitAnswerMs;
    if (deadline > now) return { budget: { ...b, awaitDeadline: deadline }, at: deadline };
  }
  return { budget: { ...b, awaitDeadline: undefined, probedReset: b.resetAt, available: 1 }, at: now };
}
