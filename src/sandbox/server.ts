// The sandbox's HTTP server (node:http only). One place wraps every API route with what the real service
// does around it: rate limit and its headers, api-key auth, fault injection and call counting.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { instantOf, type AsOf } from './as-of.js';
import { authenticate } from './auth.js';
import { SandboxClock } from './clock.js';
import type { CallContext, Reply, ResolvedOptions, RouteDef, RouteModule, SandboxState } from './context.js';
import { CallbackDispatcher, DEFAULT_CALLBACK_OPTIONS, type CallbackStats } from './callbacks.js';
import { Counters, type CounterSnapshot } from './counters.js';
import { DEFAULT_DIALECT, DIALECTS, parseDialect, type Dialect, type DialectName } from './dialect.js';
import { dialectError } from './error-body.js';
import { FaultInjector, toFaultSettings, type FaultSettings } from './faults.js';
import { ForeignClient } from './foreign-client.js';
import type { TransferSandboxOptions } from './transfer/context.js';
import { TRANSFER_OPTIONS_KEY } from './transfer/route-module.js';
import { RATE_HEADER_NAMES, rateHeaders } from './rate-headers.js';
import { SlidingWindowLimiter } from './rate-limit.js';
import { randomBootId, RequestStore } from './request-store.js';
import { renderResponseItem } from './response-item.js';
import { notInPlan, parseResources, ResourcePlan, resourceOf, type Resource } from './resource-plan.js';
import { Router } from './router.js';
import { routeModules } from './routes/index.js';
import { sampleDocuments, type SampleDocument } from './samples.js';
import { runSearch } from './search.js';
import { validateSearchBody } from './search-validation.js';
import type { StoredTracking } from './tracking/records.js';
import { parseRunContent, type RunContent } from './tracking/run-content.js';
import { Trackings } from './tracking/trackings.js';
import { Universe } from './universe.js';

export interface SandboxOptions {
  /** TCP port; 0 picks a free one. Default 0. */
  port?: number;
  /** Interface to listen on. Default '127.0.0.1'. */
  host?: string;
  /** Seed of the synthetic universe and of fault draws. Default 1. */
  seed?: number;
  /** Number of lawsuit instances in the universe. Default 20000 (constant memory up to 1,000,000 and more). */
  lawsuits?: number;
  /** Valid api-keys. Default ['sandbox-key']. */
  apiKeys?: string[];
  /** Keys answered 403 INSUFFICIENT_PERMISSIONS (no permission). Default ['sandbox-noperm']. */
  noPermissionKeys?: string[];
  /** Keys answered 403 with a usage-limit-exceeded message. Default ['sandbox-overquota']. */
  overQuotaKeys?: string[];
  /** Calls allowed per key per window. Default 180 (the real provider's). */
  rateLimit?: number;
  /** Sliding window of the rate limit, in milliseconds. Default 60000. */
  rateWindowMs?: number;
  /** Time between two courts' items appearing in a request, in ms of the sandbox clock. Default 0. */
  courtDelayMs?: number;
  /** Initial sandbox time (it then flows with real time, or faster: `dayMs`): day 0 of the sandbox. Default: now. */
  now?: Date | string;
  /** Real milliseconds a sandbox day lasts: below 86,400,000 the sandbox clock runs that much faster than real time
   * (trackings' runs and the universe's changes come sooner; court delays and queues shrink alike). Default 86,400,000. */
  dayMs?: number;
  /** What a tracking's run sends after its first: the lawsuits that changed since the previous run, or every lawsuit
   * its search finds (the provider's choice is not documented). Default 'changed'. */
  trackingRuns?: RunContent;
  /** Fault switches, as settings or a spec string (see faults.ts). Default none. */
  faults?: FaultSettings | string;
  /** customer_key values that name a stored credential lifting secrecy levels 1-4. Default ['sandbox-credential']. */
  credentialKeys?: string[];
  /** Transfer files: catalogue, faults (see transfer/faults.ts, e.g. from `--transfer-faults`). Default 12 files, no faults. */
  transfer?: TransferSandboxOptions;
  /** Route modules added to those of routes/index.ts (same auth, rate limit, faults and counters). Default none. */
  extraRoutes?: RouteModule[];
  /** Part of every generated id, so that a restarted sandbox never gives an id twice. Pin it for full
   * determinism ([A-Za-z0-9_-], 1-64 characters). Default: random per process. */
  bootId?: string;
  /** Resources left out of the plan: every call to them is answered 403 INSUFFICIENT_PERMISSIONS. Default none. */
  forbid?: Resource[];
  /** How long a finished request and its responses are kept, in wall-clock ms; then GET /requests/<id> is a 404.
   * Default 12 hours (a night's run and its retries). */
  retentionMs?: number;
  /** The dialect the API answers in (dialect.ts): the spec's literal reading, or the provider's documented one.
   * Default DEFAULT_DIALECT. */
  dialect?: DialectName;
  /** Wait before the second attempt of a delivery to a callback_url not answered 2xx, doubled for each attempt after it, in ms. Default 1000. */
  callbackRetryMs?: number;
  /** Attempts of one delivery to a callback_url before it is given up (dropped). Default 8. */
  callbackAttempts?: number;
}

/** Default retention of finished requests: longer than a night's run, short enough to bound a backfill's memory. */
const DEFAULT_RETENTION_MS = 12 * 3_600_000;

/** Every problem of the options at once (RangeError), or the options resolved. */
function resolveOptions(opts: SandboxOptions): { options: ResolvedOptions; forbid: Resource[]; faults: FaultSettings; dialect: Dialect; trackingRuns: RunContent } {
  const problems: string[] = [];
  const nonNegative = (name: string, v: number | undefined) => {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) problems.push(`${name} must be a non-negative number (got ${String(v)})`);
  };
  nonNegative('retentionMs', opts.retentionMs);
  nonNegative('courtDelayMs', opts.courtDelayMs);
  nonNegative('rateLimit', opts.rateLimit);
  nonNegative('rateWindowMs', opts.rateWindowMs);
  nonNegative('callbackRetryMs', opts.callbackRetryMs);
  if (opts.callbackAttempts !== undefined && !(Number.isInteger(opts.callbackAttempts) && opts.callbackAttempts >= 1)) problems.push(`callbackAttempts must be a whole number of at least 1 (got ${String(opts.callbackAttempts)})`);
  if (opts.dayMs !== undefined && !(Number.isFinite(opts.dayMs) && opts.dayMs > 0)) problems.push(`dayMs must be a positive number (got ${String(opts.dayMs)})`);
  const trackingRuns = parseRunContent(opts.trackingRuns, 'trackingRuns', problems) ?? 'changed';
  if (opts.bootId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(opts.bootId)) problems.push(`bootId must be 1-64 characters of [A-Za-z0-9_-] (got ${JSON.stringify(opts.bootId)})`);
  const forbid = opts.forbid === undefined ? [] : parseResources(opts.forbid, 'forbid', problems);
  let faults: FaultSettings = {};
  try { faults = toFaultSettings(opts.faults); } catch (e) { problems.push((e as Error).message); }
  const dialect = DIALECTS[parseDialect(opts.dialect, 'dialect', problems) ?? DEFAULT_DIALECT];
  if (problems.length) throw new RangeError(`invalid sandbox options: ${problems.join('; ')}`);
  const options: ResolvedOptions = {
    seed: opts.seed ?? 1,
    lawsuits: opts.lawsuits ?? 20000,
    apiKeys: opts.apiKeys ?? ['sandbox-key'],
    noPermissionKeys: opts.noPermissionKeys ?? ['sandbox-noperm'],
    overQuotaKeys: opts.overQuotaKeys ?? ['sandbox-overquota'],
    rateLimit: opts.rateLimit ?? 180,
    rateWindowMs: opts.rateWindowMs ?? 60_000,
    courtDelayMs: opts.courtDelayMs ?? 0,
    credentialKeys: opts.credentialKeys ?? ['sandbox-credential'],
    bootId: opts.bootId ?? randomBootId(),
    retentionMs: opts.retentionMs ?? DEFAULT_RETENTION_MS,
  };
  return { options, forbid, faults, dialect, trackingRuns };
}

export interface Sandbox {
  /** Base address, e.g. http://127.0.0.1:PORT, for all four base addresses. */
  url: string;
  close(): Promise<void>;
  universe: Universe;
  counters(): CounterSnapshot;
  resetCounters(): void;
  setFaults(f: FaultSettings | string): void;
  /** Takes resources out of the plan (403 on every call to them); an empty list restores the whole plan. */
  setForbidden(forbid: Resource[]): void;
  setNow(d: Date): void;
  advanceDays(n: number): void;
  /** The sandbox day of now (0: the starting day). */
  day(): number;
  /** The lawsuits a search (the `search` object of POST /requests) returns now, or as of a day or instant. */
  truth(search: object, asOf?: AsOf): Array<{ code: string; instance: number }>;
  /** What trackings' runs due from now on send (the option `trackingRuns`). */
  setTrackingRuns(content: RunContent): void;
  /** Has another client sharing `apiKey` (default the first valid key) track up to `count` documents of its own. */
  foreignTrackings(count: number, recurrence: number, apiKey?: string): StoredTracking[];
  sampleDocuments(n: number, seedOffset?: number): SampleDocument[];
  /** What the pushing to callback_urls did so far. */
  callbacks(): CallbackStats;
  /** Resolves once every response of the requests with a callback_url, those still running included, is delivered or given up. */
  callbacksSettled(): Promise<void>;
  /** The state routes share, for route modules and white-box tests. */
  state: SandboxState;
}

const MAX_BODY = 1 << 20;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => { size += c.length; if (size <= MAX_BODY) chunks.push(c); });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  let base = '';
  const state = sandboxState(opts, () => base);
  const router = new Router([...routeModules, ...(opts.extraRoutes ?? [])].flatMap((m) => m(state)));
  const server = createServer((req, res) => {
    handle(state, router, req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, inDialect(state.dialect, { status: 500, body: { error: { name: 'InternalError', message: (e as Error).message, data: [] } } }), {});
      else res.destroy();
    });
  });
  // Longer than a client's own idle keep-alive (undici closes after 4 s): the client, not the server, closes an
  // idle connection, so a call sent on a connection never meets the server closing it at that very moment.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  base = `http://${host}:${addr.port}`;
  return sandboxHandle(state, base, () => new Promise<void>((resolve) => {
    state.callbacks.close();
    server.close(() => resolve());
    server.closeAllConnections();
  }));
}

/** The state the routes share: the synthetic universe, the stores, the clock, the faults, the limiter and the plan. */
function sandboxState(opts: SandboxOptions, baseUrl: () => string): SandboxState {
  const { options, forbid, faults, dialect, trackingRuns } = resolveOptions(opts);
  const universe = new Universe({ seed: options.seed, lawsuits: options.lawsuits });
  const store = new RequestStore(universe, { seed: options.seed, bootId: options.bootId, courtDelayMs: options.courtDelayMs, retentionMs: options.retentionMs });
  const injector = new FaultInjector(options.seed, faults);
  const limiter = new SlidingWindowLimiter(options.rateLimit, options.rateWindowMs);
  const trackings = new Trackings({ universe, requests: store, seed: options.seed, bootId: options.bootId, levels: dialect.levels }, trackingRuns);
  const clock = new SandboxClock(opts.now, opts.dayMs);
  const state: SandboxState = {
    options,
    dialect,
    universe,
    clock,
    store,
    trackings,
    faults: injector,
    counters: new Counters(),
    limiter,
    plan: new ResourcePlan(forbid),
    foreign: new ForeignClient({ universe, store, trackings, limiter, faults: injector }),
    callbacks: new CallbackDispatcher({
      store, clock, faults: injector, trackings, seed: options.seed, render: (r, n, now) => renderResponseItem(state, r, n, now),
    }, { ...DEFAULT_CALLBACK_OPTIONS, retryMs: opts.callbackRetryMs ?? DEFAULT_CALLBACK_OPTIONS.retryMs, attempts: opts.callbackAttempts ?? DEFAULT_CALLBACK_OPTIONS.attempts }),
    baseUrl,
    extensions: new Map<string, unknown>(opts.transfer ? [[TRANSFER_OPTIONS_KEY, opts.transfer]] : []),
  };
  return state;
}

/** What a test or the CLI holds of a running sandbox: its address, its controls and its ground truth. */
function sandboxHandle(state: SandboxState, url: string, close: () => Promise<void>): Sandbox {
  const { universe, trackings, options } = state;
  return {
    url,
    state,
    universe,
    close,
    counters: () => state.counters.snapshot(),
    resetCounters: () => state.counters.reset(),
    setFaults: (f) => state.faults.set(f),
    setForbidden: (f) => state.plan.set(f),
    setNow: (d) => state.clock.set(d),
    advanceDays: (n) => state.clock.advanceDays(n),
    day: () => state.clock.dayOf(state.clock.now()),
    truth: (search, asOf) => {
      const v = validateSearchBody('search' in search ? search : { search });
      if (!v.ok) throw new RangeError(`invalid search: ${v.reasons.join('; ')}`);
      return runSearch(universe, v.search, instantOf(state.clock, asOf)).map((h) => ({ code: h.code, instance: h.instance }));
    },
    setTrackingRuns: (content) => trackings.setRunContent(content, state.clock.now()),
    foreignTrackings: (count, recurrence, apiKey = options.apiKeys[0]) => state.foreign.track(apiKey, count, recurrence, state.clock.now()),
    sampleDocuments: (n, seedOffset) => sampleDocuments(universe, state.clock.now(), n, seedOffset),
    callbacks: () => ({ ...state.callbacks.stats, droppedIds: [...state.callbacks.stats.droppedIds] }),
    callbacksSettled: () => state.callbacks.settled(),
  };
}

/** The reply with its error body in the dialect's form (error-body.ts); introspection replies are never passed here. */
function inDialect(d: Dialect, reply: Reply): Reply {
  return reply.status < 400 ? reply : { ...reply, body: dialectError(d, reply.status, reply.body) };
}

/**
 * Writes a streamed reply piece by piece, waiting for the socket to drain (backpressure), so the pieces not yet
 * written are not yet made. Truncated: the first piece only, then the connection dropped, as `send` cuts a body.
 */
async function sendStream(res: ServerResponse, reply: Reply, extra: Record<string, string>, truncate: boolean): Promise<void> {
  res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...extra, ...(reply.headers ?? {}) });
  for (const piece of reply.stream!) {
    if (res.destroyed) return;
    if (!res.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = () => { res.off('drain', done); res.off('close', done); resolve(); };
        res.on('drain', done);
        res.on('close', done);
      });
    }
    if (truncate) { res.socket?.destroy(); return; }
  }
  res.end();
}

function send(res: ServerResponse, reply: Reply, extra: Record<string, string>, truncate = false): void {
  const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
  const buf = Buffer.from(text, 'utf8');
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(buf.length),
    ...extra,
    ...(reply.headers ?? {}),
  });
  if (truncate && buf.length > 1) {
    // Announce the whole body, deliver half, then drop the connection: a truncated answer.
    res.write(buf.subarray(0, Math.floor(buf.length / 2)));
    res.socket?.destroy();
    return;
  }
  res.end(buf);
}

async function handle(state: SandboxState, router: Router, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', state.baseUrl() || 'http://localhost');
  const method = (req.method ?? 'GET').toUpperCase();
  const m = router.match(method, url.pathname);
  if (!m.route) {
    await readBody(req);
    answerUnmatched(state, res, method, url.pathname, m.methodNotAllowed ? 405 : 404);
    return;
  }
  const route: RouteDef = m.route;
  const raw = await readBody(req);
  const ctx: CallContext = { req, res, url, params: m.params, body: undefined, apiKey: '', state, now: state.clock.now() };
  if (route.api) {
    await handleApiCall(state, route, ctx, raw);
    return;
  }
  // An introspection call closes its connection: a test that calls it between two long blocking waits (a child
  // run through spawnSync) would otherwise write its next call on a kept-alive socket this server closed meanwhile
  // (its keep-alive timeout is 5 s) before it could see the close, and fail with "other side closed".
  const close = { connection: 'close' };
  const parsed = parseJson(raw);
  if (!parsed.ok) { send(res, jsonError(), close); return; }
  ctx.body = parsed.value;
  const reply = await route.handle(ctx);
  if (!reply.handled) send(res, reply, close);
}

/** No route: an API path is answered in the dialect and counted as the upstream would; a `/_sandbox/` one is not. */
function answerUnmatched(state: SandboxState, res: ServerResponse, method: string, pathname: string, status: 404 | 405): void {
  const sandboxPath = pathname.startsWith('/_sandbox/');
  if (!sandboxPath) state.counters.record(`${method} UNMATCHED`, status);
  const reply: Reply = { status, body: { error: { name: status === 404 ? 'NotFound' : 'MethodNotAllowed', message: `${method} ${pathname}`, data: [] } } };
  send(res, sandboxPath ? reply : inDialect(state.dialect, reply), {});
}

/** One API call's answering: its counter, its faults and its rate headers (handleApiCall). */
interface ApiCall {
  /** Counts the call under its route, with the status (or what happened instead) it ended with. */
  record(status: number | string): void;
  faults: ReturnType<SandboxState['faults']['draw']>;
  /** The rate headers of an answer of this status, in the dialect's form (rate-headers.ts). */
  rateHeadersOf(status: number): Record<string, string>;
  /** Sends the reply, in the dialect, with its rate headers. */
  answer(reply: Reply, truncate?: boolean): void;
}

/**
 * An API call, wrapped in what the real service does around a route: the rate limit and its headers, the faults
 * drawn for the call (some before processing, some after), api-key auth, the plan's refusals, and counting.
 */
async function handleApiCall(state: SandboxState, route: RouteDef, ctx: CallContext, raw: string): Promise<void> {
  const { req, res } = ctx;
  const label = `${route.method} ${route.path}`;
  const d = state.dialect;
  const header = req.headers['api-key'];
  const bucket = (Array.isArray(header) ? header[0] : header)?.trim() || `anonymous:${req.socket.remoteAddress ?? ''}`;
  // Another client on the key (the `foreign` fault) made its requests before this call: they are in its window.
  // The key's trackings (its own and any other client's) made the runs due by now: the call sees them.
  if (state.options.apiKeys.includes(bucket)) {
    state.foreign.catchUp(bucket, ctx.now);
    state.trackings.catchUp(bucket, ctx.now);
  }
  const faults = state.faults.draw();
  const limit = faults.storm429
    ? { ...state.limiter.peek(bucket), allowed: false, remaining: 0, retryAfterSec: Math.max(1, Math.ceil(state.faults.stormRemainingMs() / 1000)) }
    : state.limiter.take(bucket);
  const omitRateHeaders = state.faults.omitsRateHeaders();
  const rateHeadersOf = (status: number) => rateHeaders(d, limit, status, omitRateHeaders);
  const call: ApiCall = {
    record: (status) => state.counters.record(label, status),
    faults,
    rateHeadersOf,
    answer: (reply, truncate = false) => send(res, inDialect(d, reply), rateHeadersOf(reply.status), truncate),
  };
  if (!limit.allowed) {
    call.record(429);
    // A dialect that sends no Retry-After does not tell the wait in words either: the client must find it.
    const message = d.rateHeaders.retryAfter ? `Rate limit exceeded: retry in ${limit.retryAfterSec} s` : 'Rate limit exceeded';
    call.answer({ status: 429, body: { error: 'Too Many Requests', message, code: 'RATE_LIMITED' } });
    return;
  }
  if (!admitted(state, ctx, call, label, header)) return;
  await processApiCall(route, ctx, call, raw);
}

/** The call passes what strikes before processing (a reset, a 5xx, auth, the plan); false when it was answered so. */
function admitted(state: SandboxState, ctx: CallContext, call: ApiCall, label: string, header: string | string[] | undefined): boolean {
  const { record, answer, faults } = call;
  // Faults that strike before the call is processed leave no trace in the sandbox's state.
  if (faults.reset) { record('reset'); ctx.req.socket.destroy(); return false; }
  if (faults.error5xx) {
    record(faults.error5xx);
    answer({ status: faults.error5xx, body: { error: { name: 'InternalError', message: 'Upstream failure (injected)', data: [] } } });
    return false;
  }
  const auth = authenticate(header, state.options);
  if (!auth.ok) { record(auth.status); answer({ status: auth.status, body: auth.body }); return false; }
  ctx.apiKey = auth.key;
  const resource = resourceOf(label);
  if (state.plan.forbids(resource)) { record(403); answer({ status: 403, body: notInPlan(resource!) }); return false; }
  return true;
}

/** The route's answer to an admitted call, and the faults that strike after processing. */
async function processApiCall(route: RouteDef, ctx: CallContext, call: ApiCall, raw: string): Promise<void> {
  const { req, res } = ctx;
  const { record, faults } = call;
  const parsed = parseJson(raw);
  let reply: Reply;
  if (!parsed.ok) reply = jsonError();
  else {
    ctx.body = parsed.value;
    // A route that writes its answer itself finds the headers of a success already set (transfer/routes.ts
    // takes them off an error of its own where the dialect sends none).
    for (const [name, value] of Object.entries(call.rateHeadersOf(200))) res.setHeader(name, value);
    reply = await route.handle(ctx);
    if (reply.handled) { record(reply.status); return; }
    for (const name of RATE_HEADER_NAMES) res.removeHeader(name);
  }
  // Faults that strike after processing: the state has changed, the caller cannot tell.
  if (faults.resetAfter) { record('reset'); req.socket.destroy(); return; }
  if (route.mutates && faults.postAfterStore && reply.status < 300) {
    reply = { status: 500, body: { error: { name: 'InternalError', message: 'Upstream failure after processing (injected)', data: [] } } };
  }
  if (faults.slowMs > 0) await sleep(faults.slowMs);
  record(faults.truncate ? `${reply.status}-truncated` : reply.status);
  if (reply.stream && reply.status < 300) await sendStream(res, reply, call.rateHeadersOf(reply.status), faults.truncate);
  else call.answer(reply, faults.truncate);
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  if (raw.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

function jsonError(): Reply {
  return { status: 400, body: { error: { name: 'ValidationError', message: 'Body is not valid JSON', data: ['body must be JSON'] } } };
}
