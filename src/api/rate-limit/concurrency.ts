// How many calls may be in flight, steered by latency. p-queue cannot change interval/intervalCap at run
// time, so the limiter steers it only with pause()/start() and `concurrency`. Concurrency starts at 1 (the
// first answer reveals the budget) and grows by one per answer while the budget has room for another call
// in flight, callers are waiting, and latency stays near the best seen; it shrinks by one when latency
// degrades, and halves on a 429.

export interface Concurrency {
  /** Calls allowed in flight now. */
  readonly current: number;
  /** Highest `current` so far. */
  readonly peak: number;
  /** Best latency seen, in ms (Infinity before any). */
  readonly bestLatencyMs: number;
  /** Moving average of the latency (weight 0.2 on the newest), in ms. */
  readonly avgLatencyMs?: number;
}

export interface ConcurrencyOptions {
  /** Ceiling of calls in flight, at least 1. */
  maxConcurrency: number;
  /** Growth only while the average latency is at most `latencyFactor` × best + `latencySlackMs`; above twice that, shrink. */
  latencyFactor: number;
  latencySlackMs: number;
}

/** What the budget says at an answer, for growth. */
interface ConcurrencyRoom {
  /** Calls the budget allows to start now, when known. */
  free: number | undefined;
  /** The window's size, when known. */
  limit: number | undefined;
  /** Callers are waiting. */
  demand: boolean;
}

export function initialConcurrency(maxConcurrency: number, initial: number): Concurrency {
  const current = Math.min(maxConcurrency, Math.max(1, Math.floor(initial)));
  return { current, peak: current, bestLatencyMs: Infinity };
}

export function observeLatency(c: Concurrency, ms: number): Concurrency {
  return { ...c, bestLatencyMs: Math.min(c.bestLatencyMs, ms), avgLatencyMs: c.avgLatencyMs === undefined ? ms : c.avgLatencyMs * 0.8 + ms * 0.2 };
}

/** After an answer (not a 429 nor a 5xx): one more, one fewer, or as is. */
export function adjustConcurrency(c: Concurrency, room: ConcurrencyRoom, opts: ConcurrencyOptions): Concurrency {
  const ok = c.bestLatencyMs * opts.latencyFactor + opts.latencySlackMs;
  if (c.avgLatencyMs !== undefined && c.avgLatencyMs > 2 * ok) return c.current > 1 ? { ...c, current: c.current - 1 } : c;
  const cap = Math.min(opts.maxConcurrency, room.limit ?? opts.maxConcurrency);
  // Unknown room is room only while no limit is known at all: a service that sends no headers.
  const budgetAllows = room.free === undefined ? room.limit === undefined : room.free > c.current;
  const latencyAllows = c.avgLatencyMs === undefined || c.avgLatencyMs <= ok;
  if (c.current < cap && budgetAllows && room.demand && latencyAllows) return { ...c, current: c.current + 1, peak: Math.max(c.peak, c.current + 1) };
  return c;
}

/** After a 429: the model was wrong, or someone else uses the key; half as many in flight. */
export function halveConcurrency(c: Concurrency): Concurrency {
  return { ...c, current: Math.max(1, Math.floor(c.current / 2)) };
}

/** Exactly `n` in flight (within the ceiling): the calls let out at once to find an untold limit (limit-estimate.ts). */
export function concurrencyOf(c: Concurrency, n: number, opts: Pick<ConcurrencyOptions, 'maxConcurrency'>): Concurrency {
  const current = Math.min(opts.maxConcurrency, Math.max(1, n));
  return current === c.current ? c : { ...c, current, peak: Math.max(c.peak, current) };
}
