import { Pool } from 'undici';
import type { Logger } from 'pino';
import { scrubText } from '../shared/logger.js';
import { API_CODES, ApiError, badResponse, errorForNetwork, errorForStatus } from './errors.js';
import { parseRetryAfter, retryDelay, type BackoffOptions, type RetryHints } from './backoff.js';
import type { AdaptiveLimiter, Feedback } from './rate-limit.js';
import { ShapeError } from './validate.js';

// The one place that talks HTTP to the service: adds the key, goes through the shared limiter, parses and
// checks the body, maps failures to typed errors, and retries what a retry can fix.
//
// Retry rules. A call is "idempotent" (GET, PATCH of a status, the read-only synchronous queries) or
// "unsafe" (a POST that creates something that may be billed). Idempotent calls are retried on every
// transient failure (429, 5xx, network). Unsafe calls are retried here only when the service surely did not
// act (429, or a connection that never opened); after an ambiguous failure the error is thrown with
// `ambiguous: true` so that the resource module can first look for what may have been created.

export type BaseName = 'requests' | 'tracking' | 'lawsuits' | 'transfer';
export type Safety = 'idempotent' | 'unsafe';
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
  /** Reads a successful answer's text itself, instead of JSON.parse + parse (to keep raw slices of it); throws ShapeError or SyntaxError. */
  parseText?: (text: string, status: number) => T;
}

export interface CallResult<T> { status: number; body: T; headers: Record<string, string> }

export interface CallEvent { method: string; route: string; status: number | 'network'; ms: number; attempt: number }

export interface HttpStats { calls: number; byStatus: Record<string, number>; byRoute: Record<string, number>; retries: number }

export interface HttpOptions extends BackoffOptions {
  apiKey: string;
  urls: Record<BaseName, string>;
  limiter: AdaptiveLimiter;
  /** Retries after the first attempt. Default 6. */
  retries?: number;
  /** Time-out for the answer's headers and, separately, between body chunks, in ms. Default 30 000. */
  timeoutMs?: number;
  /** Sockets per origin pool. Default 16. */
  connections?: number;
  logger?: Logger;
  onCall?: (e: CallEvent) => void;
  /** Random source for the jitter, for tests. Default Math.random. */
  random?: () => number;
}

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
  private readonly counters: HttpStats = { calls: 0, byStatus: {}, byRoute: {}, retries: 0 };
  private readonly sleeps = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private closed = false;

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
  }

  /** Removes the key and signed query strings from text that may end up in a message or a log. */
  redact = (text: string): string => scrubText(text.split(this.opts.apiKey).join('[redacted]'));

  stats(): HttpStats {
    return { ...this.counters, byStatus: { ...this.counters.byStatus }, byRoute: { ...this.counters.byRoute } };
  }

  async call<T>(spec: CallSpec<T>): Promise<CallResult<T>> {
    const safety = spec.safety ?? (spec.method === 'POST' ? 'unsafe' : 'idempotent');
    const retries = this.opts.retries ?? 6;
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw new ApiError(API_CODES.closed, `${spec.route} not sent: the client is closed`, { route: spec.route });
      try {
        return await this.opts.limiter.schedule((report) => this.once(spec, attempt, report), { priority: spec.priority });
      } catch (e) {
        const err = e instanceof ApiError ? e : new ApiError(API_CODES.network, `${spec.route} failed unexpectedly`, { cause: e, route: spec.route });
        err.attempts = attempt + 1;
        const mayRetry = err.transient && (safety === 'idempotent' || err.notProcessed);
        if (!mayRetry || attempt >= retries || this.closed) throw err;
        const delay = retryDelay(attempt, err.hints, this.opts, Date.now(), this.opts.random);
        if (delay.giveUp) throw err;
        this.counters.retries++;
        this.opts.logger?.warn({ route: spec.route, code: err.code, status: err.statusCode, attempt, delayMs: delay.ms }, 'api call failed, retrying');
        await this.sleep(delay.ms);
      }
    }
  }

  /** One attempt; throws ApiError. */
  private async once<T>(spec: CallSpec<T>, attempt: number, report: (fb: Feedback) => void): Promise<CallResult<T>> {
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
    const done = (status: number | 'network'): number => {
      const ms = Math.round(performance.now() - t0);
      this.counters.calls++;
      const key = String(status);
      this.counters.byStatus[key] = (this.counters.byStatus[key] ?? 0) + 1;
      this.counters.byRoute[spec.route] = (this.counters.byRoute[spec.route] ?? 0) + 1;
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
    const retryAfterMs = parseRetryAfter(String(res.headers['retry-after'] ?? ''), Date.now());
    report({ status, headers: res.headers, latencyMs: performance.now() - t0, retryAfterMs });
    let text: string;
    try {
      text = await res.body.text();
    } catch (e) {
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
    const ok = (spec.ok ?? [200, 201]).includes(status);
    try {
      parsed = text === '' || (ok && spec.parseText) ? undefined : JSON.parse(text);
    } catch {
      parseFailed = true;
    }
    if (!ok) throw errorForStatus(status, parsed, spec.route, this.redact, hints, retryAfterMs);
    if (parseFailed) throw badResponse(spec.route, 'not JSON', status);
    try {
      return { status, body: spec.parseText ? spec.parseText(text, status) : spec.parse(parsed, status), headers: flat };
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
