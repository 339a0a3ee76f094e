import type { Logger } from 'pino';
import { DEFAULT_DEADLINES, type CallDeadlines } from '../shared/config.js';
import { echoFormsOf, withoutEchoes } from '../shared/echoed-secret.js';
import { EtlError } from '../shared/errors.js';
import { scrubText } from '../shared/logger.js';
import { errorOfAnswer, isSuccess, rateFigures, resultOfAnswer } from './answer.js';
import { parseRetryAfter, retryDelay, type BackoffOptions, type Delay, type RetryHints } from './backoff.js';
import type { CallResult, CallSpec, Safety } from './call-spec.js';
import { CallStats, type CallEvent, type HttpStats, type RateFigures } from './call-stats.js';
import { API_CODES, ApiError } from './errors.js';
import { narrowClock, type ProviderClock } from './provider-clock.js';
import type { AdaptiveLimiter, Feedback } from './rate-limit.js';
import { RefusalGate } from './refusal-gate.js';
import { retrying, sleepUnless, type Wait } from './retry-loop.js';
import { Transport, type Heard } from './transport.js';
import { WaitBudget } from './wait-budget.js';

// The one place that talks HTTP to the service. It composes small parts, each with one job: the transport (one
// attempt on the wire, its deadlines and body limit: transport.ts), the classification of an answer (answer.ts),
// the refusal gate (a refused key or resource, a spent wait budget: refusal-gate.ts, wait-budget.ts), the stats
// observer (call-stats.ts), the shared rate limiter, and the one retry loop (retry-loop.ts) acting on the
// failure policy's resolution.
//
// A call is "idempotent" (GET, PATCH of a status, the read-only synchronous queries) or "unsafe" (a POST that
// creates something that may be billed). The policy retries idempotent calls on every transient failure, and
// unsafe ones only when the service surely did not act (429, a connection that never opened); after an
// ambiguous failure it asks for a look-up, which the client leaves to the resource module (requests.ts).
// Retrying is bounded by the call's retries and by the stage's wait budget (budgetUntil).

// The report and the summary read the calls' time line through the client's face.
export { TIMELINE_SLICE_MS, type CallSlice } from './call-stats.js';

interface HttpOptions extends BackoffOptions {
  apiKey: string;
  urls: Record<'requests' | 'tracking' | 'lawsuits' | 'transfer', string>;
  limiter: AdaptiveLimiter;
  /** Retries after the first attempt. Default 6. */
  retries?: number;
  /** Deadlines of one attempt (connect, headers, whole body), in ms. Default DEFAULT_DEADLINES. */
  deadlines?: Partial<CallDeadlines>;
  /** Largest answer body accepted, in bytes; a larger one fails with API_TOO_LARGE. Default 64 MiB. */
  maxBodyBytes?: number;
  /** Sockets per origin pool. Default 16. */
  connections?: number;
  logger?: Logger;
  onCall?: (e: CallEvent) => void;
  /** Random source for the jitter, for tests. Default Math.random. */
  random?: () => number;
  /**
   * Aborted on SIGTERM: nothing more is sent (queued calls and retry waits end at once with API_CLOSED), and the
   * calls in flight are cut off (API_CLOSED; a submission cut off may have been made, and is looked up next run).
   */
  signal?: AbortSignal;
  /**
   * Send only GET calls: a dry run may read what it plans from (the key's trackings), and must create, pause and
   * buy nothing whatever a stage asks, so any other call fails at once with RUN_SENDS_NOTHING, never sent.
   */
  readsOnly?: boolean;
}

export class HttpClient {
  private readonly transport: Transport;
  private readonly gate: RefusalGate;
  private readonly budget: WaitBudget;
  private readonly counters: CallStats;
  /** Aborted on close or SIGTERM: retry waits end, and nothing more is sent. */
  private readonly stopping = new AbortController();
  private clock: ProviderClock | undefined;
  /** The key as an answer may echo it (shared/echoed-secret.ts). */
  readonly keyForms: readonly string[];

  constructor(private readonly opts: HttpOptions) {
    if (!opts.apiKey) throw new ApiError(API_CODES.unauthorized, 'no API key given: check LAWSUIT_API_KEY / LAWSUIT_API_KEY_FILE');
    this.keyForms = echoFormsOf(opts.apiKey);
    const deadlines = { ...DEFAULT_DEADLINES, ...opts.deadlines };
    this.transport = new Transport(opts.urls, { deadlines, connections: opts.connections ?? 16, maxBodyBytes: opts.maxBodyBytes ?? 64 * 1024 * 1024 });
    this.budget = new WaitBudget(() => this.gate.wake());
    this.gate = new RefusalGate(() => this.budget.spent());
    this.counters = new CallStats({ logger: opts.logger, onCall: opts.onCall });
    opts.signal?.addEventListener('abort', () => this.stopSending(), { once: true });
  }

  async call<T>(spec: CallSpec<T>): Promise<CallResult<T>> {
    if (this.opts.readsOnly && spec.method !== 'GET') {
      throw new EtlError('RUN_SENDS_NOTHING', `${spec.route} was not sent: a dry run sends only reads (GET), and changes or buys nothing`);
    }
    const safety: Safety = spec.safety ?? (spec.method === 'POST' ? 'unsafe' : 'idempotent');
    const spends = spec.spendsBudget !== false;
    return retrying({
      attempt: (n) => this.attempt(spec, n),
      call: { safety },
      // A look-up is the resource module's (requests.ts): it knows where to look.
      acts: { retry: 'again', 'wait-rate-limit': 'again' },
      retries: Math.min(spec.retries ?? Infinity, this.opts.retries ?? 6),
      // Past the wait budget an upstream still failing is not waited for, by this call or any other.
      stop: (e) => (spends && this.budget.failedOver(e)) || this.closed,
      backoff: (n, e) => this.backoff(n, e, spends),
      sleep: (ms) => this.wait(ms),
      onRetry: (e, n, ms, action) => {
        this.counters.retried();
        const err = e as ApiError;
        this.opts.logger?.warn({ route: spec.route, code: err.code, status: err.statusCode, attempt: n, delayMs: ms },
          action === 'wait-rate-limit' ? 'api call rate-limited, retrying after the limit\'s wait' : 'api call failed, retrying');
      },
    });
  }

  /** The wait before retry n: the backoff (a Retry-After wins), declined when it would outlast the wait budget. */
  private backoff(n: number, e: unknown, spends: boolean): Wait {
    const d = this.backoffFor(n, e);
    return { ms: d.ms, giveUp: d.giveUp || !this.budget.allowsWait(e, d.ms, spends) };
  }

  /** One attempt through the refusal gate and the limiter; a failure as an ApiError counting its attempts. */
  private async attempt<T>(spec: CallSpec<T>, n: number): Promise<CallResult<T>> {
    try {
      if (this.closed) throw new ApiError(API_CODES.closed, `${spec.route} not sent: the client is closed`, { route: spec.route, notProcessed: true });
      return await this.gate.untilRefused(spec, (sending) =>
        this.opts.limiter.schedule((report) => this.exchange(spec, n, report, sending), { priority: spec.priority }));
    } catch (e) {
      // A typed error of the call's own parser (a transfer record without an address) is the policy's to read as
      // it is; anything else unexpected is a failure of the call.
      if (e instanceof EtlError && !(e instanceof ApiError)) throw e;
      const err = e instanceof ApiError ? e : new ApiError(API_CODES.network, `${spec.route} failed unexpectedly`, { cause: e, route: spec.route });
      err.attempts = n + 1;
      throw err;
    }
  }

  /** The attempt at its turn in the limiter: refused unsent, or sent, observed and classified. */
  private async exchange<T>(spec: CallSpec<T>, n: number, report: (fb: Feedback) => void, sending: () => void): Promise<CallResult<T>> {
    const refused = this.gate.refusalFor(spec);
    if (refused) throw refused;
    sending();
    const path = this.transport.pathOf(spec);
    const t0 = performance.now();
    let figures: RateFigures = {};
    let retryAfterMs: number | undefined;
    const observe = (status: number | 'network', answered: boolean): void => this.counters.attempted({
      method: spec.method, route: spec.route, status, ms: Math.round(performance.now() - t0), attempt: n, figures, answered,
    });
    const heard = (h: Heard): void => {
      this.clock = narrowClock(this.clock, typeof h.headers.date === 'string' ? h.headers.date : undefined, h.sentAt, h.answeredAt);
      figures = rateFigures(h.headers);
      retryAfterMs = parseRetryAfter(String(h.headers['retry-after'] ?? ''), Date.now());
      report({ status: h.status, headers: h.headers, latencyMs: h.latencyMs, retryAfterMs });
    };
    let answer;
    try {
      answer = await this.transport.exchange(spec, path, { 'api-key': this.opts.apiKey, accept: 'application/json' }, heard);
    } catch (e) {
      // An error with a status came with an answer (too large to read): the upstream was reached.
      const status = (e as ApiError).statusCode;
      observe(status ?? 'network', status !== undefined && status < 500);
      throw e;
    }
    observe(answer.status, answer.status < 500);
    if (!isSuccess(spec, answer.status)) throw this.gate.note(spec, errorOfAnswer(spec, { ...answer, retryAfterMs }, this.redact));
    this.gate.accepted(spec);
    // The key an upstream echoes inside a payload (a lawsuit's name, a crawler's source name) is gone before the
    // payload is read: what is stored, exported or compared is the text without it, its raw JSON included.
    return resultOfAnswer(spec, { ...answer, text: withoutEchoes(answer.text, this.keyForms) }, this.redact);
  }

  private get closed(): boolean {
    return this.stopping.signal.aborted;
  }

  /** The base address a resource's calls go to (a relative Location is resolved against it). */
  baseUrl(name: keyof HttpOptions['urls']): string {
    return this.opts.urls[name];
  }

  /** What is known of the provider's clock (offset from ours), once an answer carried a Date header. */
  providerClock(): ProviderClock | undefined {
    return this.clock ? { ...this.clock } : undefined;
  }

  /**
   * The stage's wait budget ends at `at` (epoch ms; undefined: no budget). Past it a failed call is not retried,
   * and the first call that fails for a passing cause ends sending until the budget is set again (wait-budget.ts).
   */
  budgetUntil(at: number | undefined): void {
    this.budget.until(at);
  }

  /** The error every call meets once the wait budget is spent on a failing upstream, if it is. */
  spentBudget(): ApiError | undefined {
    return this.budget.spent();
  }

  /**
   * Past the wait budget, an upstream still failing is not waited for any longer, by this call or any other: a
   * failure for a passing cause then spends the budget. True when it did. (The transfer download asks too.)
   */
  failedOverBudget(err: unknown): boolean {
    return this.budget.failedOver(err);
  }

  /** The client's backoff before retry n after `e` (a Retry-After wins), for a caller's own waits too (requests.ts). */
  backoffFor(n: number, e: unknown): Delay {
    return retryDelay(n, (e as { hints?: RetryHints }).hints, this.opts, Date.now(), this.opts.random);
  }

  /** Waits `ms`, ending early when the client closes or SIGTERM comes: the next call then fails unsent. */
  wait(ms: number): Promise<void> {
    return sleepUnless(this.stopping.signal, ms);
  }

  /** Removes the key and signed query strings from text that may end up in a message or a log. */
  redact = (text: string): string => scrubText(withoutEchoes(text, this.keyForms));

  stats(): HttpStats {
    return this.counters.snapshot();
  }

  /** SIGTERM: queued calls and retry waits end now, calls in flight are cut off; nothing new is sent. */
  private stopSending(): void {
    this.stopping.abort();
    this.opts.limiter.close();
    this.transport.cutOff();
  }

  /** Ends everything: retry waits, and calls still in flight (cut off); the sockets are destroyed, not drained. */
  async close(): Promise<void> {
    this.stopping.abort();
    await this.transport.close();
  }
}

