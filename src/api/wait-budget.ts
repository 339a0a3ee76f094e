import { isTransient } from '../shared/failure-policy.js';
import { API_CODES, ApiError } from './errors.js';

// The stage's wait budget (HttpClient.budgetUntil): how long a stage goes on retrying an upstream that keeps
// failing. Past its end a failed call is not retried, and the first call that fails for a passing cause (a
// time-out, a 5xx, a 429, the network) spends it: calls queued and calls to come then fail at once, unsent
// (API_OUT_OF_TIME), until the budget is set again. Calls in flight end within their own deadline, so a stage
// ends within its budget and one deadline.

export class WaitBudget {
  /** End of the budget (epoch ms), if the stage has one. */
  private end: number | undefined;
  /** Set once a call failed past the budget: every later call of the stage fails with it, unsent. */
  private spentBy: ApiError | undefined;

  /** `onSpent`: told when the budget is spent, so that queued calls fail at once. */
  constructor(private readonly onSpent: () => void, private readonly now: () => number = Date.now) {}

  /** The budget ends at `at` (epoch ms; undefined: no budget), and is no longer spent. */
  until(at: number | undefined): void {
    this.end = at;
    this.spentBy = undefined;
  }

  /** The error every call meets once the budget is spent on a failing upstream, if it is. */
  spent(): ApiError | undefined {
    return this.spentBy;
  }

  /** A failure for a passing cause past the budget spends it: true when it did. */
  failedOver(err: unknown): boolean {
    if (this.end === undefined || !isTransient(err) || this.now() < this.end) return false;
    this.spend(err as { code?: string });
    return true;
  }

  /**
   * Whether a retry's wait of `ms` after `err` ends within the budget. When it would not, a call that `spends` the
   * budget spends it (a probe that does not just gives up).
   */
  allowsWait(err: unknown, ms: number, spends: boolean): boolean {
    if (this.end === undefined || this.now() + ms < this.end) return true;
    if (spends) this.spend(err as { code?: string });
    return false;
  }

  private spend(err: { code?: string }): void {
    this.spentBy ??= new ApiError(API_CODES.outOfTime,
      `the wait budget (LAWSUIT_MAX_WAIT_MINUTES) is spent and the upstream was failing (${err.code ?? 'error'}): left for the next run`, { notProcessed: true });
    this.onSpent();
  }
}
