import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { gracefulShutdown } from '../../src/cli/shutdown.js';

// The grace period on a fake clock: the first signal stops the run and starts it; its end, or a second signal,
// exits at once with 128 + the signal's number. A command that ends by itself leaves nothing behind.

const silent = pino({ level: 'silent' });

function setup(graceMs = 10_000) {
  const signals = new EventEmitter();
  const exits: number[] = [];
  const shutdown = gracefulShutdown({ graceMs, log: silent, exit: (code) => { exits.push(code); }, signals: signals as unknown as NodeJS.Process });
  return { signals, exits, shutdown };
}

describe('shutdown on SIGTERM', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('aborts the run at the first signal and exits 4 at the end of the grace period, not before', () => {
    const { signals, exits, shutdown } = setup(10_000);
    expect(shutdown.signal.aborted).toBe(false);
    signals.emit('SIGTERM', 'SIGTERM');
    expect(shutdown.signal.aborted).toBe(true);
    vi.advanceTimersByTime(9_999);
    expect(exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(exits).toEqual([4]);
  });

  it('exits 4 at once at a second signal, SIGINT as SIGTERM', () => {
    const { signals, exits } = setup(10_000);
    signals.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([]);
    signals.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([4]);
  });

  it('a run that ends within its grace period is not cut off later, and no longer answers the signals', () => {
    const { signals, exits, shutdown } = setup(1_000);
    signals.emit('SIGTERM', 'SIGTERM');
    shutdown.dispose();
    vi.advanceTimersByTime(5_000);
    expect(exits).toEqual([]);
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0);
  });

  it('a grace period of 0 exits as soon as the timers run', () => {
    const { signals, exits } = setup(0);
    signals.emit('SIGTERM', 'SIGTERM');
    vi.advanceTimersByTime(0);
    expect(exits).toEqual([4]);
  });
});
