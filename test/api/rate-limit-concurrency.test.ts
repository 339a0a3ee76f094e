import { describe, expect, it } from 'vitest';
import { adjustConcurrency, halveConcurrency, initialConcurrency, observeLatency, type Concurrency } from '../../src/api/rate-limit/concurrency.js';

// Calls in flight, steered by latency: one more per answer while the budget has room, callers wait and the
// latency stays near the best seen; one fewer when it degrades; half on a 429.

const opts = { maxConcurrency: 8, latencyFactor: 3, latencySlackMs: 100 };
const room = { free: 50, limit: 60, demand: true };
const seen = (latencies: number[], c: Concurrency = initialConcurrency(8, 1)) => latencies.reduce(observeLatency, c);

describe('concurrency from latency', () => {
  it('starts at the initial value, within 1 and the ceiling', () => {
    expect(initialConcurrency(8, 1)).toEqual({ current: 1, peak: 1, bestLatencyMs: Infinity });
    expect(initialConcurrency(8, 20).current).toBe(8);
    expect(initialConcurrency(8, 0).current).toBe(1);
    expect(initialConcurrency(8, 2.7).current).toBe(2);
  });

  it('keeps the best latency and a moving average weighted 0.2 on the newest', () => {
    const c = seen([100, 200]);
    expect(c.bestLatencyMs).toBe(100);
    expect(c.avgLatencyMs).toBeCloseTo(120);
  });

  it('grows by one per answer up to the ceiling while latency stays flat', () => {
    let c = initialConcurrency(8, 1);
    const sizes: number[] = [];
    for (let i = 0; i < 12; i++) {
      c = adjustConcurrency(observeLatency(c, 50), room, opts);
      sizes.push(c.current);
    }
    expect(sizes).toEqual([2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8, 8]);
    expect(c.peak).toBe(8);
  });

  it('grows no further than the window size', () => {
    const c = { ...seen([50]), current: 3 };
    expect(adjustConcurrency(c, { free: 50, limit: 3, demand: true }, opts).current).toBe(3);
  });

  it('does not grow without callers waiting, nor without budget for one more in flight', () => {
    const c = { ...seen([50]), current: 3 };
    expect(adjustConcurrency(c, { ...room, demand: false }, opts).current).toBe(3);
    expect(adjustConcurrency(c, { ...room, free: 3 }, opts).current).toBe(3);
    expect(adjustConcurrency(c, { ...room, free: 4 }, opts).current).toBe(4);
  });

  it('grows on unknown room only while no limit is known at all (a service that sends no figures)', () => {
    const c = { ...seen([50]), current: 3 };
    expect(adjustConcurrency(c, { free: undefined, limit: undefined, demand: true }, opts).current).toBe(4);
    expect(adjustConcurrency(c, { free: undefined, limit: 60, demand: true }, opts).current).toBe(3);
  });

  it('stops growing when latency rises above factor x best + slack, and shrinks by one above twice that', () => {
    // Best 50 ms: growth up to 250 ms, shrinking above 500 ms.
    const base = { ...seen([50]), current: 5 };
    expect(adjustConcurrency({ ...base, avgLatencyMs: 250 }, room, opts).current).toBe(6);
    expect(adjustConcurrency({ ...base, avgLatencyMs: 300 }, room, opts).current).toBe(5);
    expect(adjustConcurrency({ ...base, avgLatencyMs: 501 }, room, opts).current).toBe(4);
    expect(adjustConcurrency({ ...base, current: 1, avgLatencyMs: 501 }, room, opts).current).toBe(1);
  });

  it('a server that slows down under load brings concurrency back down, and it grows again when latency recovers', () => {
    let c = { ...seen([40]), current: 8, peak: 8 };
    const path: number[] = [];
    for (let i = 0; i < 20; i++) {
      c = adjustConcurrency(observeLatency(c, 1500), room, opts);
      path.push(c.current);
    }
    expect(path[path.length - 1]).toBe(1);
    for (let i = 0; i < 40; i++) c = adjustConcurrency(observeLatency(c, 40), room, opts);
    expect(c.current).toBe(8);
    // Best 40 ms: growth up to 220 ms, shrinking above 440. The first slow answer moves the average to 332 ms
    // (no change), the second to 566 ms (one fewer).
    expect(path.slice(0, 3)).toEqual([8, 7, 6]);
  });

  it('halves on a 429, never below 1', () => {
    expect(halveConcurrency({ ...seen([50]), current: 7 }).current).toBe(3);
    expect(halveConcurrency({ ...seen([50]), current: 1 }).current).toBe(1);
  });
});
