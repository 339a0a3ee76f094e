import { Pool } from 'undici';
import type { Logger } from 'pino';
import { decide, type Safety } from '../shared/failure-policy.js';
import { scrubText } from '../shared/logger.js';
import { API_CODES, ApiError, badResponse, errorForNetwork, errorForStatus, type ApiErrorCode } from './errors.js';
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
// refused; every further call would be refused too and still count against the key's window), and after a 403
// no call is sent to that resource (it is not in the plan, or over quota). Calls already queued in the limiter
// fail at their turn without being sent, so a wrong key costs one wave of calls, not one per document.

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
  /** Time-out for the answer's headers and, separately, between body chunks, in ms. Default 30 000. */
  timeoutMs?: number;
  /** Largest answer body accepted, in bytes; a larger one fails with API_TOO_LARGE. Default 64 MiB. */
  maxBodyBytes?: number;
  /** Sockets per origin pool. Default 16. */
  connections?: number;
  logger?: Logger;
  onCall?: (e: CallEvent) => void;
  /** Random source for the jitter, for tests. Default Math.random. */
  random?: () => number;
  /**
   * Aborted on SIGTERM: nothing more is sent (queued calls and retry waits end at once with API_CLOSED); calls
   * already sent finish.
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

export class HttpClient {
  private readonly bases: Record<BaseName, Base>;
  private readonly pools = new Map<string, Pool>();
  private readonly counters: HttpStats = { calls: 0, byStatus: {}, byRoute: {}, byRouteStatus: {}, retries: 0, timeline: [] };
  private firstCallAt: number | undefined;
  private readonly sleeps = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private closed = false;
  /** The 401 that refused the key, once one came back: nothing more is sent. */
  private keyRefusal: ApiError | undefined;
  /** Resources answered 403, by resource label (see resourceOf): nothing more is sent to them. */
  private readonly refusedResources = new Map<string, ApiError>();
  /** Calls waiting in the limiter, told at once when a refusal makes them pointless. */
  private readonly waiters = new Set<() => void>();
  private clock: ProviderClock | undefined;

  constructor(private readonly opts: HttpOptions) {
    if (!opts.apiKey) throw new ApiError(API_CODES.unauthorized, 'no API key given: check LAWSUIT_API_KEY / LAWSUIT_API_KEY_FILE');
    const bases = {} as Record<BaseName, Base>;
    for (const name of ['requests', 'tracking', 'lawsuits', 'transfer'] as const) {
      const u = new URL(opts.urls[name]);
      // One pool per origin: base addresses on the same host share their sockets.
      let pool = this.pools.get(u.origin);
      if (!pool) {
        pool = new Pool(u.origin, { connections: opts.connections ?? 16, pipelining: 1 });
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

  /** SIGTERM: queued calls and retry waits end now; nothing new is sent. */
  private stopSending(): void {
    this.closed = true;
    this.opts.limiter.close();
    for (const s of this.sleeps) { clearTimeout(s.timer); s.resolve(); }
    this.sleeps.clear();
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
    const retries = this.opts.retries ?? 6;
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw new ApiError(API_CODES.closed, `${spec.route} not sent: the client is closed`, { route: spec.route, notProcessed: true });
      try {
        return await this.untilRefused(spec, (sending) => this.opts.limiter.schedule((report) => this.once(spec, attempt, report, sending), { priority: spec.priority }));
      } catch (e) {
        const err = e instanceof ApiError ? e : new ApiError(API_CODES.network, `${spec.route} failed unexpectedly`, { cause: e, route: spec.route });
        err.attempts = attempt + 1;
        if (decide(err, safety) !== 'retry' || attempt >= retries || this.closed) throw err;
        const delay = retryDelay(attempt, err.hints, this.opts, Date.now(), this.opts.random);
        if (delay.giveUp) throw err;
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

  /** The refusal standing against this call, if the key or its resource was refused earlier. */
  private refusalFor(spec: CallSpec<unknown>): ApiError | undefined {
    const prior = this.keyRefusal ?? this.refusedResources.get(resourceOf(spec));
    if (!prior) return undefined;
    return new ApiError(prior.code as ApiErrorCode, `${spec.route} not sent: ${prior.message}`, {
      route: spec.route, statusCode: prior.statusCode, providerCode: prior.providerCode, notProcessed: true,
    });
  }

  /** Remembers a refusal so that no further call meets it again. */
  private noteRefusal(spec: CallSpec<unknown>, err: ApiError): void {
    if (err.code === API_CODES.unauthorized) this.keyRefusal ??= err;
    else if (err.code === API_CODES.forbidden) {
      const resource = resourceOf(spec);
      if (!this.refusedResources.has(resource)) this.refusedResources.set(resource, err);
    } else return;
    for (const w of [...this.waiters]) w();
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
    const timeout = this.opts.timeoutMs ?? 30_000;
    const t0 = performance.now();
    const sentAt = Date.now();
    let limitHeaders: { limit?: number; remaining?: number } = {};
    const done = (status: number | 'network'): number => {
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
    let res: Awaited<ReturnType<Pool['request']>>;
    try {
      res = await base.pool.request({ method: spec.method, path, headers, body, headersTimeout: timeout, bodyTimeout: timeout });
    } catch (e) {
      done('network');
      report({});
      throw errorForNetwork(e, spec.route);
    }
    const status = res.statusCode;
    this.observeDate(typeof res.headers.date === 'string' ? res.headers.date : undefined, sentAt, Date.now());
    limitHeaders = { limit: numberHeader(res.headers['x-ratelimit-limit']), remaining: numberHeader(res.headers['x-ratelimit-remaining']) };
    const retryAfterMs = parseRetryAfter(String(res.headers['retry-after'] ?? ''), Date.now());
    report({ status, headers: res.headers, latencyMs: performance.now() - t0, retryAfterMs });
    let text: string;
    try {
      text = await readCapped(res.body, this.opts.maxBodyBytes ?? 64 * 1024 * 1024);
    } catch (e) {
      if (e instanceof ApiError) {
        done(status);
        throw new ApiError(e.code as ApiErrorCode, `${spec.route} ${e.message}`, { route: spec.route, statusCode: status });
      }
      done('network');
      throw errorForNetwork(e, spec.route);
    }
    done(status);
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
      const err = errorForStatus(status, parsed, spec.route, this.redact, hints, retryAfterMs);
      this.noteRefusal(spec, err);
      throw err;
    }
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

  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.sleeps) { clearTimeout(s.timer); s.resolve(); }
    this.sleeps.clear();
    await Promise.all([...this.pools.values()].map((p) => p.close().catch(() => undefined)));
  }
}

/**
 * The resource a call belongs to, for remembering a 403: its base and the first segment of its path
 * (`requests:requests`, `requests:responses`, `lawsuits:requests`, `transfer:transfer-file`, ...).
 */
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
