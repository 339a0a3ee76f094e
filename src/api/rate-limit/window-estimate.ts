import type { CallLog, SentCall } from './call-log.js';

// The length W of the service's sliding window, learned from the answers and the limiter's own log, never
// from a 429 (REFERENCE.md: the window is the provider's, its length is not given in any header).
//   - An answer whose Remaining says the window holds only that call dates the window: its Reset is when that
//     very call leaves, so W <= Reset - (its start). Reset in whole seconds may be rounded either way
//     (docs/dialect-and-spec-gaps.md, "Spec gaps"), so the whole-second margin is added and the bound holds for both.
//   - Remaining alone bounds W once calls leave the window: if an answer reports n calls in the window while
//     n of ours were surely counted after call m (started after m's answer, answered before this one
//     started), m has left, so W <= (this answer) - (m's start). No rounding assumption; it tightens the bound
//     whenever calls leave the window while others arrive.
//   - The second margin would make every window a second late. Windows are whole seconds in practice (180 per
//     60 s) and a Reset rounded up, as its meaning ("a slot frees" then) implies, puts W at the whole second
//     at or below Reset - start. That guess is tried by one call alone, sent before the safe bound allows;
//     its count proves it (the rule above) or its 429 refutes it and the next second is tried. Against the
//     documented header no trial is refused; against a service rounding down, one is.
//   - A service that names no time (neither Reset nor Retry-After: the provider's documented dialect) gives no
//     Reset to date the window by; the W believed (configured, by default the documented 60 s) paces until
//     the count rule proves a shorter one, and each 429 the model let out lengthens it by a second.

export interface WindowEstimate {
  /** Upper bound of W, in ms: mirroring our own calls this long after their answers is safe. */
  readonly hi?: number;
  /** A whole-second W below `hi`, in ms, tried by one call at a time until an answer proves or refutes it. */
  readonly guess?: number;
}

/** The Reset of one answer, as the window estimate needs it. */
interface ResetEvidence {
  /** X-RateLimit-Reset as given, epoch ms. */
  at: number;
  /** Given in whole seconds: it may be up to `wholeSecondMarginMs` early. */
  wholeSecond: boolean;
}

export interface WindowMargins {
  /** Added to a whole-second Reset, which may have been rounded down, in ms. */
  wholeSecondMarginMs: number;
  /** Timer and clock granularity, in ms: a guess within it of the bound is moot. */
  marginMs: number;
}

/**
 * Upper bound of W from Remaining alone (the second rule above), or undefined when the answer proves no call
 * of the log left the window. `log` is ordered by start; `j` is the answered call, `inWindow` the service's
 * count at it, `answeredAt` when its answer came.
 *
 * Once per answer, over a log of every call of the last two windows: the calls surely counted after a candidate
 * are counted by a binary search over their starts, not by a scan of the log per candidate. The scan made it
 * quadratic in the calls a window holds, and a night of 10,000 searches against a limit of a million a minute (the
 * bench's) spent most of its CPU here (10.8 of 17.6 CPU s of a night of 300 searches, 2026-11-28).
 */
function windowBoundFromCount(log: CallLog, j: SentCall, inWindow: number, answeredAt: number): number | undefined {
  // The starts of the calls surely counted and answered before j started: those that may be "surely after" a
  // candidate. A candidate is never among those after it (it started before its own answer), nor is j.
  const starts: number[] = [];
  for (const i of log) if (i.counted && i.endedAt !== undefined && i.endedAt < j.at) starts.push(i.at);
  if (starts.length + 1 < inWindow) return undefined;
  starts.sort((a, b) => a - b);
  for (let m = log.length - 1; m >= 0; m--) {
    const cand = log[m];
    if (cand.id === j.id || !cand.counted || cand.endedAt === undefined || cand.endedAt >= j.at) continue;
    const surelyAfter = 1 + starts.length - firstAfter(starts, cand.endedAt);
    if (surelyAfter >= inWindow) return answeredAt - cand.at;
  }
  return undefined;
}

/** The index of the first value of `sorted` (ascending) greater than `t`. */
function firstAfter(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The estimate after a counted answer: `sent` is the call (ended, in `log`), `inWindow` the service's count
 * (Limit - Remaining), `reset` the answer's Reset when it had one.
 */
export function learnWindow(
  est: WindowEstimate, log: CallLog, sent: SentCall, inWindow: number, reset: ResetEvidence | undefined, margins: WindowMargins, answeredAt: number,
): WindowEstimate {
  let hi = est.hi ?? Infinity;
  let guess = est.guess;
  // Only this call in the window: the Reset is when this very call leaves it.
  if (inWindow === 1 && reset !== undefined) {
    const latest = reset.at + (reset.wholeSecond ? margins.wholeSecondMarginMs : 0);
    if (latest > sent.at) {
      hi = Math.min(hi, latest - sent.at);
      // A whole-second Reset rounded up, as its meaning implies, puts W in the whole second at or below it.
      if (est.hi === undefined && reset.wholeSecond && reset.at - sent.at >= 1000) {
        const g = Math.floor((reset.at - sent.at) / 1000) * 1000;
        if (g < hi) guess = g;
      }
    }
  }
  const fromCount = windowBoundFromCount(log, sent, inWindow, answeredAt);
  if (fromCount !== undefined && fromCount > 0) hi = Math.min(hi, fromCount);
  const bound = hi === Infinity ? est.hi : hi;
  // A trial call that was counted settles the guess: the count bound above now holds it (or the guess was
  // moot); either way the safe bound rules from here.
  if (sent.trial === true || (guess !== undefined && bound !== undefined && bound <= guess + margins.marginMs)) guess = undefined;
  return { hi: bound, guess };
}

/**
 * The estimate after a 429. A refused trial means the window is longer than guessed: the next whole second
 * is tried, until the guess meets the safe bound. Any other 429 means the model let a call out too early:
 * the bound is trusted a second less.
 */
export function refuteWindow(est: WindowEstimate, trial: boolean): WindowEstimate {
  if (trial) {
    const next = (est.guess ?? Infinity) + 1000;
    return { hi: est.hi, guess: est.hi !== undefined && next < est.hi ? next : undefined };
  }
  return est.hi === undefined ? est : { hi: est.hi + 1000, guess: est.guess };
}

/**
 * The W to pace by: the proven bound, or, given a window believed (while the service names no time: the
 * configured or documented W), the shorter of that and the bound. Undefined when neither is known.
 */
export function windowInUse(est: WindowEstimate, believedMs: number | undefined): number | undefined {
  if (believedMs === undefined) return est.hi;
  return est.hi === undefined ? believedMs : Math.min(est.hi, believedMs);
}
