// The sandbox's own clock: it starts at a chosen instant and keeps flowing with real time, and tests can
// set it or jump days ahead to simulate the nights between runs.

export class SandboxClock {
  private base: number;
  private setAt: number;
  constructor(now?: Date | string | number) {
    this.base = now === undefined ? Date.now() : new Date(now).getTime();
    if (Number.isNaN(this.base)) throw new RangeError(`invalid sandbox time: ${String(now)}`);
    this.setAt = Date.now();
  }
  now(): number {
    return this.base + (Date.now() - this.setAt);
  }
  set(d: Date | string | number): void {
    const ms = new Date(d).getTime();
    if (Number.isNaN(ms)) throw new RangeError(`invalid sandbox time: ${String(d)}`);
    this.base = ms;
    this.setAt = Date.now();
  }
  advanceDays(n: number): void {
    this.set(this.now() + n * 86_400_000);
  }
}
