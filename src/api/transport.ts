import { Pool } from 'undici';
import { EtlError } from '../shared/errors.js';
import type { CallDeadlines } from '../shared/config.js';
import { buildQuery, type BaseName, type CallSpec } from './call-spec.js';
import { API_CODES, ApiError, badResponse, errorForNetwork, errorForTimeout, timeoutPhaseOf, type ApiErrorCode, type CallPhase } from './errors.js';

// One attempt on the wire, and nothing else: the address (a links.next only on the base's own origin), the
// deadlines, the body's size limit, and cutting calls off on SIGTERM. It neither retries nor reads the answer's
// meaning: a status is the classification's (answer.ts), a failure the policy's.
//
// Nothing waits without a deadline. Each attempt has three (Config.deadlines): the connection (undici's connect
// time-out), the headers (undici's headersTimeout) and the whole body, which is ours: undici's bodyTimeout is the
// gap between two chunks, and an upstream trickling a byte every 20 s answered a page for ever. An attempt past
// a deadline is aborted and fails as API_TIMEOUT. On SIGTERM the attempts in flight are aborted too (API_CLOSED).

export type RawHeaders = Record<string, string | string[] | undefined>;

/** An answer's status and headers, as soon as they arrived (before its body is read). */
export interface Heard { status: number; headers: RawHeaders; sentAt: number; answeredAt: number; latencyMs: number }

/** An answer read whole, or streamed through the call's sink (`sunk`, `text` empty). */
interface Received extends Heard { text: string; sunk?: { value: unknown } }

/** Why an attempt was aborted: its body ran past its deadline, or the run is stopping. */
export type AbortCause = { kind: 'deadline'; phase: CallPhase; ms: number } | { kind: 'closed' };

/**
 * A failure of an attempt as the caller should see it: cut off at a deadline or by SIGTERM (`cause`), past one of
 * undici's own deadlines, or the network's. `what` names the attempt in the message ("download" for a file).
 */
export function attemptFailure(cause: AbortCause | undefined, e: unknown, route: string, deadlines: { connectMs: number; headersMs: number; bodyMs: number }, what = route): ApiError {
  if (cause?.kind === 'closed') return new ApiError(API_CODES.closed, `${what} cut off: the run is stopping`, { route, ambiguous: true });
  if (cause?.kind === 'deadline') return errorForTimeout(cause.phase, cause.ms, route);
  const phase = timeoutPhaseOf(e);
  if (phase) return errorForTimeout(phase, phase === 'connect' ? deadlines.connectMs : phase === 'headers' ? deadlines.headersMs : deadlines.bodyMs, route);
  return errorForNetwork(e, route);
}

interface Base { origin: string; prefix: string; pool: Pool }

interface TransportOptions {
  deadlines: CallDeadlines;
  /** Sockets per origin pool. */
  connections: number;
  /** Largest answer body accepted, in bytes; a larger one fails with API_TOO_LARGE. */
  maxBodyBytes: number;
}

export class Transport {
  private readonly bases: Record<BaseName, Base>;
  private readonly pools = new Map<string, Pool>();
  /** The attempts on the wire, aborted on SIGTERM. */
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(urls: Record<BaseName, string>, private readonly opts: TransportOptions) {
    const bases = {} as Record<BaseName, Base>;
    for (const name of ['requests', 'tracking', 'lawsuits', 'transfer'] as const) {
      const u = new URL(urls[name]);
      // One pool per origin: base addresses on the same host share their sockets.
      let pool = this.pools.get(u.origin);
      if (!pool) {
        pool = new Pool(u.origin, { connections: opts.connections, pipelining: 1, connect: { timeout: opts.deadlines.connectMs } });
        this.pools.set(u.origin, pool);
      }
      bases[name] = { origin: u.origin, prefix: u.pathname.replace(/\/+$/, ''), pool };
    }
    this.bases = bases;
  }

  /** The path and query the call goes to; throws API_BAD_RESPONSE for a links.next off the base's origin. */
  pathOf(spec: CallSpec<unknown>): string {
    const base = this.bases[spec.base];
    return spec.absolute !== undefined ? samePath(base, spec.absolute, spec.route) : `${base.prefix}${spec.path}${buildQuery(spec.query)}`;
  }

  /**
   * Sends the call once to `path` (pathOf) with `headers`, tells `heard` its status and headers the moment they
   * arrive, and reads its whole body. Throws ApiError: the network's, a deadline's, API_CLOSED, or API_TOO_LARGE
   * (with the status, since an answer did arrive).
   */
  async exchange(spec: CallSpec<unknown>, path: string, headers: Record<string, string>, heard: (h: Heard) => void): Promise<Received> {
    const base = this.bases[spec.base];
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const all = body === undefined ? headers : { ...headers, 'content-type': 'application/json' };
    const { headersMs, bodyMs } = this.opts.deadlines;
    const abort = new AbortController();
    this.inFlight.add(abort);
    const failure = (e: unknown): ApiError => attemptFailure(abort.signal.aborted ? abort.signal.reason as AbortCause : undefined, e, spec.route, this.opts.deadlines);
    let bodyTimer: NodeJS.Timeout | undefined;
    try {
      const t0 = performance.now();
      const sentAt = Date.now();
      let res: Awaited<ReturnType<Pool['request']>>;
      try {
        if (this.closed) abort.abort({ kind: 'closed' } satisfies AbortCause);
        // undici's own deadlines for the connection (the pool's) and the headers; the body's is the timer below.
        res = await base.pool.request({ method: spec.method, path, headers: all, body, signal: abort.signal, headersTimeout: headersMs, bodyTimeout: bodyMs });
      } catch (e) {
        throw failure(e);
      }
      const streams = spec.sink !== undefined && res.statusCode >= 200 && res.statusCode < 300 && (spec.ok ?? [200, 201]).includes(res.statusCode);
      // A file streamed to its sink has the download's deadline: hundreds of MB are not a page.
      const bodyDeadline = streams ? this.opts.deadlines.downloadMs : bodyMs;
      bodyTimer = setTimeout(() => abort.abort({ kind: 'deadline', phase: 'body', ms: bodyDeadline } satisfies AbortCause), bodyDeadline);
      const h: Heard = { status: res.statusCode, headers: res.headers, sentAt, answeredAt: Date.now(), latencyMs: performance.now() - t0 };
      heard(h);
      if (streams) return { ...h, text: '', sunk: { value: await this.sinkBody(spec, res, failure) } };
      return { ...h, text: await this.readBody(spec.route, res, failure) };
    } finally {
      clearTimeout(bodyTimer);
      this.inFlight.delete(abort);
    }
  }

  private async readBody(route: string, res: Awaited<ReturnType<Pool['request']>>, failure: (e: unknown) => ApiError): Promise<string> {
    try {
      return await readCapped(res.body, this.opts.maxBodyBytes);
    } catch (e) {
      if (!(e instanceof ApiError)) throw failure(e);
      // Refused as too large: the upstream answered all the same.
      throw new ApiError(e.code as ApiErrorCode, `${route} ${e.message}`, { route, statusCode: res.statusCode });
    }
  }

  private async sinkBody(spec: CallSpec<unknown>, res: Awaited<ReturnType<Pool['request']>>, failure: (e: unknown) => ApiError): Promise<unknown> {
    const length = Number(res.headers['content-length']);
    try {
      return await spec.sink!(res.body, Number.isSafeInteger(length) && length >= 0 ? length : undefined, res.headers);
    } catch (e) {
      res.body.destroy();
      // The sink's own verdict on the bytes stands as it is; a body that broke off is the network's failure.
      if (e instanceof EtlError) throw e;
      throw failure(e);
    }
  }

  /** SIGTERM: the attempts in flight are cut off (API_CLOSED), and nothing new is sent. */
  cutOff(): void {
    this.closed = true;
    for (const a of this.inFlight) a.abort({ kind: 'closed' } satisfies AbortCause);
  }

  /** Cuts off what is in flight and destroys the sockets, not draining them. */
  async close(): Promise<void> {
    this.cutOff();
    await Promise.all([...this.pools.values()].map((p) => p.destroy().catch(() => undefined)));
  }
}

/** Path and query of an address the service gave (links.next), refused when it leaves the base's origin. */
function samePath(base: Base, address: string, route: string): string {
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
