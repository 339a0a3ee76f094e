import { EtlError } from '../shared/errors.js';
import type { RetryHints } from './backoff.js';

// Every failure of a call to the Lawsuit Query Service becomes an ApiError with a constant code and the facts
// of the failure (status, whether the service surely did nothing, the provider's own code and reasons). What
// to do about it — retry, look up, give up, and how far it reaches — is the failure policy's decision
// (src/shared/failure-policy.ts), made from the code.

export const API_CODES = {
  unauthorized: 'API_UNAUTHORIZED',
  forbidden: 'API_FORBIDDEN',
  forbiddenOne: 'API_FORBIDDEN_ONE',
  secretLawsuit: 'API_SECRET_LAWSUIT',
  rateLimited: 'API_RATE_LIMITED',
  server: 'API_SERVER',
  network: 'API_NETWORK',
  badResponse: 'API_BAD_RESPONSE',
  validation: 'API_VALIDATION',
  notFound: 'API_NOT_FOUND',
  conflict: 'API_CONFLICT',
  http: 'API_HTTP',
  downloadExpired: 'API_DOWNLOAD_EXPIRED',
  downloadSize: 'API_DOWNLOAD_SIZE',
  downloadFailed: 'API_DOWNLOAD_FAILED',
  downloadRefused: 'API_DOWNLOAD_REFUSED',
  downloadDisk: 'API_DOWNLOAD_DISK',
  tooLarge: 'API_TOO_LARGE',
  invalidCall: 'API_INVALID_CALL',
  closed: 'API_CLOSED',
  timeout: 'API_TIMEOUT',
  outOfTime: 'API_OUT_OF_TIME',
} as const;
export type ApiErrorCode = (typeof API_CODES)[keyof typeof API_CODES];

interface ApiErrorOptions {
  cause?: unknown;
  /** HTTP status, when an answer arrived. */
  statusCode?: number;
  /** Route label such as "POST /requests"; never an address. */
  route?: string;
  /** True when the service surely did not act on the call (429, refused connection). */
  notProcessed?: boolean;
  /** True when a non-idempotent call may or may not have been acted on (reset or time-out after sending). */
  ambiguous?: boolean;
  /** The provider's own machine code (INVALID_API_KEY, RATE_LIMITED, ...), when its body carried one. */
  providerCode?: string;
  /** The provider's validation reasons (400/422) or conflict data (409). */
  reasons?: string[];
  /** Wait asked by the service (Retry-After), in ms. */
  retryAfterMs?: number;
  /** How many attempts were made before giving up. */
  attempts?: number;
  /** The answer's Retry-After / X-RateLimit-* headers, for the backoff. */
  hints?: RetryHints;
}

export class ApiError extends EtlError {
  readonly statusCode: number | undefined;
  readonly route: string | undefined;
  readonly notProcessed: boolean;
  readonly ambiguous: boolean;
  readonly providerCode: string | undefined;
  readonly reasons: string[];
  readonly retryAfterMs: number | undefined;
  readonly hints: RetryHints;
  attempts: number;
  constructor(code: ApiErrorCode, message: string, opts: ApiErrorOptions = {}) {
    // Whether the key was refused (exit 3) is the failure policy's reading of the code, and the CLI's to map.
    super(code, message, {
      cause: opts.cause,
      details: { statusCode: opts.statusCode, route: opts.route, providerCode: opts.providerCode },
    });
    this.name = 'ApiError';
    this.statusCode = opts.statusCode;
    this.route = opts.route;
    this.notProcessed = opts.notProcessed ?? false;
    this.ambiguous = opts.ambiguous ?? false;
    this.providerCode = opts.providerCode;
    this.reasons = opts.reasons ?? [];
    this.retryAfterMs = opts.retryAfterMs;
    this.attempts = opts.attempts ?? 1;
    this.hints = opts.hints ?? {};
  }
}

/**
 * What the error body said, in the shapes the service uses: flat `{error, message, code}` (the spec's 401/403)
 * and nested `{error: {name, message, data}}`, where `data` is a list of reasons or a single string.
 */
interface ProviderError { providerCode?: string; message?: string; reasons: string[] }

function readProviderError(body: unknown): ProviderError {
  const out: ProviderError = { reasons: [] };
  if (body === null || typeof body !== 'object') return out;
  const b = body as Record<string, unknown>;
  if (typeof b.code === 'string') out.providerCode = b.code;
  if (typeof b.message === 'string') out.message = b.message;
  const nested = b.error;
  if (nested !== null && typeof nested === 'object') {
    const n = nested as Record<string, unknown>;
    if (typeof n.name === 'string') out.providerCode ??= n.name;
    if (typeof n.message === 'string') out.message ??= n.message;
    if (Array.isArray(n.data)) out.reasons = n.data.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)));
    else if (typeof n.data === 'string' && n.data !== '') out.reasons = [n.data];
  }
  return out;
}

/**
 * A 403 the provider says is about secrecy (its documentation lists a secret lawsuit searched without a credential
 * among the 403s): that lawsuit's alone, never a sign that the resource is refused.
 */
function saysSecrecy(p: ProviderError): boolean {
  return [p.providerCode, p.message, ...p.reasons].some((t) => t !== undefined && /SECRE|SIGIL/i.test(t));
}

/**
 * The typed error for a non-success HTTP status. `redact` removes the key and signed addresses from any text
 * the provider echoed, because the message may be logged and printed by the CLI.
 */
export function errorForStatus(
  status: number, body: unknown, route: string, redact: (s: string) => string, hints: RetryHints = {}, retryAfterMs?: number,
): ApiError {
  const p = readProviderError(body);
  const said = p.message ? `: ${redact(p.message).slice(0, 300)}` : '';
  const reasons = p.reasons.map((r) => redact(r).slice(0, 300));
  const base = { statusCode: status, route, providerCode: p.providerCode, reasons, hints };
  if (status === 401) {
    return new ApiError(API_CODES.unauthorized, `${route} refused with 401 (key missing, invalid or expired): check LAWSUIT_API_KEY / LAWSUIT_API_KEY_FILE`, base);
  }
  if (status === 403 && saysSecrecy(p)) {
    return new ApiError(API_CODES.secretLawsuit, `${route} refused with 403: the lawsuit is under secrecy and the key has no credential for it${reasons.length ? ` (${reasons.join('; ')})` : said}; a stored credential (customer_key) lifts it`, { ...base, notProcessed: true });
  }
  if (status === 403) {
    return new ApiError(API_CODES.forbidden, `${route} refused with 403: the API key lacks permission for this resource, is over its usage quota, or the resource is not in the plan; contact the provider`, base);
  }
  if (status === 429) {
    return new ApiError(API_CODES.rateLimited, `${route} rate-limited (429)`, { ...base, notProcessed: true, retryAfterMs });
  }
  if (status >= 500) {
    return new ApiError(API_CODES.server, `${route} failed with ${status} on the service side${said}`, { ...base, retryAfterMs });
  }
  if (status === 400 || status === 422) {
    const why = reasons.length ? `: ${reasons.join('; ')}` : said;
    return new ApiError(API_CODES.validation, `${route} rejected as invalid (${status})${why}`, base);
  }
  if (status === 404) return new ApiError(API_CODES.notFound, `${route} not found (404)${said}`, base);
  if (status === 409) return new ApiError(API_CODES.conflict, `${route} conflict (409)${said}`, base);
  return new ApiError(API_CODES.http, `${route} answered unexpected status ${status}${said}`, base);
}

// Failures before any byte could reach the service: a retry cannot duplicate anything.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

function errCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === 'string') return c;
    const errors = (cur as { errors?: unknown[] }).errors;
    if (Array.isArray(errors) && errors.length) cur = errors[0];
    else cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

// Refused by the HTTP stack before anything was sent (a header value it cannot send, a bad address): every
// call built the same way meets it, so it is no passing failure.
const INVALID = new Set(['UND_ERR_INVALID_ARG', 'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_URL']);

export function errorForNetwork(e: unknown, route: string): ApiError {
  const code = errCode(e) ?? 'unknown';
  if (INVALID.has(code)) {
    return new ApiError(API_CODES.invalidCall, `${route} could not be sent (${code}): check the API key and the base addresses for characters an HTTP request cannot carry`, {
      route, notProcessed: true,
    });
  }
  const notProcessed = NOT_SENT.has(code);
  const what = notProcessed ? 'could not connect' : 'connection failed after the call was sent';
  return new ApiError(API_CODES.network, `${route} ${what} (${code})`, {
    cause: e, route, notProcessed, ambiguous: !notProcessed,
  });
}

/** The part of a call a deadline bounds (Config.deadlines): opening the connection, the headers, the whole body. */
export type CallPhase = 'connect' | 'headers' | 'body';

const TIMEOUT_PHASE: Record<string, CallPhase> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect', UND_ERR_HEADERS_TIMEOUT: 'headers', UND_ERR_BODY_TIMEOUT: 'body',
};

/** The phase whose deadline undici itself enforced, when `e` is one of its time-outs. */
export function timeoutPhaseOf(e: unknown): CallPhase | undefined {
  const code = errCode(e);
  return code === undefined ? undefined : TIMEOUT_PHASE[code];
}

const PHASE_WORDS: Record<CallPhase, string> = {
  connect: 'could not connect', headers: 'had no answer', body: 'did not finish its answer',
};

/**
 * A call that ran past one of its deadlines and was cut off. Only a connection that never opened surely sent
 * nothing; past that, the service may have acted on the call.
 */
export function errorForTimeout(phase: CallPhase, ms: number, route: string): ApiError {
  const notProcessed = phase === 'connect';
  return new ApiError(API_CODES.timeout, `${route} ${PHASE_WORDS[phase]} within its ${phase} deadline of ${ms / 1000} s`, {
    route, notProcessed, ambiguous: !notProcessed,
  });
}

export function badResponse(route: string, why: string, statusCode?: number): ApiError {
  return new ApiError(API_CODES.badResponse, `${route} answered a body of an unexpected shape: ${why}`, { route, statusCode });
}
