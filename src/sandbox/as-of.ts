// The instant an introspection answer is "as of": now by default, or day d of the sandbox (its starting instant
// plus d days: day 0 is the universe every test compares with), or an instant given outright. The truth, a
// lawsuit, the samples and the changes are all functions of that instant (universe.ts, changes.ts).

import type { SandboxClock } from './clock.js';

export interface AsOf {
  /** Day d of the sandbox (0: its starting day), whole or fractional. */
  day?: number;
  /** An instant (wins over `day`). */
  at?: Date | string | number;
}

/** The instant of `asOf` on this clock; throws a RangeError for an invalid one. */
export function instantOf(clock: SandboxClock, asOf: AsOf = {}): number {
  if (asOf.at !== undefined) {
    const ms = new Date(asOf.at).getTime();
    if (Number.isNaN(ms)) throw new RangeError(`invalid instant: ${String(asOf.at)}`);
    return ms;
  }
  if (asOf.day !== undefined) {
    if (!Number.isFinite(asOf.day)) throw new RangeError(`invalid day: ${String(asOf.day)}`);
    return clock.dayStart(asOf.day);
  }
  return clock.now();
}

/**
 * The instant named by the query parameters `day` / `at` (or other names), undefined when neither is given;
 * a bad one is a problem collected in `reasons`.
 */
export function asOfParams(clock: SandboxClock, url: URL, reasons: string[], names = { day: 'day', at: 'at' }): number | undefined {
  const day = url.searchParams.get(names.day);
  const at = url.searchParams.get(names.at);
  if (day === null && at === null) return undefined;
  try {
    return instantOf(clock, { day: day === null ? undefined : Number(day), at: at ?? undefined });
  } catch (e) {
    reasons.push(`${(e as Error).message} (${names.day}: days from the sandbox's start; ${names.at}: an ISO 8601 instant)`);
    return undefined;
  }
}
