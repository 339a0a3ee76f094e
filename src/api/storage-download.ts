import { Agent } from 'undici';
import { DEFAULT_DEADLINES, type CallDeadlines } from '../shared/config.js';
import { EtlError } from '../shared/errors.js';
import { fsCodeOf } from '../shared/failure-policy.js';
import { hintsOf } from './answer.js';
import { retryDelay, type BackoffOptions, type RetryHints } from './backoff.js';
import { API_CODES, ApiError } from './errors.js';
import type { HttpClient } from './http.js';
import { retrying, sleepUnless } from './retry-loop.js';
import { attemptFailure, type AbortCause } from './transport.js';

// A download from object storage at a pre-signed address (a transfer file, an attachment file): another origin, so
// it carries no api-key (the key must never leave for another host) and does not go through the rate limiter (the
// storage does not count against the key); the address is a bearer credential for minutes, and never appears in a
// log line or an error message. It has the deadlines of any call (connect, headers) and one of its own for the whole
// body (a file of hundreds of MB); on SIGTERM a download in flight is cut off. What becomes of the bytes is the
// caller's `sink`: the body streams through it, never held whole.

/** Reads a body as it streams; `declared` is its Content-Length when the storage sent one. Throws to fail the attempt. */
export type BodySink<T> = (body: AsyncIterable<Buffer>, declared: number | undefined, headers: Record<string, string | string[] | undefined>) => Promise<T>;

export interface StorageDownloadOptions extends BackoffOptions {
  /** Deadlines of a download: connect, headers, and `downloadMs` for its whole body. Default DEFAULT_DEADLINES. */
  deadlines?: Partial<CallDeadlines>;
  /** Aborted on SIGTERM: a download in flight is cut off (API_CLOSED) and a retry wait ends. */
  signal?: AbortSignal;
}

const CLOSED: AbortCause = { kind: 'closed' };

export class StorageDownloader {
  private readonly agent: Agent;
  readonly deadlines: CallDeadlines;
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly http: HttpClient, private readonly opts: StorageDownloadOptions = {}) {
    this.deadlines = { ...DEFAULT_DEADLINES, ...opts.deadlines };
    this.agent = new Agent({ connections: 4, connect: { timeout: this.deadlines.connectMs } });
    opts.signal?.addEventListener('abort', () => { for (const a of this.inFlight) a.abort(CLOSED); }, { once: true });
  }

  /**
   * Streams the address through `sink`, retried in the one retry loop (`retries` times after a 5xx or a network
   * failure; an expired address is thrown to the caller, who fetches a fresh one). `what` names the files in
   * messages (a disk failure names the folder to check).
   */
  async download<T>(url: string, sink: BodySink<T>, opts: { retries?: number; folder?: string } = {}): Promise<T> {
    let overBudget = false;
    return retrying({
      attempt: async () => {
        try {
          return await this.downloadOnce(url, sink, opts.folder);
        } catch (e) {
          // Past the stage's wait budget, a failing download spends it, as a failing call does (http.ts).
          overBudget = this.http.failedOverBudget(e);
          throw e;
        }
      },
      acts: { retry: 'again', 'wait-rate-limit': 'again' },
      retries: opts.retries ?? 2,
      stop: () => overBudget,
      backoff: (n, e) => retryDelay(n, (e as { hints?: RetryHints }).hints, this.opts),
      sleep: (ms) => sleepUnless(this.opts.signal, ms),
    });
  }

  private async downloadOnce<T>(url: string, sink: BodySink<T>, folder: string | undefined): Promise<T> {
    const abort = new AbortController();
    this.inFlight.add(abort);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await this.downloadWithin(url, sink, folder, abort, (ms) => {
        timer = setTimeout(() => abort.abort({ kind: 'deadline', phase: 'body', ms } satisfies AbortCause), ms);
      });
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(abort);
    }
  }

  private async downloadWithin<T>(url: string, sink: BodySink<T>, folder: string | undefined, abort: AbortController, bodyDeadline: (ms: number) => void): Promise<T> {
    const route = 'GET download';
    const { headersMs, downloadMs } = this.deadlines;
    // Cut off at the body's deadline, by SIGTERM, or by undici's own connect and headers deadlines.
    const failure = (e: unknown): ApiError => attemptFailure(abort.signal.aborted ? abort.signal.reason as AbortCause : undefined, e, route,
      { ...this.deadlines, bodyMs: downloadMs }, 'download');
    if (this.opts.signal?.aborted) abort.abort(CLOSED);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      // No cause: Node's URL error carries the input, which is the signed address.
      throw new ApiError(API_CODES.downloadFailed, 'download address is not a valid address', { route });
    }
    let res;
    try {
      res = await this.agent.request({
        origin: target.origin, path: `${target.pathname}${target.search}`, method: 'GET', signal: abort.signal, headersTimeout: headersMs, bodyTimeout: downloadMs,
      });
    } catch (e) {
      throw failure(e);
    }
    bodyDeadline(downloadMs);
    if (res.statusCode !== 200) {
      await res.body.dump().catch(() => undefined);
      if (res.statusCode === 403) {
        throw new ApiError(API_CODES.downloadExpired, 'download refused (403): the pre-signed address expired or was altered; get a fresh one', { statusCode: 403, route });
      }
      const passing = res.statusCode >= 500 || res.statusCode === 429 || res.statusCode === 408;
      // The storage's Retry-After, when it names one, is the retry's floor as the service's is.
      throw new ApiError(passing ? API_CODES.downloadFailed : API_CODES.downloadRefused, `download failed with status ${res.statusCode}`, { statusCode: res.statusCode, route, hints: hintsOf(res.headers) });
    }
    const length = Number(res.headers['content-length']);
    try {
      return await sink(res.body, Number.isSafeInteger(length) && length >= 0 ? length : undefined, res.headers);
    } catch (e) {
      res.body.destroy();
      if (abort.signal.aborted) throw failure(e);
      // The sink's own verdict on the bytes (a size that does not match, a file too large) stands as it is.
      if (e instanceof EtlError) throw e;
      if (e instanceof Error && 'code' in e && typeof e.code === 'string' && e.code.startsWith('E') && !e.code.startsWith('ECONN')) {
        // A local file-system failure, not the network's: every other file would meet it too.
        throw new ApiError(API_CODES.downloadDisk, `download could not be written to disk (${e.code}, ${fsCodeOf(e.code)}): check ${folder ?? 'the folder it goes to'}`, { cause: e, route });
      }
      throw failure(e);
    }
  }

  /** Cuts off a download still in flight and destroys the sockets. */
  async close(): Promise<void> {
    for (const a of this.inFlight) a.abort(CLOSED);
    await this.agent.destroy().catch(() => undefined);
  }
}
