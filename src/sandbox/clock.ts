// The sandbox's own clock: it starts at a chosen instant and keeps flowing, and tests can set it or jump days
// ahead to simulate the nights between runs. A sandbox day may last less than a real one (`dayMs`): the clock
// then runs faster than real time, so that trackings' recurrences and the universe's changes come within a
// test's or a demo's patience; every other duration of the sandbox (court delays, queues) is in its own time
// and speeds up with it. Day 0 is the day of the starting instant: the introspection's "as of day d" counts
// from there.

import { DAY_MS } from './days.js';

export class SandboxClock {
  private base: number;
  private setAt: number;
  /** Sandbox milliseconds per real millisecond. */
  private readonly speed: number;
  /** The instant the sandbox started at: day 0 begins here. */
  readonly startMs: number;

  constructor(now?: Date | string | number, readonly dayMs = DAY_MS) {
    this.base = now === undefined ? Date.now() : new Date(now).getTime();
    if (Number.isNaN(this.base)) throw new RangeError(`invalid sandbox time: ${String(now)}`);
    if (!(Number.isFinite(dayMs) && dayMs > 0)) throw new RangeError(`invalid sandbox day length: ${String(dayMs)}`);
    this.speed = DAY_MS / dayMs;
    this.setAt = Date.now();
    this.startMs = this.base;
  }
  now(): number {
    const elapsed = Date.now() - this.setAt;
    return this.base + (this.speed === 1 ? elapsed : Math.floor(elapsed * this.speed));
  }
  set(d: Date | string | number): void {
    const ms = new Date(d).getTime();
    if (Number.isNaN(ms)) throw new RangeError(`invalid sandbox time: ${String(d)}`);
    this.base = ms;
    this.setAt = Date.now();
  }
  advanceDays(n: number): void {
    this.set(this.now() + n * DAY_MS);
  }
  /** The sandbox day an instant falls on (0: the starting day; negative before it). */
  dayOf(t: number): number {
    return Math.floor((t - this.startMs) / DAY_MS);
  }
  /** The instant "as of day d": the starting instant plus d whole days. */
  dayStart(d: number): number {
    return this.startMs + d * DAY_MS;
  }
}
