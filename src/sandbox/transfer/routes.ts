// The transfer-file routes as plain handlers over node:http. `auth: true` routes go behind the sandbox's api-key
// check and rate limit; the download route is object storage: no key, no limit, the signature is the credential.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { dialectError } from '../error-body.js';
import { withStringFields } from '../page-envelope.js';
import { RATE_HEADER_NAMES } from '../rate-headers.js';
import type { TransferContext } from './context.js';
import { shownRecord } from './dialect-record.js';
import { applyListQuery, parseListQuery } from './list-query.js';
import { checkDownload, downloadPath } from './signing.js';

/** `parsedBody` is given by a server that has already read and parsed the request's JSON body. */
type TransferHandler = (req: IncomingMessage, res: ServerResponse, match: RegExpExecArray, url: URL, parsedBody?: { value: unknown }) => Promise<void>;

interface TransferRoute {
  method: 'GET' | 'PATCH';
  /** Matched against the path (no query); groups are the path parameters. */
  pattern: RegExp;
  /** For logs and stats; never carries ids. */
  label: string;
  /** Whether the api-key check and the rate limit apply. */
  auth: boolean;
  handler: TransferHandler;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** An API error in the dialect's form; a dialect that sends rate headers on successes only takes them off. */
function apiError(ctx: TransferContext, res: ServerResponse, status: number, name: string, message: string, data: string[]): void {
  if (!ctx.dialect.rateHeaders.onErrors) for (const h of RATE_HEADER_NAMES) res.removeHeader(h);
  json(res, status, dialectError(ctx.dialect, status, { error: { name, message, data } }));
}

/** Object-storage style refusal (S3's XML error form). */
function storageError(res: ServerResponse, status: number, code: string, message: string): void {
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 64 * 1024) return { ok: false };
    chunks.push(c as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

function baseUrl(ctx: TransferContext, req: IncomingMessage): string {
  return ctx.publicBaseUrl ?? `http://${req.headers.host ?? '127.0.0.1'}`;
}

const CONTENT_TYPE = { csv: 'text/csv; charset=utf-8', json: 'application/x-ndjson; charset=utf-8', parquet: 'application/vnd.apache.parquet' };

/** Replaces every byte from `from` on with 0xFF (invalid UTF-8, no parquet footer): same length, unreadable. */
function corrupter(from: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      const start = seen;
      seen += chunk.length;
      if (seen <= from) return cb(null, chunk);
      const out = Buffer.from(chunk);
      out.fill(0xff, Math.max(0, from - start));
      cb(null, out);
    },
  });
}

/** Passes bytes until `at`, then breaks the connection: the client sees a body shorter than content-length. */
function cutter(at: number, res: ServerResponse): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (seen + chunk.length < at) {
        seen += chunk.length;
        return cb(null, chunk);
      }
      const head = chunk.subarray(0, at - seen);
      seen = at;
      this.push(head);
      setImmediate(() => res.socket?.destroy());
      cb(new Error('download cut by the download_5xx_mid fault'));
    },
  });
}

/** GET /transfer-file: the files, filtered and ordered as asked, as the dialect shows them. */
const listFiles = (ctx: TransferContext): TransferHandler => async (_req, res, _m, url) => {
  const parsed = parseListQuery(url.searchParams, ctx.dialect.unknownParams);
  if (!parsed.ok) return apiError(ctx, res, 400, 'ValidationError', 'invalid transfer-file listing query', parsed.reasons);
  // Filters and order apply to the records as the dialect shows them (a documented `status=available`).
  const records = (await ctx.store.records()).map((r) => shownRecord(ctx.dialect.transfer, r));
  json(res, 200, withStringFields(ctx.dialect, applyListQuery(records, parsed.query)));
};

/** GET /transfer-file/:id: one file's record, with a signed download address while it has content. */
const showFile = (ctx: TransferContext): TransferHandler => async (req, res, m) => {
  const f = ctx.store.find(decodeURIComponent(m[1]));
  if (!f) return apiError(ctx, res, 404, 'NotFound', 'transfer file not found', [decodeURIComponent(m[1])]);
  const record = shownRecord(ctx.dialect.transfer, await ctx.store.record(f));
  const { urlField, expiresField } = ctx.dialect.transfer;
  if (!f.hasContent) return json(res, 200, { ...record, [urlField]: null, [expiresField]: null });
  const expires = ctx.now() + ctx.urlValidityMs;
  json(res, 200, {
    ...record,
    [urlField]: `${baseUrl(ctx, req)}${downloadPath(ctx.secret, f.transfer_file_id, f.name, expires)}`,
    [expiresField]: new Date(expires).toISOString(),
  });
};

/** PATCH /transfer-file/:id: the client marks a file downloaded or in error. */
const patchFile = (ctx: TransferContext): TransferHandler => async (req, res, m, _url, parsedBody) => {
  const body = parsedBody ? { ok: true as const, value: parsedBody.value } : await readJson(req);
  if (!body.ok) return apiError(ctx, res, 400, 'ValidationError', 'the body is not JSON', ['the body must be a JSON object {status, error_message?}']);
  const r = await ctx.store.patch(decodeURIComponent(m[1]), body.value, ctx.dialect.transfer.patchStatuses);
  if (r.ok) return json(res, 200, shownRecord(ctx.dialect.transfer, r.record));
  if (r.status === 404) return apiError(ctx, res, 404, 'NotFound', 'transfer file not found', [decodeURIComponent(m[1])]);
  apiError(ctx, res, 400, 'ValidationError', 'invalid transfer-file status update', r.reasons);
};

/** GET /_files/:id/:name: the storage's download of a signed address, with the download faults. */
const downloadFile = (ctx: TransferContext): TransferHandler => async (_req, res, m, url) => {
  const id = decodeURIComponent(m[1]);
  const name = decodeURIComponent(m[2]);
  const check = checkDownload(ctx.secret, id, name, url.searchParams.get('expires'), url.searchParams.get('sig'), ctx.now());
  if (check === 'missing') return storageError(res, 403, 'AccessDenied', 'Query-string authentication requires the expires and sig parameters');
  if (check === 'tampered') return storageError(res, 403, 'SignatureDoesNotMatch', 'The request signature does not match');
  if (check === 'expired') return storageError(res, 403, 'AccessDenied', 'Request has expired');
  const f = ctx.store.find(id);
  if (!f || f.name !== name || !f.hasContent) return storageError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
  if (ctx.faults.take5xx(id, name)) return storageError(res, 503, 'SlowDown', 'Please reduce your request rate.');
  const { bytes } = await ctx.content.info(f);
  res.writeHead(200, { 'content-type': CONTENT_TYPE[f.file_type], 'content-length': bytes });
  const stages: Array<Readable | Transform> = [await ctx.content.open(f)];
  if (ctx.faults.isCorrupt(id, name)) stages.push(corrupter(Math.floor(bytes / 2)));
  if (ctx.faults.takeCut(id, name)) stages.push(cutter(Math.floor(bytes / 2), res));
  try {
    await pipeline([...stages, res]);
  } catch {
    // The client went away or the cut fault fired: the socket is already gone, nothing left to answer.
    res.destroy();
  }
};

export function transferRoutes(ctx: TransferContext): TransferRoute[] {
  return [
    { method: 'GET', pattern: /^\/transfer-file\/?$/, label: 'GET /transfer-file', auth: true, handler: listFiles(ctx) },
    { method: 'GET', pattern: /^\/transfer-file\/([^/]+)\/?$/, label: 'GET /transfer-file/:id', auth: true, handler: showFile(ctx) },
    { method: 'PATCH', pattern: /^\/transfer-file\/([^/]+)\/?$/, label: 'PATCH /transfer-file/:id', auth: true, handler: patchFile(ctx) },
    { method: 'GET', pattern: /^\/_files\/([^/]+)\/([^/]+)$/, label: 'GET /_files/:id/:name', auth: false, handler: downloadFile(ctx) },
  ];
}
