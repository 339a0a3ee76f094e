import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent } from 'undici';
import { DEFAULT_DEADLINES, type CallDeadlines } from '../shared/config.js';
import { fsCodeOf } from '../shared/failure-policy.js';
import { hintsOf } from './answer.js';
import { API_CODES, ApiError } from './errors.js';
import { retryDelay, type BackoffOptions, type RetryHints } from './backoff.js';
import { retrying, sleepUnless } from './retry-loop.js';
import { attemptFailure, type AbortCause } from './transport.js';
import type { Query } from './call-spec.js';
import type { HttpClient } from './http.js';
import { readEnvelope, walkItems, type Page, type WalkOptions } from './paginate.js';
import type { TransferFile } from '../spec/types.js';
import { record } from './validate.js';
import { downloadAddressOf } from './transfer-record.js';
import { EtlError } from '../shared/errors.js';

// Transfer files: listing, metadata with a pre-signed address, status marking, and the download itself.
// The download goes to object storage, another origin: it carries no api-key (the key must never leave for
// another host), does not go through the rate limiter (the storage does not count against the key), and its
// address — a bearer credential for five minutes — never appears in a log line or an error message. It has the
// deadlines of any call (connect, headers) and one of its own for the whole body (a file of hundreds of MB);
// on SIGTERM a download in flight is cut off, its partial file removed.

export interface TransferFileWithUrl extends TransferFile {
  /** Pre-signed address, valid five minutes (transfer-record.ts found it). Never log or store it. */
  download_url: string;
  download_url_expires_at?: string;
}

export interface TransferListQuery {
  description?: string;
  name?: string;
  file_type?: 'csv' | 'json' | 'parquet';
  status?: string | string[];
  /** 1-based. Default 1. */
  page?: number;
  /** Default 10 (service), maximum 100. */
  page_size?: number;
  /** Default created_at (service). */
  order_by?: string;
  /** Default desc (service). */
  order?: 'asc' | 'desc';
  /** Range filters on the timestamps: created_at_gte, completed_at_lte, ... (ISO 8601). */
  [range: `${string}_gte` | `${string}_lte`]: string | undefined;
}

export interface DownloadOptions {
  /** The record's file_size, in bytes: a download of another size fails with API_DOWNLOAD_SIZE. */
  expectedSize?: number;
  /**
   * Retries after a 5xx or a network failure (an expired address is the caller's to refresh). Default 2; 0 for a
   * caller that retries itself (its failure is then left unmarked by the loop).
   */
  retries?: number;
}

export interface TransferFilesOptions extends BackoffOptions {
  /** Deadlines of a download: connect, headers, and `downloadMs` for its whole body. Default DEFAULT_DEADLINES. */
  deadlines?: Partial<CallDeadlines>;
  /** Aborted on SIGTERM: a download in flight is cut off (API_CLOSED) and a retry wait ends. */
  signal?: AbortSignal;
}

export interface DownloadResult { bytes: number; path: string }

export function parseTransferFile(v: unknown): TransferFile {
  return record<TransferFile>(v, 'transfer file', ['transfer_file_id']);
}

export class TransferFilesResource {
  private readonly agent: Agent;
  private readonly deadlines: CallDeadlines;
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly http: HttpClient, private readonly opts: TransferFilesOptions = {}) {
    this.deadlines = { ...DEFAULT_DEADLINES, ...opts.deadlines };
    this.agent = new Agent({ connections: 4, connect: { timeout: this.deadlines.connectMs } });
    opts.signal?.addEventListener('abort', () => { for (const a of this.inFlight) a.abort(CLOSED); }, { once: true });
  }

  async list(q: TransferListQuery = {}, next?: string): Promise<Page<TransferFile>> {
    const res = await this.http.call({
      base: 'transfer', method: 'GET', path: '/transfer-file', absolute: next, route: 'GET /transfer-file',
      query: { ...q } as Query, parse: (b) => readEnvelope(b, parseTransferFile),
    });
    return res.body;
  }

  /** Every file matching the query, page after page. */
  walk(q: Omit<TransferListQuery, 'page'> = {}, opts: WalkOptions = {}): AsyncGenerator<TransferFile> {
    return walkItems((c) => this.list({ ...q, page: c.page }, c.next), { label: 'GET /transfer-file', ...opts });
  }

  /** The record and a fresh pre-signed download address. */
  async get(id: string): Promise<TransferFileWithUrl> {
    const res = await this.http.call({
      base: 'transfer', method: 'GET', path: `/transfer-file/${encodeURIComponent(id)}`, route: 'GET /transfer-file/:id',
      parse: (b) => {
        const r = record<TransferFileWithUrl>(b, 'transfer file', ['transfer_file_id']);
        const address = downloadAddressOf(r as unknown as Record<string, unknown>);
        if ('error' in address) throw new EtlError('TRANSFER_NO_ADDRESS', address.error);
        return { ...r, download_url: address.url };
      },
    });
    return res.body;
  }

  /** Marks a file taken (`downloaded` or `consumed`, the vocabulary of its listing), or in error with a reason for the provider's team. */
  async patch(id: string, status: 'downloaded' | 'consumed' | 'error', errorMessage?: string): Promise<TransferFile | undefined> {
    const body: Record<string, string> = { status };
    if (errorMessage !== undefined) body.error_message = errorMessage.slice(0, 1000);
    const res = await this.http.call({
      base: 'transfer', method: 'PATCH', path: `/transfer-file/${encodeURIComponent(id)}`, route: 'PATCH /transfer-file/:id',
      body, ok: [200, 201, 204], parse: (b) => (b === undefined ? undefined : parseTransferFile(b)),
    });
    return res.body;
  }

  /**
   * Streams the pre-signed address to `destPath` (through a temporary file renamed at the end, so a
   * half-written file never has the final name). Retried in the one retry loop; an expired address is thrown to
   * the caller, who fetches a fresh one (the transfer step, which asks for `retries: 0` and retries itself).
   */
  async download(url: string, destPath: string, opts: DownloadOptions = {}): Promise<DownloadResult> {
    let overBudget = false;
    return retrying({
      attempt: async () => {
        try {
          return await this.downloadOnce(url, destPath, opts);
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

  private async downloadOnce(url: string, destPath: string, opts: DownloadOptions): Promise<DownloadResult> {
    const abort = new AbortController();
    this.inFlight.add(abort);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await this.downloadWithin(url, destPath, opts, abort, (ms) => {
        timer = setTimeout(() => abort.abort({ kind: 'deadline', phase: 'body', ms } satisfies AbortCause), ms);
      });
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(abort);
    }
  }

  private async downloadWithin(url: string, destPath: string, opts: DownloadOptions, abort: AbortController, bodyDeadline: (ms: number) => void): Promise<DownloadResult> {
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
    const tmp = `${destPath}.part`;
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        cb(null, chunk);
      },
    });
    try {
      await pipeline(res.body, counter, createWriteStream(tmp));
    } catch (e) {
      await rm(tmp, { force: true });
      if (abort.signal.aborted) throw failure(e);
      if (e instanceof Error && 'code' in e && typeof e.code === 'string' && e.code.startsWith('E') && !e.code.startsWith('ECONN')) {
        // A local file-system failure, not the network's: every other file would meet it too.
        throw new ApiError(API_CODES.downloadDisk, `download could not be written to disk (${e.code}, ${fsCodeOf(e.code)}): check the staging folder (LAWSUIT_STAGING_DIR)`, { cause: e, route });
      }
      throw failure(e);
    }
    if (opts.expectedSize !== undefined && bytes !== opts.expectedSize) {
      await rm(tmp, { force: true });
      throw new ApiError(API_CODES.downloadSize, `download has ${bytes} bytes where the record says ${opts.expectedSize}`, { route });
    }
    await rename(tmp, destPath);
    return { bytes, path: destPath };
  }

  /** Cuts off a download still in flight and destroys the sockets. */
  async close(): Promise<void> {
    for (const a of this.inFlight) a.abort(CLOSED);
    await this.agent.destroy().catch(() => undefined);
  }
}

const CLOSED: AbortCause = { kind: 'closed' };
