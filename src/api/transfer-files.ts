import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { API_CODES, ApiError } from './errors.js';
import { StorageDownloader, type StorageDownloadOptions } from './storage-download.js';
import type { Query } from './call-spec.js';
import type { HttpClient } from './http.js';
import { readEnvelope, walkItems, type Page, type WalkOptions } from './paginate.js';
import type { TransferFile } from '../spec/types.js';
import { record } from './validate.js';
import { downloadAddressOf } from './transfer-record.js';
import { EtlError } from '../shared/errors.js';

// Transfer files: listing, metadata with a pre-signed address, status marking, and the download itself, from
// object storage (storage-download.ts: no api-key, no rate limiter, the address never logged, its own deadlines);
// on SIGTERM a download in flight is cut off, its partial file removed.

interface TransferFileWithUrl extends TransferFile {
  /** Pre-signed address, valid five minutes (transfer-record.ts found it). Never log or store it. */
  download_url: string;
  download_url_expires_at?: string;
}

interface TransferListQuery {
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

interface DownloadOptions {
  /** The record's file_size, in bytes: a download of another size fails with API_DOWNLOAD_SIZE. */
  expectedSize?: number;
  /**
   * Retries after a 5xx or a network failure (an expired address is the caller's to refresh). Default 2; 0 for a
   * caller that retries itself (its failure is then left unmarked by the loop).
   */
  retries?: number;
}

type TransferFilesOptions = StorageDownloadOptions;

interface DownloadResult { bytes: number; path: string }

function parseTransferFile(v: unknown): TransferFile {
  return record<TransferFile>(v, 'transfer file', ['transfer_file_id']);
}

export class TransferFilesResource {
  private readonly storage: StorageDownloader;

  constructor(private readonly http: HttpClient, opts: TransferFilesOptions = {}) {
    this.storage = new StorageDownloader(http, opts);
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
    return this.storage.download(url, (body) => writeFile(body, destPath, opts.expectedSize), { retries: opts.retries, folder: 'the staging folder (LAWSUIT_STAGING_DIR)' });
  }

  /** Cuts off a download still in flight and destroys the sockets. */
  async close(): Promise<void> {
    await this.storage.close();
  }
}

/** The body to `destPath` through `<destPath>.part`, its length checked against the record's when it gives one. */
async function writeFile(body: AsyncIterable<Buffer>, destPath: string, expectedSize: number | undefined): Promise<DownloadResult> {
  const tmp = `${destPath}.part`;
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      cb(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, createWriteStream(tmp));
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  if (expectedSize !== undefined && bytes !== expectedSize) {
    await rm(tmp, { force: true });
    throw new ApiError(API_CODES.downloadSize, `download has ${bytes} bytes where the record says ${expectedSize}`, { route: 'GET download' });
  }
  await rename(tmp, destPath);
  return { bytes, path: destPath };
}
