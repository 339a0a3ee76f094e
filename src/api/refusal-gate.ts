import { resolveFailure } from '../shared/failure-policy.js';
import type { CallSpec } from './call-spec.js';
import { API_CODES, ApiError, type ApiErrorCode } from './errors.js';

// Refusals are remembered for the rest of the client's life: after a 401 no call is sent at all (the key is
// refused; every further call would be refused too and still count against the key's window), and after
// PLAN_WIDE_403 answers 403 in a row from one resource, with no success between, no call is sent to it (it is not
// in the plan, or over quota). A 403 alone refuses its own call only (API_FORBIDDEN_ONE): the provider documents
// 403 for a secret lawsuit without a credential too, and one such search must not stop every submission. Calls
// already queued in the limiter fail at their turn without being sent, and are told at once, so a wrong key
// costs one wave of calls, not one per document. A spent wait budget (wait-budget.ts) stands against every call
// the same way.

/** A resource that answers 403 this many times in a row, with no success between, is refused for good (plan-wide). */
const PLAN_WIDE_403 = 3;

/**
 * The resource a call belongs to, for remembering a 403: its base and the first segment of its path
 * (`requests:requests`, `requests:responses`, `lawsuits:requests`, `transfer:transfer-file`, ...).
 */
function resourceOf(spec: Pick<CallSpec<unknown>, 'base' | 'route'>): string {
  const path = spec.route.split(' ')[1] ?? '';
  return `${spec.base}:${path.split('/')[1] ?? ''}`;
}

type Spec = Pick<CallSpec<unknown>, 'base' | 'route'>;

export class RefusalGate {
  /** The 401 that refused the key, once one came back: nothing more is sent. */
  private keyRefusal: ApiError | undefined;
  /** Resources refused for the night, by resource label (resourceOf). */
  private readonly refusedResources = new Map<string, ApiError>();
  /** 403s in a row per resource, with no success between. */
  private readonly forbiddenStreak = new Map<string, number>();
  /** Calls waiting in the limiter, told at once when a refusal makes them pointless. */
  private readonly waiters = new Set<() => void>();

  /** `standing`: a refusal of every call from elsewhere (the spent wait budget), if any. */
  constructor(private readonly standing: () => ApiError | undefined = () => undefined) {}

  /** The refusal standing against this call, if the key or its resource was refused, or the budget spent. */
  refusalFor(spec: Spec): ApiError | undefined {
    const prior = this.keyRefusal ?? this.refusedResources.get(resourceOf(spec)) ?? this.standing();
    if (!prior) return undefined;
    return new ApiError(prior.code as ApiErrorCode, `${spec.route} not sent: ${prior.message}`, {
      route: spec.route, statusCode: prior.statusCode, providerCode: prior.providerCode, notProcessed: true,
    });
  }

  /**
   * The call's result, or its refusal as soon as one stands against it: a call still queued in the limiter then
   * fails at once instead of waiting for its turn to be refused (400 queued submissions behind a wrong key would
   * otherwise take minutes to drain). Once sent, a call stops listening (`sending`) and ends with the provider's
   * own answer: a submission already on the wire when another call met a 401 may have been bought, and must not
   * be reported as "not sent".
   */
  untilRefused<T>(spec: Spec, send: (sending: () => void) => Promise<T>): Promise<T> {
    const prior = this.refusalFor(spec);
    if (prior) return Promise.reject(prior);
    let waiter: () => void = () => undefined;
    const refused = new Promise<never>((_, reject) => {
      waiter = () => {
        const e = this.refusalFor(spec);
        if (e) reject(e);
      };
      this.waiters.add(waiter);
    });
    const call = send(() => this.waiters.delete(waiter));
    return Promise.race([call, refused]).finally(() => this.waiters.delete(waiter));
  }

  /**
   * Remembers a refusal so that no further call meets it again: the key's at once, a resource's once it is plainly
   * plan-wide (PLAN_WIDE_403 in a row). Returns the error the call fails with: a 403 short of that refuses its own
   * call only (API_FORBIDDEN_ONE).
   */
  note(spec: Spec, err: ApiError): ApiError {
    const failure = resolveFailure(err);
    if (!failure.refused || failure.reach === 'item') return err;
    if (failure.reach === 'run') this.keyRefusal ??= err;
    else {
      const resource = resourceOf(spec);
      const streak = (this.forbiddenStreak.get(resource) ?? 0) + 1;
      this.forbiddenStreak.set(resource, streak);
      if (streak < PLAN_WIDE_403) {
        return new ApiError(API_CODES.forbiddenOne, `${err.message} (${streak} refused in a row; ${PLAN_WIDE_403} refuse the resource for the night)`, {
          statusCode: err.statusCode, route: err.route, providerCode: err.providerCode, reasons: err.reasons, notProcessed: true,
        });
      }
      if (!this.refusedResources.has(resource)) this.refusedResources.set(resource, err);
    }
    this.wake();
    return err;
  }

  /** A success from the resource: its 403s are no longer in a row. */
  accepted(spec: Spec): void {
    this.forbiddenStreak.delete(resourceOf(spec));
  }

  /** Tells every waiting call to look again for a refusal standing against it. */
  wake(): void {
    for (const w of [...this.waiters]) w();
  }
}
