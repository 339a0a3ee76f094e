// When a tracking runs. The documentation says a tracking's first run comes within hours of its creation and that
// it re-runs its search every `recurrence` days; the sandbox fixes the hours (deterministic, and the same for
// every tracking, so a client can plan around them): the first run an hour after creation, run k (k >= 1)
// k * recurrence days after creation, at the creation's time of day. Each run's request then waits in the
// provider's queue before its courts are searched (court by court, as any request), which is when the tracking
// shows `updating`.

import { DAY_MS } from '../days.js';

const MINUTE_MS = 60_000;

/** From creation to the first run: "within hours" (REFERENCE.md), here one. */
const FIRST_RUN_DELAY_MS = 60 * MINUTE_MS;
/** How long a run's request is queued (pending) before its courts are searched. */
export const RUN_QUEUE_MS = 30 * MINUTE_MS;
/**
 * Most runs a tracking makes in one catch-up: after a jump of the clock longer than this many recurrences, the
 * older runs of the gap are not made and the first one made sends what changed since the last one made, so nothing
 * is lost, and a clock jump of years does not make thousands of requests per tracking.
 */
export const MAX_RUNS_PER_CATCH_UP = 31;

interface Scheduled { createdMs: number; recurrence: number }

/** The instant of run k. */
export function runInstant(t: Scheduled, k: number): number {
  return k === 0 ? t.createdMs + FIRST_RUN_DELAY_MS : t.createdMs + k * t.recurrence * DAY_MS;
}

/** The index of the first run after instant `at`, from run `from` on. */
export function firstRunAfter(t: Scheduled, at: number, from: number): number {
  if (runInstant(t, from) > at) return from;
  const k = Math.floor((at - t.createdMs) / (t.recurrence * DAY_MS)) + 1;
  return Math.max(from + 1, k);
}
