// Per-key sliding-window rate limit, as the real provider applies it (REFERENCE.md: 180 calls per 60 s).
// Wall-clock time on purpose: moving the sandbox's data clock must not refill or drain anyone's budget.

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the oldest call in the window leaves it (docs/dialect-and-spec-gaps.md, "Spec gaps"). */
  resetEpochSec: number;
  /** Whole seconds to wait before a call can succeed (only meaningful when not allowed). */
  retryAfterSec: number;
}

export class SlidingWindowLimiter {
  private readonly calls = new Map<string, number[]>();
  constructor(public limit: number, public windowMs: number) {}

  /** Checks and, when allowed, records a call. A refused call does not consume the budget. */
  take(key: string, now = Date.now()): RateDecision {
    let list = this.calls.get(key);
    if (!list) { list = []; this.calls.set(key, list); }
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < list.length && list[drop] <= cutoff) drop++;
    if (drop > 0) list.splice(0, drop);
    const allowed = list.length < this.limit;
    if (allowed) list.push(now);
    const oldest = list.length > 0 ? list[0] : now;
    const frees = oldest + this.windowMs;
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - list.length),
      resetEpochSec: Math.ceil(frees / 1000),
      retryAfterSec: Math.max(1, Math.ceil((frees - now) / 1000)),
    };
  }

  /** The current state of a key without recording a call. */
  peek(key: string, now = Date.now()): RateDecision {
    const list = (this.calls.get(key) ?? []).filter((t) => t > now - this.windowMs);
    const frees = (list[0] ?? now) + this.windowMs;
    return { allowed: list.length < this.limit, limit: this.limit, remaining: Math.max(0, this.limit - list.length), resetEpochSec: Math.ceil(frees / 1000), retryAfterSec: Math.max(1, Math.ceil((frees - now) / 1000)) };
  }

  reset(): void {
    this.calls.clear();
  }
}
