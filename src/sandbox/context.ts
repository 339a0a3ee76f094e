// What a route sees: the sandbox's state and the parsed call. Auth, rate limit, faults and counters are
// applied around every route by server.ts, so an added route file gets them for free.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxClock } from './clock.js';
import type { CallbackDispatcher } from './callbacks.js';
import type { Counters } from './counters.js';
import type { Dialect } from './dialect.js';
import type { FaultInjector } from './faults.js';
import type { ForeignClient } from './foreign-client.js';
import type { SlidingWindowLimiter } from './rate-limit.js';
import type { RequestStore } from './request-store.js';
import type { ResourcePlan } from './resource-plan.js';
import type { Trackings } from './tracking/trackings.js';
import type { Universe } from './universe.js';

export interface ResolvedOptions {
  seed: number;
  lawsuits: number;
  apiKeys: string[];
  noPermissionKeys: string[];
  overQuotaKeys: string[];
  rateLimit: number;
  rateWindowMs: number;
  courtDelayMs: number;
  credentialKeys: string[];
  /** Part of every generated id (requests, responses, tracking, synchronous answers). */
  bootId: string;
  /** Wall-clock ms a finished request and its responses are kept. */
  retentionMs: number;
}

export interface SandboxState {
  options: ResolvedOptions;
  /** The dialect the API answers in (dialect.ts): the spec's literal reading or the provider's documented one. */
  dialect: Dialect;
  universe: Universe;
  clock: SandboxClock;
  store: RequestStore;
  /** The trackings and their runs (made as requests in `store`). */
  trackings: Trackings;
  faults: FaultInjector;
  counters: Counters;
  limiter: SlidingWindowLimiter;
  /** Resources left out of the plan (answered 403). */
  plan: ResourcePlan;
  /** Another client on the key, when the `foreign` fault is on. */
  foreign: ForeignClient;
  /** Pushes the responses of requests and trackings made with a callback_url (callbacks.ts). */
  callbacks: CallbackDispatcher;
  /** Base address, e.g. http://127.0.0.1:PORT (no trailing slash). */
  baseUrl(): string;
  /** Free-form room for route modules added later (tracking, transfer files...) to keep their own state. */
  extensions: Map<string, unknown>;
}

export interface CallContext {
  req: IncomingMessage;
  /**
   * The raw response, for routes that must write their answer themselves (streams, non-JSON bodies): they
   * write it and return `{status, handled: true}`. The rate-limit headers are already set on it.
   */
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  /** Parsed JSON body (undefined when none). */
  body: unknown;
  /** The authenticated api-key (empty for introspection routes). */
  apiKey: string;
  state: SandboxState;
  /** Sandbox clock at the start of the call (ms). */
  now: number;
}

export interface Reply {
  status: number;
  body?: unknown;
  /**
   * The body as JSON text in pieces, instead of `body`: written piece by piece as the client reads (chunked), so
   * that an answer of any size holds one piece in memory at a time.
   */
  stream?: Iterable<string>;
  headers?: Record<string, string>;
  /** The route wrote the answer itself on ctx.res; the server only counts it (status is what was sent). */
  handled?: boolean;
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path pattern with `:name` parameters, e.g. `/requests/:id`; also the counters' endpoint label. */
  path: string;
  /** API routes need the api-key and are rate-limited, fault-injected and counted; `/_sandbox/` ones are not. */
  api: boolean;
  /** Whether a `post_after_store` fault may spoil this route's answer after it has been processed. */
  mutates?: boolean;
  handle(ctx: CallContext): Reply | Promise<Reply>;
}

/** A route file exports one of these; src/sandbox/routes/index.ts lists them. */
export type RouteModule = (state: SandboxState) => RouteDef[];

export function validationError(reasons: string[], status = 400, message = 'Validation failed'): Reply {
  return { status, body: { error: { name: 'ValidationError', message, data: reasons } } };
}

export function notFound(what: string): Reply {
  return { status: 404, body: { error: { name: 'NotFound', message: `${what} not found`, data: [] } } };
}

/** Values of a repeatable or comma-separated query parameter. */
export function listParam(url: URL, name: string): string[] {
  return url.searchParams.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}
