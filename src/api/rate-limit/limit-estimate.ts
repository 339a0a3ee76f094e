import type { CallLog, SentCall } from './call-log.js';

// The window's size L when no answer says it (no X-RateLimit-Limit), learned from the limiter's own log and the
// service's verdicts, for a window of W ms (the one in use), taking our calls as the only ones on the key:
//   - an accepted call proves L > the calls surely in the window when it was counted (answered before it
//     started, started less than W before its answer): `lo`, the most the service has accepted in one window;
//   - a refused call proves L <= the calls that may have been in the window then (any of ours, refused ones too,
//     since the provider counts those: REFERENCE.md, started no later than its answer and not answered more
//     than W before it started): `hi`, the limit paced at.
// Before a refusal, calls go k at a time, k = 1 + whole windows spent so without one, so that finding L costs
// at most k 429s: one call at a time fills a window whenever a call takes less than W / L (a third of a second
// at the documented 180 per 60 s), and k grows only on links slower than that.
// A learned L is trusted for RELEARN_WINDOWS windows, then one call beyond it is tried: an L learned while
// another program used the key, or raised since, is not kept all night, at one 429 in 1,800 calls at most at
// the documented 180 per 60 s.

export interface LimitEstimate {
  /** Most calls the service accepted in one window (a lower bound of L). */
  readonly lo?: number;
  /** Calls that may have been in the window at a refusal (an upper bound of L, the limit paced at). */
  readonly hi?: number;
  /** When `hi` was last learned, epoch ms. */
  readonly hiAt?: number;
  /** When calls began to go k at a time with no `hi` known, epoch ms. */
  readonly exploringSince?: number;
}

const RELEARN_WINDOWS = 10;

/** Calls surely counted in the window when `s` (accepted) was counted, `s` itself left out. */
function surelyBefore(log: CallLog, s: SentCall, windowMs: number): number {
  const answered = s.endedAt ?? Infinity;
  let n = 0;
  for (const c of log) if (c.id !== s.id && c.counted && c.endedAt !== undefined && c.endedAt <= s.at && c.at > answered - windowMs) n++;
  return n;
}

/**
 * Calls that may have been in the window when `r` (refused) was counted, `r` itself left out. A call started in
 * the millisecond `r` was answered may have been counted before it (the bench met that tie on a fast link, and
 * learned 59 of 60).
 */
function possiblyBefore(log: CallLog, r: SentCall, windowMs: number): number {
  const answered = r.endedAt ?? Infinity;
  let n = 0;
  for (const c of log) if (c.id !== r.id && c.at <= answered && (c.endedAt ?? Infinity) > r.at - windowMs) n++;
  return n;
}

/** The estimate after call `sent` (ended, in `log`) was accepted. */
export function limitAfterAcceptance(est: LimitEstimate, log: CallLog, sent: SentCall, windowMs: number): LimitEstimate {
  const lo = Math.max(est.lo ?? 0, surelyBefore(log, sent, windowMs) + 1);
  // More accepted in one window than a refusal allowed: the limit rose, or the refusal met another program's
  // calls. Explore again from here.
  if (est.hi !== undefined && lo > est.hi) return { lo, exploringSince: sent.endedAt ?? sent.at };
  return { ...est, lo, exploringSince: est.hi === undefined ? (est.exploringSince ?? sent.at) : est.exploringSince };
}

/** The estimate after call `sent` (ended, in `log`) was refused at `now`. */
export function limitAfterRefusal(est: LimitEstimate, log: CallLog, sent: SentCall, windowMs: number, now: number): LimitEstimate {
  const possibly = possiblyBefore(log, sent, windowMs);
  // None of ours in the window: the refusal says nothing of L (at least 1), only that others fill it.
  if (possibly < 1) return est;
  const hi = Math.min(est.hi ?? Infinity, possibly);
  return { lo: Math.min(est.lo ?? 0, hi), hi, hiAt: now };
}

/** Calls let out at once while no refusal has taught L (undefined once one has): 1, and one more per window spent so. */
export function explorers(est: LimitEstimate, windowMs: number, now: number, maxExplorers: number): number | undefined {
  if (est.hi !== undefined) return undefined;
  const windows = est.exploringSince === undefined ? 0 : Math.floor((now - est.exploringSince) / windowMs);
  return Math.min(maxExplorers, 1 + windows);
}

/** The limit to pace at now, once a refusal taught one: `hi` while trusted, one more once it is not. */
export function learnedLimit(est: LimitEstimate, windowMs: number, now: number): number | undefined {
  if (est.hi === undefined) return undefined;
  return now - (est.hiAt ?? now) < RELEARN_WINDOWS * windowMs ? est.hi : est.hi + 1;
}
