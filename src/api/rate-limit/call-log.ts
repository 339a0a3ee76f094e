// The limiter's log of its own calls, ordered by start: what it knows for sure about the service's window.
// A call is counted somewhere between its start and its answer, so its slot surely frees W after the answer:
// the log reckons from there, which costs one answer latency per window and holds however slow the request
// was on its way in. Values are never changed in place; each transition returns a new log.

/** One call started by the limiter. */
export interface SentCall {
  /** Sequence number, to find the call again when it ends. */
  readonly id: number;
  /** When it was started, epoch ms. */
  readonly at: number;
  /**
   * When its answer's headers arrived, or when it failed without one; absent while in flight. The service
   * counted the call (if at all) before this, so its slot surely frees W after it.
   */
  readonly endedAt?: number;
  /** Answered with a status other than 429: surely counted. */
  readonly counted?: boolean;
  /** Answered 429: the service did not count it, unless `holdsSlot`. */
  readonly refused?: boolean;
  /**
   * Refused, yet counted against the window all the same: the provider documents that refused calls count
   * (REFERENCE.md), and its dialect names no time (limiter-state.ts decides).
   */
  readonly holdsSlot?: boolean;
  /** Sent alone on the guess of a whole-second window, before the safe bound allowed it. */
  readonly trial?: boolean;
}

export type CallLog = readonly SentCall[];

export function logStart(log: CallLog, call: SentCall): CallLog {
  return [...log, call];
}

/**
 * The log with call `id` ended at `now`; `status` absent when no answer came; `refusalCounts` when a 429 holds
 * its slot all the same. Also returns the ended call.
 */
export function logEnd(
  log: CallLog, id: number, now: number, status: number | undefined, refusalCounts = false,
): { log: CallLog; call: SentCall | undefined } {
  const i = log.findIndex((c) => c.id === id);
  if (i < 0) return { log, call: undefined };
  const refused = refusalCounts ? { refused: true, holdsSlot: true } : { refused: true };
  const call: SentCall = { ...log[i], endedAt: now, ...(status === 429 ? refused : status !== undefined ? { counted: true } : {}) };
  return { log: [...log.slice(0, i), call, ...log.slice(i + 1)], call };
}

export function inFlight(log: CallLog): number {
  let n = 0;
  for (const c of log) if (c.endedAt === undefined) n++;
  return n;
}

export function trialInFlight(log: CallLog): boolean {
  return log.some((c) => c.trial === true && c.endedAt === undefined);
}

/**
 * When each of our calls that may still be in a window of `windowMs` leaves it (`marginMs` after W from its
 * answer), soonest first. A refused call was never counted, unless it holds its slot; one in flight leaves at
 * an unknown time, after its answer (Infinity).
 */
export function ownLeaving(log: CallLog, windowMs: number, marginMs: number, now: number): number[] {
  const out: number[] = [];
  for (let i = log.length - 1; i >= 0; i--) {
    const c = log[i];
    if (c.refused && !c.holdsSlot) continue;
    const leaves = c.endedAt === undefined ? Infinity : c.endedAt + windowMs + marginMs;
    if (leaves > now) out.push(leaves);
    else if (c.at + 2 * windowMs < now) break;
  }
  return out.sort((a, b) => a - b);
}

/** Our calls that may be in a window that opened at `earliest`: not refused, and unanswered or answered after it. */
export function ownSince(log: CallLog, earliest: number): number {
  let n = 0;
  for (const c of log) if (!c.refused && (c.endedAt ?? Infinity) > earliest) n++;
  return n;
}

/**
 * Drops ended calls that can no longer be in the window nor bound it: beyond `4 * limit` entries (at least
 * 64), or started more than two windows and ten seconds ago. Calls in flight are kept, and all after them.
 */
export function pruneLog(log: CallLog, now: number, windowMs: number | undefined, limit: number | undefined): CallLog {
  const keep = Math.max(64, 4 * (limit ?? 256));
  const horizon = windowMs === undefined ? -Infinity : now - 2 * windowMs - 10_000;
  let drop = 0;
  while (drop < log.length && (log.length - drop > keep || log[drop].at < horizon) && log[drop].endedAt !== undefined) drop++;
  return drop > 0 ? log.slice(drop) : log;
}
