import { Pool } from 'undici';
import type { Logger } from 'pino';
import { DEFAULT_DEADLINES, type CallDeadlines } from '../shared/config.js';
import { decide, isTransient, type Safety } from '../shared/failure-policy.js';
import { scrubText } from '../shared/logger.js';
import {
  API_CODES, ApiError, badResponse, errorForNetwork, errorForStatus, errorForTimeout, timeoutPhaseOf, type ApiErrorCode, type CallPhase,
} from './errors.js';
import { parseRetryAfter, retryDelay, type BackoffOptions, type RetryHints } from './backoff.js';
import type { AdaptiveLimiter, Feedback } from './rate-limit.js';
import { ShapeError } from './validate.js';

// The one place that talks HTTP to the service: adds the key, goes through the shared limiter, parses and
// checks the body, maps failures to typed errors, and retries what the failure policy says a retry can fix.
//
// A call is "idempotent" (GET, PATCH of a status, the read-only synchronous queries) or "unsafe" (a POST that
// creates something that may be billed). The policy retries idempotent calls on every transient failure, and
// unsafe ones only when the service surely did not act (429, a connection that never opened); after an
// ambiguous failure the error is thrown for the resource module to look for what may have been created.
//
// Refusals are remembered for the rest of the client's life: after a 401 no call is sent at all (the key is
// refused; every further call would be refused too and still count against the key's window), and after
// PLAN_WIDE_403 answers 403 in a row from one resource, with no success between, no call is sent to it (it is not
// in the plan, or over quota). A 403 alone refuses its own call only (API_FORBIDDEN_ONE): the provider documents
// 403 for a secret lawsuit without a credential too, and one such search must not stop every submission. Calls
// already queued in the limiter fail at their turn without being sent, so a wrong key costs one wave of calls,
// not one per document.
//
// Nothing waits without a deadline. Each attempt has three (Config.deadlines): the connection (undici's connect
// time-out), the headers (undici's headersTimeout) and the whole body, which is ours: undici's bodyTimeout is the
// gap between two chunks, and an upstream trickling a byte every 20 s answered a page for ever. A call past a
// deadline is aborted and fails as API_TIMEOUT, retried as any time-out. Retrying is bounded by the stage's
// wait budget (budgetUntil): past it nothing is retried, and the first failure ends sending for the stage. On
// SIGTERM the calls in flight are aborted too (API_CLOSED): the run has its grace period to publish, not to wait.

export type BaseName = 'requests' | 'tracking' | 'lawsuits' | 'transfer';
export type { Safety };
export type QueryValue = string | number | boolean | ReadonlyArray<string | number> | undefined | null;
export type Query = Record<string, QueryValue>;

export interface CallSpec<T> {
  base: BaseName;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path under the base address, e.g. `/requests/abc`. Ignored when `absolute` is given. */
  path: string;
  /** An absolute address given by the service itself (links.next); must be on the base's origin. */
  absolute?: string;
  /** Label for stats and logs, e.g. "GET /requests/:id". Never carries ids or query values. */
  route: string;
  query?: Query;
  body?: unknown;
  /** Default: GET/PUT/PATCH/DELETE idempotent, POST unsafe. */
  safety?: Safety;
  /** Limiter priority: higher goes first. Default 0. */
  priority?: number;
  /** Statuses that count as success. Default [200, 201]. */
  ok?: readonly number[];
  /** Retries of this call, below the client's (a probe that must not hold anything up asks for fewer). */
  retries?: number;
  /**
   * Whether this call's failures may spend the stage's wait budget (budgetUntil). Default true. A probe says
   * false: it gives up on its own, and the calls of the stage's real work decide whether the upstream is gone.
   */
  spendsBudget?: boolean;
  /** Checks and types the parsed body; throws ShapeError. */
  parse: (body: unknown, status: number) => T;
  /**
   * Instead of `parse`: reads a successful answer's text itself (to keep raw slices of it, each item's bytes
   * exactly as received); throws ShapeError or SyntaxError.
   */
  parseText?: (text: string, status: number) => T;
}

export interface CallResult<T> { status: number; body: T; headers: Record<string, string> }

export interface CallEvent { method: string; route: string; status: number | 'network'; ms: number; attempt: number }

/** Calls in one slice of the run's time line (TIMELINE_SLICE_MS), for charts of the calls against the limit. */
export interface CallSlice {
  /** Start of the slice, ms after the client's first call. */
  at: number;
  calls: number;
  /** Of which answered 429. */
  limited: number;
  /** X-RateLimit-Limit last seen in the slice (the key's calls per window), when the provider sent it. */
  limit?: number;
  /** Lowest X-RateLimit-Remaining seen in the slice. */
  remaining?: number;
}

export interface HttpStats {
  calls: number;
  byStatus: Record<string, number>;
  byRoute: Record<string, number>;
  /** Calls by route and status, `GET /responses 200`. */
  byRouteStatus: Record<string, number>;
  retries: number;
  /**
   * Calls whose answer arrived whole with a status below 500: the upstream was reached. None of many means the
   * service was unreachable, or failing, all along (the run then exits 75, try later).
   */
  answered: number;
  /** The calls over time, in slices of TIMELINE_SLICE_MS. */
  timeline: CallSlice[];
}

/** Width of a time-line slice: 10 s keeps a nine-hour night to some 3 000 slices. */
export const TIMELINE_SLICE_MS = 10_000;

export interface HttpOptions extends BackoffOptions {
  apiKey: string;
  urls: Record<BaseName, string>;
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
}

/**
 * The provider's clock against ours, from the Date headers of its answers: an interval that holds the offset
 * (provider minus local, ms). A Date header is whole seconds, so one answer says the offset is at least
 * `date - answered` and below `date + 1 s - sent`; each answer narrows the interval.
 */
export interface ProviderClock { low: number; high: number }

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) sp.append(k, String(item));
    else sp.append(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

interface Base { origin: string; prefix: string; pool: Pool }

/** Why an attempt was aborted: its body ran past its deadline, or the run is stopping. */
type AbortCause = { kind: 'deadline'; phase: CallPhase; ms: number } | { kind: 'closed' };

export class HttpClient {
  private readonly bases: Record<BaseName, Base>;
  private readonly pools = new Map<string, Pool>();
  private readonly counters: HttpStats = { calls: 0, byStatus: {}, byRoute: {}, byRouteStatus: {}, retries: 0, answered: 0, timeline: [] };
  private readonly deadlines: CallDeadlines;
  /** The attempts on the wire, aborted on SIGTERM. */
  private readonly inFlight = new Set<AbortController>();
  /** End of the stage's wait budget (epoch ms), if it has one. */
  private budgetEnd: number | undefined;
  /** Set once a call failed past the wait budget: every later call of the stage fails with it, unsent. */
  private outOfTime: ApiError | undefined;
  private firstCallAt: number | undefined;
  private readonly sleeps = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private closed = false;
  /** The 401 that refused the key, once one came back: nothing more is sent. */
  private keyRefusal: ApiError | undefined;
  /** Resources answered 403, by resource label (see resourceOf): nothing more is sent to them. */
  private readonly refusedResources = new Map<string, ApiError>();
  /** 403s in a row per resource, with no success between (noteRefusal). */
  private readonly forbiddenStreak = new Map<string, number>();
  /** Calls waiting in the limiter, told at once when a refusal makes them pointless. */
  private readonly waiters = new Set<() => void>();
  private clock: ProviderClock | undefined;

  constructor(private readonly opts: HttpOptions) {
    if (!opts.apiKey) throw new ApiError(API_CODES.unauthorized, 'no API key given: check LAWSUIT_API_KEY / LAWSUIT_API_KEY_FILE');
    this.deadlines = { ...DEFAULT_DEADLINES, ...opts.deadlines };
    const bases = {} as Record<BaseName, Base>;
    for (const name of ['requests', 'tracking', 'lawsuits', 'transfer'] as const) {
      const u = new URL(opts.urls[name]);
      // One pool per origin: base addresses on the same host share their sockets.
      let pool = this.pools.get(u.origin);
      if (!pool) {
        pool = new Pool(u.origin, { connections: opts.connections ?? 16, pipelining: 1, connect: { timeout: this.deadlines.connectMs } });
        this.pools.set(u.origin, pool);
      }
      bases[name] = { origin: u.origin, prefix: u.pathname.replace(/\/+$/, ''), pool };
    }
    this.bases = bases;
    opts.signal?.addEventListener('abort', () => this.stopSending(), { once: true });
  }

  /** What is known of the provider's clock (offset from ours), once an answer carried a Date header. */
  providerClock(): ProviderClock | undefined {
    return this.clock ? { ...this.clock } : undefined;
  }

  private observeDate(date: string | undefined, sentAt: number, answeredAt: number): void {
    const at = date ? Date.parse(date) : NaN;
    if (Number.isNaN(at)) return;
    const low = at - answeredAt;
    const high = at + 1000 - sentAt;
    // An interval that no longer meets the new one means the provider's clock jumped: start again from it.
    if (!this.clock || low > this.clock.high || high < this.clock.low) this.clock = { low, high };
    else this.clock = { low: Math.max(this.clock.low, low), high: Math.min(this.clock.high, high) };
  }

  /** Counts a call in the time line's current slice. */
  private slice(status: number | 'network', h: { limit?: number; remaining?: number }): void {
    const now = Date.now();
    this.firstCallAt ??= now;
    const at = Math.floor((now - this.firstCallAt) / TIMELINE_SLICE_MS) * TIMELINE_SLICE_MS;
    const line = this.counters.timeline;
    let cur = line[line.length - 1];
    if (!cur || cur.at !== at) {
      cur = { at, calls: 0, limited: 0 };
      line.push(cur);
    }
    cur.calls++;
    if (status === 429) cur.limited++;
    if (h.limit !== undefined) cur.limit = h.limit;
    if (h.remaining !== undefined) cur.remaining = Math.min(cur.remaining ?? Infinity, h.remaining);
  }

  /** SIGTERM: queued calls and retry waits end now, calls in flight are cut off; nothing new is sent. */
  private stopSending(): void {
    this.closed = true;
    this.opts.limiter.close();
    for (const s of this.sleeps) { clearTimeout(s.timer); s.resolve(); }
    this.sleeps.clear();
    for (const a of this.inFlight) a.abort({ kind: 'closed' } satisfies AbortCause);
  }

  /**
   * The stage's wait budget ends at `at` (epoch ms; undefined: no budget). Past it a failed call is not retried,
   * and the first call that fails for a passing cause (a time-out, a 5xx, a 429, the network) ends sending: calls
   * queued and calls to come fail at once, unsent (API_OUT_OF_TIME), until the budget is set again. Calls in
   * flight end within their own deadline, so a stage ends within its budget and one deadline.
   */
  budgetUntil(at: number | undefined): void {
    this.budgetEnd = at;
    this.outOfTime = undefined;
  }

  /** The error every call meets once the wait budget is spent on a failing upstream, if it is. */
  spentBudget(): ApiError | undefined {
    return this.outOfTime;
  }

  /**
   * Past the wait budget, an upstream still failing is not waited for any longer, by this call or any other: a
   * failure for a passing cause then spends the budget. True when it did. (The transfer download asks too.)
   */
  failedOverBudget(err: unknown): boolean {
    if (this.budgetEnd === undefined || !isTransient(err) || Date.now() < this.budgetEnd) return false;
    this.spend(err as { code?: string });
    return true;
  }

  /** `err` failed a call past the budget, or would be retried after it: no more calls this stage. */
  private spend(err: { code?: string }): void {
    this.outOfTime ??= new ApiError(API_CODES.outOfTime,
      `the wait budget (LAWSUIT_MAX_WAIT_MINUTES) is spent and the upstream was failing (${err.code ?? 'error'}): left for the next run`, { notProcessed: true });
    for (const w of [...this.waiters]) w();
  }

  /** Removes the key and signed query strings from text that may end up in a message or a log. */
  redact = (text: string): string => scrubText(text.split(this.opts.apiKey).join('[redacted]'));

  stats(): HttpStats {
    return {
      ...this.counters, byStatus: { ...this.counters.byStatus }, byRoute: { ...this.counters.byRoute },
      byRouteStatus: { ...this.counters.byRouteStatus }, timeline: this.counters.timeline.map((x) => ({ ...x })),
    };
  }

  async call<T>(spec: CallSpec<T>): Promise<CallResult<T>> {
    const safety: Safety = spec.safety ?? (spec.method === 'POST' ? 'unsafe' : 'idempotent');
    const retries = Math.min(spec.retries ?? Infinity, this.opts.retries ?? 6);
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw new ApiError(API_CODES.closed, `${spec.route} not sent: the client is closed`, { route: spec.route, notProcessed: true });
      try {
        return await this.untilRefused(spec, (sending) => this.opts.limiter.schedule((report) => this.once(spec, attempt, report, sending), { priority: spec.priority }));
      } catch (e) {
        const err = e instanceof ApiError ? e : new ApiError(API_CODES.network, `${spec.route} failed unexpectedly`, { cause: e, route: spec.route });
        err.attempts = attempt + 1;
        const action = decide(err, safety);
        // A creation that may have been made is looked up, not retried: the look-up, a call of its own, tells.
        const overBudget = action === 'retry' && spec.spendsBudget !== false && this.failedOverBudget(err);
        if (action !== 'retry' || attempt >= retries || this.closed || overBudget) throw err;
        const delay = retryDelay(attempt, err.hints, this.opts, Date.now(), this.opts.random);
        if (delay.giveUp) throw err;
        if (this.budgetEnd !== undefined && Date.now() + delay.ms >= this.budgetEnd) {
          if (spec.spendsBudget === false) throw err;
          this.spend(err);
          throw err;
        }
        this.counters.retries++;
        this.opts.logger?.warn({ route: spec.route, code: err.code, status: err.statusCode, attempt, delayMs: delay.ms }, 'api call failed, retrying');
        await this.sleep(delay.ms);
      }
    }
  }

  /**
   * The call's result, or its refusal as soon as the key or its resource is refused: a call still queued in the
   * limiter then fails at once instead of waiting for its turn to be refused (400 queued submissions behind a
   * wrong key would otherwise take minutes to drain). The queued attempt itself is refused unsent at its turn.
   * Once sent, a call stops listening (`sending`) and ends with the provider's own answer: a submission already
   * on the wire when another call met a 401 may have been bought, and must not be reported as "not sent".
   */
  private untilRefused<T>(spec: CallSpec<unknown>, send: (sending: () => void) => Promise<T>): Promise<T> {
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
   * The refusal standing against this call, if the key or its resource was refused earlier, or the wait budget
   * was spent on a failing upstream.
   */
  private refusalFor(spec: CallSpec<unknown>): ApiError | undefined {
    const prior = this.keyRefusal ?? this.refusedResources.get(resourceOf(spec)) ?? this.outOfTime;
    if (!prior) return undefined;
    return new ApiError(prior.code as ApiErrorCode, `${spec.route} not sent: ${prior.message}`, {
      route: spec.route, statusCode: prior.statusCode, providerCode: prior.providerCode, notProcessed: true,
    });
  }

  /**
   * Remembers a refusal so that no further call meets it again: a 401 at once, a 403 once it is plainly plan-wide
   * (PLAN_WIDE_403 in a row from the resource). Returns the error the call fails with: a 403 short of that
   * refuses its own call only.
   */
  private noteRefusal(spec: CallSpec<unknown>, err: ApiError): ApiError {
    if (err.code === API_CODES.unauthorized) this.keyRefusal ??= err;
    else if (err.code === API_CODES.forbidden) {
      const resource = resourceOf(spec);
      const streak = (this.forbiddenStreak.get(resource) ?? 0) + 1;
      this.forbiddenStreak.set(resource, streak);
      if (streak < PLAN_WIDE_403) {
        return new ApiError(API_CODES.forbiddenOne, `${err.message} (${streak} refused in a row; ${PLAN_WIDE_403} refuse the resource for the night)`, {
          statusCode: err.statusCode, route: err.route, providerCode: err.providerCode, reasons: err.reasons, notProcessed: true,
        });
      }
      if (!this.refusedResources.has(resource)) this.refusedResources.set(resource, err);
    } else return err;
    for (const w of [...this.waiters]) w();
    return err;
  }

  /** One attempt; throws ApiError. */
  private async once<T>(spec: CallSpec<T>, attempt: number, report: (fb: Feedback) => void, sending?: () => void): Promise<CallResult<T>> {
    const refused = this.refusalFor(spec);
    if (refused) {
      report({});
      throw refused;
    }
    sending?.();
    const base = this.bases[spec.base];
    const path = spec.absolute !== undefined ? this.samePath(base, spec.absolute, spec.route) : `${base.prefix}${spec.path}${buildQuery(spec.query)}`;
    const headers: Record<string, string> = { 'api-key': this.opts.apiKey, accept: 'application/json' };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    const { headersMs, bodyMs } = this.deadlines;
    const t0 = performance.now();
    const sentAt = Date.now();
    const done = (status: number | 'network', limitHeaders: { limit?: number; remaining?: number } = {}): number => {
      const ms = Math.round(performance.now() - t0);
      this.counters.calls++;
      const key = String(status);
      this.counters.byStatus[key] = (this.counters.byStatus[key] ?? 0) + 1;
      this.counters.byRoute[spec.route] = (this.counters.byRoute[spec.route] ?? 0) + 1;
      const rs = `${spec.route} ${key}`;
      this.counters.byRouteStatus[rs] = (this.counters.byRouteStatus[rs] ?? 0) + 1;
      this.slice(status, limitHeaders);
      this.opts.onCall?.({ method: spec.method, route: spec.route, status, ms, attempt });
      this.opts.logger?.debug({ method: spec.method, route: spec.route, status, ms, attempt }, 'api call');
      return ms;
    };
    const abort = new AbortController();
    this.inFlight.add(abort);
    // A failure of this attempt as the caller should see it: cut off at a deadline or by SIGTERM, or the network's.
    const failure = (e: unknown): ApiError => {
      const cause = abort.signal.aborted ? abort.signal.reason as AbortCause : undefined;
      if (cause?.kind === 'closed') {
        return new ApiError(API_CODES.closed, `${spec.route} cut off: the run is stopping`, { route: spec.route, ambiguous: true });
      }
      if (cause?.kind === 'deadline') return errorForTimeout(cause.phase, cause.ms, spec.route);
      const phase = timeoutPhaseOf(e);
      if (phase) return errorForTimeout(phase, phase === 'connect' ? this.deadlines.connectMs : phase === 'headers' ? headersMs : bodyMs, spec.route);
      return errorForNetwork(e, spec.route);
    };
    let bodyTimer: NodeJS.Timeout | undefined;
    try {
      let res: Awaited<ReturnType<Pool['request']>>;
      try {
        if (this.closed) abort.abort({ kind: 'closed' } satisfies AbortCause);
        // undici's own deadlines for the connection (the pool's) and the headers; the body's is the timer below.
        res = await base.pool.request({ method: spec.method, path, headers, body, signal: abort.signal, headersTimeout: headersMs, bodyTimeout: bodyMs });
      } catch (e) {
        done('network');
        report({});
        throw failure(e);
      }
      bodyTimer = setTimeout(() => abort.abort({ kind: 'deadline', phase: 'body', ms: bodyMs } satisfies AbortCause), bodyMs);
      return await this.answer(spec, res, { sentAt, t0, report, done, failure });
    } finally {
      clearTimeout(bodyTimer);
      this.inFlight.delete(abort);
    }
  }

  /** Reads and checks an answer whose headers arrived; throws ApiError. */
  private async answer<T>(spec: CallSpec<T>, res: Awaited<ReturnType<Pool['request']>>, at: {
    sentAt: number; t0: number; report: (fb: Feedback) => void;
    done: (status: number | 'network', limits?: { limit?: number; remaining?: number }) => number; failure: (e: unknown) => ApiError;
  }): Promise<CallResult<T>> {
    const { report, failure } = at;
    const status = res.statusCode;
    this.observeDate(typeof res.headers.date === 'string' ? res.headers.date : undefined, at.sentAt, Date.now());
    const limits = { limit: numberHeader(res.headers['x-ratelimit-limit']), remaining: numberHeader(res.headers['x-ratelimit-remaining']) };
    const done = (s: number | 'network'): number => at.done(s, limits);
    const retryAfterMs = parseRetryAfter(String(res.headers['retry-after'] ?? ''), Date.now());
    report({ status, headers: res.headers, latencyMs: performance.now() - at.t0, retryAfterMs });
    let text: string;
    try {
      text = await readCapped(res.body, this.opts.maxBodyBytes ?? 64 * 1024 * 1024);
    } catch (e) {
      if (e instanceof ApiError) {
        done(status);
        // Refused as too large: the upstream answered all the same.
        if (status < 500) this.counters.answered++;
        throw new ApiError(e.code as ApiErrorCode, `${spec.route} ${e.message}`, { route: spec.route, statusCode: status });
      }
      done('network');
      throw failure(e);
    }
    done(status);
    if (status < 500) this.counters.answered++;
    const flat = flatHeaders(res.headers);
    const hints: RetryHints = {
      retryAfter: flat['retry-after'], rateLimitReset: flat['x-ratelimit-reset'], rateLimitRemaining: flat['x-ratelimit-remaining'],
    };
    let parsed: unknown;
    let parseFailed = false;
    // A body read by parseText is parsed there; an error body is small and parsed here either way.
    const ok = (spec.ok ?? [200, 201]).includes(status);
    if (!ok || !spec.parseText) {
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parseFailed = true;
      }
    }
    if (!ok) {
      throw this.noteRefusal(spec, errorForStatus(status, parsed, spec.route, this.redact, hints, retryAfterMs));
    }
    this.forbiddenStreak.delete(resourceOf(spec));
    try {
      if (spec.parseText) return { status, body: spec.parseText(text, status), headers: flat };
      if (parseFailed) throw badResponse(spec.route, 'not JSON', status);
      return { status, body: spec.parse(parsed, status), headers: flat };
    } catch (e) {
      if (e instanceof ShapeError) throw badResponse(spec.route, this.redact(e.message), status);
      if (e instanceof SyntaxError && spec.parseText) throw badResponse(spec.route, 'not JSON', status);
      throw e;
    }
  }

  /** Path and query of an address the service gave (links.next), refused when it leaves the base's origin. */
  private samePath(base: Base, address: string, route: string): string {
    let u: URL;
    try {
      u = new URL(address, base.origin);
    } catch {
      throw badResponse(route, 'links.next is not an address');
    }
    // The key must never go to another host, whatever the service says.
    if (u.origin !== base.origin) throw badResponse(route, 'links.next points to another origin');
    return `${u.pathname}${u.search}`;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = { timer: setTimeout(() => { this.sleeps.delete(entry); resolve(); }, ms), resolve };
      this.sleeps.add(entry);
    });
  }

  /** Ends everything: retry waits, and calls still in flight (cut off); the sockets are destroyed, not drained. */
  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.sleeps) { clearTimeout(s.timer); s.resolve(); }
    this.sleeps.clear();
    for (const a of this.inFlight) a.abort({ kind: 'closed' } satisfies AbortCause);
    await Promise.all([...this.pools.values()].map((p) => p.destroy().catch(() => undefined)));
  }
}

/**
 * The resource a call belongs to, for remembering a 403: its base and the first segment of its path
 * (`requests:requests`, `requests:responses`, `lawsuits:requests`, `transfer:transfer-file`, ...).
 */
/** A resource that answers 403 this many times in a row, with no success between, is refused for good (plan-wide). */
export const PLAN_WIDE_403 = 3;

export function resourceOf(spec: Pick<CallSpec<unknown>, 'base' | 'route'>): string {
  const path = spec.route.split(' ')[1] ?? '';
  return `${spec.base}:${path.split('/')[1] ?? ''}`;
}

function numberHeader(v: string | string[] | undefined): number | undefined {
  const n = Number(Array.isArray(v) ? v[0] : v);
  return v === undefined || !Number.isFinite(n) ? undefined : n;
}

/** The body as text, refusing one larger than `max` bytes without holding more than that. */
async function readCapped(body: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes > max) {
      (body as { destroy?: () => void }).destroy?.();
      throw new ApiError(API_CODES.tooLarge, `answered a body larger than ${max} bytes; ask for smaller pages`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, bytes).toString('utf8');
}
