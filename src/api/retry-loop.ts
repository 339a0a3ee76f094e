import { resolveFailure, type CallRole, type ResponseAction } from '../shared/failure-policy.js';

// The one retry loop: it attempts, asks the failure policy what the failure calls for (a Resolution), and acts
// on the action — waits its backoff and attempts again, or lets the caller's remedy act first (look up what an
// unanswered creation made, let the next attempt fetch a fresh address) — or throws. It decides nothing about
// an error itself: that is the policy's (src/shared/failure-policy.ts). The HTTP client's calls, the download,
// the creation of a request and the transfer of a file all go through it, so a 429, a 5xx or an expired address
// is acted on the same way wherever it is met (Airbyte's HttpClient._send_with_retry, with a pluggable backoff).
//
// Each caller lists the actions it acts on; any other is thrown to it as it is. A failure the loop stops
// retrying (its retries spent, a wait too long or past the wait budget, the client closed) is marked
// `exhausted`: the policy then tells an outer caller to give up on it rather than start a second round of sends.
// A loop allowed no retry (`retries: 0`) has not retried: its failure is left unmarked, for the caller that does
// the retrying (the transfer step, around a download).

/** What a remedy did: the call's result (a look-up found what was created), attempt again, or give up. */
export type Healed<T> = { result: T } | 'again' | 'give-up';

/** How the caller acts on an action: attempt again after the backoff, or its remedy first. */
type Acting<T> = 'again' | ((e: unknown, n: number) => Healed<T> | Promise<Healed<T>>);

export interface Wait {
  /** Milliseconds to wait before the next attempt. */
  ms: number;
  /** Do not wait: the service asked for longer than the client accepts, or the wait budget would run out. */
  giveUp: boolean;
}

export interface RetryLoop<T> {
  /** One attempt; `n` counts from 0. */
  attempt(n: number): Promise<T>;
  /** How the failure policy sees this call: its safety, whether its page can shrink, whether it is about a request. */
  call?: CallRole;
  /**
   * The actions this loop acts on, and how; an action not listed is thrown to the caller as it is (the HTTP
   * client leaves `lookup` to the resource module, which knows where to look).
   */
  acts: Partial<Record<Exclude<ResponseAction, 'give-up'>, Acting<T>>>;
  /** Attempts after the first, whatever the action; past them the last failure is thrown. */
  retries: number;
  /** The wait before attempt n + 1 for `action` (the backoff strategy). Default: none. */
  backoff?(n: number, e: unknown, action: ResponseAction): Wait;
  /**
   * Asked first with each failure the loop acts on: true stops retrying (the client closed, the wait budget spent
   * by this failure).
   */
  stop?(e: unknown): boolean;
  /** Waits `ms`; may end early when the run stops (the next attempt then meets the stop). */
  sleep(ms: number): Promise<void>;
  /** Told before each wait: for the stats and the log. */
  onRetry?(e: unknown, n: number, waitMs: number, action: ResponseAction): void;
}

const NO_WAIT: Wait = { ms: 0, giveUp: false };

export async function retrying<T>(loop: RetryLoop<T>): Promise<T> {
  for (let n = 0; ; n++) {
    let failure: unknown;
    try {
      return await loop.attempt(n);
    } catch (e) {
      failure = e;
    }
    const { action } = resolveFailure(failure, loop.call);
    const acting = action === 'give-up' ? undefined : loop.acts[action];
    if (!acting) throw failure;
    const wait = loop.stop?.(failure) || n >= loop.retries ? undefined : (loop.backoff?.(n, failure, action) ?? NO_WAIT);
    if (wait === undefined || wait.giveUp) throw loop.retries > 0 ? exhausted(failure) : failure;
    loop.onRetry?.(failure, n, wait.ms, action);
    if (wait.ms > 0) await loop.sleep(wait.ms);
    const healed = acting === 'again' ? 'again' : await acting(failure, n);
    if (healed === 'give-up') throw failure;
    if (healed !== 'again') return healed.result;
  }
}

/** Marks a failure the loop stopped retrying, so that no outer caller starts a second round of sends for it. */
function exhausted(e: unknown): unknown {
  if (e !== null && typeof e === 'object' && Object.isExtensible(e)) (e as { exhausted?: boolean }).exhausted = true;
  return e;
}

/** A wait that ends early when `signal` aborts (SIGTERM): the next attempt then finds the run stopping. */
export function sleepUnless(signal: AbortSignal | undefined, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
