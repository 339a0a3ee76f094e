// The transfer step: list the provider's completed files, and for each one not loaded yet: fetch its record
// (and so a fresh pre-signed address) right before downloading, stream it to the staging folder, load it with
// DuckDB's readers in one transaction with its transfer_files record, and only then PATCH it taken: `downloaded`
// where its listing speaks the spec's completed/downloaded, `consumed` where it speaks available/consumed.
//
// Why this order is crash-safe: the warehouse commit is the single point that decides "loaded". A crash before
// it leaves nothing (the next run downloads and loads again); a crash after it leaves status 'loaded', and the
// next run only sends the PATCH. A file is therefore never loaded twice and never marked downloaded unloaded.

import { mkdir, rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { withoutEchoes } from '../shared/echoed-secret.js';
import { EtlError } from '../shared/errors.js';
import { codeOf, resolveFailure } from '../shared/failure-policy.js';
import { scrubText } from '../shared/logger.js';
import {
  loadTransferFile, markTransferDownloaded, markTransferError, markTransferWaiting, transferFileStates,
  type TransferDb, type TransferFileMeta, type TransferFileState,
} from '../warehouse/transfer-load.js';
import { sleep } from './context.js';
import { stagingPath } from './transfer-name.js';
import { otherTakenStatus, sizeInBytes, takenStatusFor, transferStateOf, type TakenStatus } from '../api/transfer-record.js';
import { retryDelay, type RetryHints } from '../api/backoff.js';
import { retrying } from '../api/retry-loop.js';

/** A transfer-file record as the step reads it (the fields of REFERENCE.md it uses). */
interface TransferRecordLike extends TransferFileMeta {
  status: string;
  [field: string]: unknown;
}

/**
 * What the step needs from the API client. `TransferFilesResource` (src/api/transfer-files.ts) has this shape:
 * pass it as is.
 */
export interface TransferApi {
  /** Every file matching the query, across all pages (stopping early on abort, telling `onStop` why a lying listing was left). */
  walk(q: { status?: string | string[]; page_size?: number; order_by?: string; order?: 'asc' | 'desc' },
    opts?: { signal?: AbortSignal; onStop?: (why: string, fields: Record<string, unknown>) => void }): AsyncIterable<TransferRecordLike>;
  /** The record with a fresh pre-signed address (`download_url`, null when the file has no content). */
  get(id: string): Promise<TransferRecordLike & { download_url?: string | null }>;
  patch(id: string, status: TakenStatus | 'error', errorMessage?: string): Promise<unknown>;
  /** Streams the address to `destPath`; throws with `code` API_DOWNLOAD_EXPIRED on a 403, `transient` when a retry may help. */
  download(url: string, destPath: string, opts: { expectedSize?: number; retries?: number }): Promise<{ bytes: number }>;
}

export interface RunTransferDeps {
  api: TransferApi;
  /**
   * Texts never to be stored: the API key in the forms a file may echo it in (`LawsuitApi.keyForms`), replaced in
   * every text column of a file's rows and in a failure's reason. Default none.
   */
  secrets?: readonly string[];
  /** The warehouse (`Warehouse` from src/warehouse/warehouse.ts fits). */
  wh: TransferDb;
  /** Folder for downloads in progress; created if absent. */
  stagingDir: string;
  runId: string;
  log: Logger;
  /** Attempts after the first for a file whose download or load failed. Default 3. */
  retries?: number;
  /**
   * Window of the first backoff (full jitter, doubling at each retry; a Retry-After of the storage is a floor), in
   * ms. Default 1000. An expired address is fetched again at once.
   */
  backoffMs?: number;
  /** Aborted on SIGTERM: no new file is started; the one in hand is finished. */
  signal?: AbortSignal;
  /** Files to load (once listed) and each file done, for the progress display. */
  progress?: (event: 'total' | 'tick', n: number) => void;
  /** Called after a file's load committed and before its PATCH. Throwing CrashSignal here ends the run at once, as a
   * killed process would (crash tests); other exceptions count as a failure of the file. Default none. */
  onLoaded?: (id: string) => void | Promise<void>;
  /** The clock of the backoff of files kept after a passing failure (TRANSFER_BACKOFF), for tests. Default Date.now. */
  now?: () => number;
}

/**
 * How long a file that failed for a passing cause waits before it is tried again: 30 min after the first run it
 * failed in (the hourly transfer job then tries it at its next run but one), doubling with each run in a row it
 * fails in, at most a day (every nightly run then tries it).
 */
const TRANSFER_BACKOFF = { firstMs: 30 * 60_000, maxMs: 24 * 3_600_000 };

export interface TransferSummary {
  /** Files the provider listed as ready (completed, available). */
  listed: number;
  /** Files loaded in this run. */
  loaded: number;
  /** Listed files already loaded by an earlier run. */
  skipped: number;
  /** Files loaded earlier whose "downloaded" PATCH this run sent (after a crash or a failed PATCH). */
  patchedLate: number;
  /**
   * Files that failed in this run: bad in themselves (FailureRule.fileAtFault), PATCHed error when the provider
   * accepted it; or for a passing cause, kept for a later run (`waiting` in transfer_files, not told the provider).
   */
  failed: Array<{ id: string; name: string; code: string; reason: string }>;
  /** Listed files not tried tonight: an earlier passing failure's backoff is not over (TRANSFER_BACKOFF). */
  waiting: number;
  /** Rows loaded in this run. */
  rows: number;
  /** Files left alone for a status neither the spec nor the documentation names (each said in a warning). */
  unknownStatus: number;
}

export async function runTransfer(deps: RunTransferDeps): Promise<TransferSummary> {
  const { api, wh, log } = deps;
  const out: TransferSummary = { listed: 0, loaded: 0, skipped: 0, patchedLate: 0, failed: [], rows: 0, unknownStatus: 0, waiting: 0 };
  await mkdir(deps.stagingDir, { recursive: true });
  const states = await transferFileStates(wh);
  const now = (deps.now ?? Date.now)();

  // Loads committed by an earlier run whose PATCH never went out: send it now (a repeated PATCH is harmless), in
  // the vocabulary of the listing that showed the file (its remote status, kept with the load).
  for (const [id, { status, remote }] of states) {
    if (status !== 'loaded') continue;
    if (await patchDownloaded(deps, id, remote)) out.patchedLate++;
  }

  // The whole listing first: PATCHing files while walking would move the remaining ones between pages.
  const todo: TransferRecordLike[] = [];
  // Every status, not a filter on one: the spec's `completed` and the documentation's `available` both mean
  // ready, and a status filter the provider does not know would list nothing (transfer-record.ts).
  const walk = api.walk({ page_size: 100, order_by: 'created_at', order: 'asc' },
    { signal: deps.signal, onStop: (why, fields) => log.warn(fields, why) });
  const unknown = new Map<string, number>();
  for await (const f of walk) {
    const state = transferStateOf(f.status);
    if (state === 'unknown') unknown.set(String(f.status), (unknown.get(String(f.status)) ?? 0) + 1);
    if (state !== 'ready') continue;
    out.listed++;
    const local = states.get(f.transfer_file_id);
    if (local?.status === 'loaded' || local?.status === 'downloaded') out.skipped++;
    else if (local?.status === 'waiting' && local.retryAfter !== null && local.retryAfter.getTime() > now) out.waiting++;
    else todo.push(f);
  }
  for (const [status, n] of unknown) {
    out.unknownStatus += n;
    log.warn({ status: safeName(status), files: n }, 'transfer files with a status neither the spec nor the documentation names were left alone');
  }
  log.info({ listed: out.listed, toLoad: todo.length, skipped: out.skipped, waiting: out.waiting, patchedLate: out.patchedLate, unknownStatus: out.unknownStatus }, 'transfer files listed');

  deps.progress?.('total', todo.length);
  for (const f of todo) {
    if (deps.signal?.aborted) break;
    const r = await transferOne(deps, f, states.get(f.transfer_file_id));
    deps.progress?.('tick', 1);
    if (r.ok) {
      out.loaded++;
      out.rows += r.rows;
    } else out.failed.push({ id: f.transfer_file_id, name: f.name, code: r.code, reason: r.reason });
  }
  log.info({ loaded: out.loaded, rows: out.rows, failed: out.failed.length }, 'transfer files done');
  return out;
}

/** The words a run's provider refused as invalid (patchDownloaded), by the run's deps. */
const refusedWords = new WeakMap<RunTransferDeps, Set<TakenStatus>>();

/**
 * Marks a loaded file taken at the provider, in the vocabulary of the listing that showed it (`listed`, its
 * status there): `consumed` for available, `downloaded` for completed. A provider that refuses that word as
 * invalid (400) is sent the other vocabulary's once: the two pages of its documentation disagree.
 */
async function patchDownloaded(deps: RunTransferDeps, id: string, listed: unknown): Promise<boolean> {
  const refused = refusedWords.get(deps) ?? new Set<TakenStatus>();
  refusedWords.set(deps, refused);
  const suggested = takenStatusFor(listed);
  // A word the provider refused once this run is not sent again: the other one goes at once.
  const first = refused.has(suggested) ? otherTakenStatus(suggested) : suggested;
  try {
    let taken = first;
    try {
      await deps.api.patch(id, first);
    } catch (e) {
      if (resolveFailure(e, { plainer: !refused.has(otherTakenStatus(first)) }).action !== 'ask-plainer') throw e;
      refused.add(first);
      taken = otherTakenStatus(first);
      deps.log.warn({ transferFileId: id, refused: first, sent: taken }, 'the provider refused the status its listing uses; marked with the other vocabulary\'s');
      await deps.api.patch(id, taken);
    }
    await markTransferDownloaded(deps.wh, id, taken);
    return true;
  } catch (e) {
    // The load is committed; the next run sends the PATCH again.
    deps.log.warn({ transferFileId: id, code: codeOf(e), reason: reasonOf(e) }, 'transfer file loaded but not yet marked downloaded');
    return false;
  }
}

type OneResult = { ok: true; rows: number } | { ok: false; code: string; reason: string };

/** What one file's attempts have learnt: its record, where it is staged, how many attempts it took. */
interface FileInHand { meta: TransferRecordLike; path?: string; attempts: number }

/**
 * One file through the one retry loop: each attempt fetches a fresh address, downloads and loads. A passing
 * failure (the download's, or reading the file) is tried again after a backoff, an expired address at once; the
 * address itself is fetched by a call the client has retried already, which the policy then gives up on (no
 * second round of sends for it).
 */
async function transferOne(deps: RunTransferDeps, listed: TransferRecordLike, before: TransferFileState | undefined): Promise<OneResult> {
  const file: FileInHand = { meta: listed, attempts: 0 };
  try {
    return await retrying({
      attempt: (n) => attemptFile(deps, listed, file, n),
      // An expired address: the next attempt fetches a fresh one.
      acts: { retry: 'again', 'wait-rate-limit': 'again', 'refresh-address': 'again' },
      retries: deps.retries ?? 3,
      backoff: (n, e, action) => (action === 'refresh-address'
        ? { ms: 0, giveUp: false }
        : { ms: retryDelay(n, (e as { hints?: RetryHints }).hints, { baseDelayMs: deps.backoffMs ?? 1000 }).ms, giveUp: false }),
      sleep: (ms) => sleep(ms, deps.signal),
      onRetry: (e, attempt, waitMs, action) => deps.log.warn({ transferFileId: listed.transfer_file_id, attempt, code: codeOf(e), reason: reasonOf(e), waitMs },
        action === 'refresh-address' ? 'download address expired; fetching a fresh one' : 'transfer file failed; retrying'),
    });
  } catch (e) {
    // A refusal of the resource or the key, our own disk failing, a crash test's signal: not this file's, the stage's.
    // Nothing is recorded of the file: it is as it was, tried again by the next run.
    if (resolveFailure(e).reach !== 'item') {
      await removeStaged(file);
      throw e;
    }
    return fileFailed(deps, listed, file, e, before);
  }
}

async function removeStaged(file: FileInHand): Promise<void> {
  if (!file.path) return;
  await rm(file.path, { force: true }).catch(() => undefined);
  await rm(`${file.path}.part`, { force: true }).catch(() => undefined);
}

async function attemptFile(deps: RunTransferDeps, listed: TransferRecordLike, file: FileInHand, n: number): Promise<OneResult> {
  const { api, log } = deps;
  const id = listed.transfer_file_id;
  // Stopped while waiting to try again: the file is not in error, the next run tries it.
  if (n > 0 && deps.signal?.aborted) throw new EtlError('API_CLOSED', 'stopped by SIGTERM before the file\'s next attempt');
  if (n === 0) file.path = stagingPath(deps.stagingDir, id, listed.name);
  file.attempts = n + 1;
  // The address lives five minutes: fetch it right before each download, never earlier.
  const fresh = await api.get(id);
  const meta = file.meta = { ...listed, ...fresh };
  const path = meta.name === listed.name ? file.path! : file.path = stagingPath(deps.stagingDir, id, meta.name);
  if (!fresh.download_url) throw new EtlError('TRANSFER_NO_ADDRESS', 'the provider gave no download address for this file');
  const started = Date.now();
  // No retries of its own: this loop retries the download, with a fresh address each time.
  const { bytes } = await api.download(fresh.download_url, path, { expectedSize: sizeInBytes(meta.file_size), retries: 0 });
  // transfer_files.file_size is bytes: the bytes downloaded, whatever unit the record's field is in.
  const loaded = await loadTransferFile(deps.wh, { meta: { ...meta, file_size: bytes }, path, runId: deps.runId, attempts: file.attempts, secrets: deps.secrets });
  log.info({ transferFileId: id, name: meta.name, fileType: meta.file_type, bytes, rows: loaded.rows, table: loaded.table, attempt: n, ms: Date.now() - started }, 'transfer file loaded');
  await rm(path, { force: true });
  if (deps.onLoaded) await deps.onLoaded(id);
  await patchDownloaded(deps, id, listed.status);
  return { ok: true, rows: loaded.rows };
}

/**
 * Records a file the night's tries did not load. Bad in itself (FailureRule.fileAtFault: its size, its content,
 * its name), it is marked error at the provider, whose team analyses such files, and it is listed no more. For any
 * other cause (a download timing out, the upstream failing, the wait budget spent) the provider is told nothing:
 * the file waits for a later run, with a backoff (TRANSFER_BACKOFF). Marking a slow night's files error lost their
 * rows for good.
 */
async function fileFailed(deps: RunTransferDeps, listed: TransferRecordLike, file: FileInHand, e: unknown, before: TransferFileState | undefined): Promise<OneResult> {
  const id = listed.transfer_file_id;
  await removeStaged(file);
  // DuckDB quotes the value it could not read: a key a file echoed would be in it.
  const reason = withoutEchoes(reasonOf(e), deps.secrets ?? []);
  const meta = { ...file.meta, file_size: sizeInBytes(file.meta.file_size) ?? null };
  if (resolveFailure(e).fileAtFault) {
    let patched = false;
    try {
      await deps.api.patch(id, 'error', reason);
      patched = true;
    } catch (err) {
      deps.log.warn({ transferFileId: id, code: codeOf(err), reason: reasonOf(err) }, 'could not mark the transfer file error at the provider');
    }
    await markTransferError(deps.wh, meta, reason, deps.runId, file.attempts, patched);
    deps.log.error({ transferFileId: id, name: safeName(listed.name), code: codeOf(e), reason, attempts: file.attempts }, 'transfer file is bad: marked error at the provider');
  } else {
    const failedRuns = (before?.status === 'waiting' ? before.failedRuns : 0) + 1;
    const wait = Math.min(TRANSFER_BACKOFF.maxMs, TRANSFER_BACKOFF.firstMs * 2 ** (failedRuns - 1));
    const retryAfter = new Date((deps.now ?? Date.now)() + wait);
    await markTransferWaiting(deps.wh, meta, { reason, runId: deps.runId, attempts: file.attempts, failedRuns, retryAfter });
    deps.log.error({ transferFileId: id, name: safeName(listed.name), code: codeOf(e), reason, attempts: file.attempts, failedRuns, retryAfter: retryAfter.toISOString() },
      'transfer file failed for a passing cause: kept for a later run');
  }
  return { ok: false, code: codeOf(e), reason };
}

/** Thrown by `onLoaded` in crash tests to leave the run at once, as a killed process would. */
export class CrashSignal extends Error {}


/** A reason fit for a log line, the warehouse and the provider: one line, no address query strings. */
function reasonOf(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const code = codeOf(e);
  const text = scrubText(msg.split('\n')[0]).slice(0, 500);
  return code !== 'UNEXPECTED' && !text.includes(code) ? `${code}: ${text}` : text;
}

/** Names are logged through JSON.stringify so that control characters cannot forge log lines. */
function safeName(name: string): string {
  return JSON.stringify(String(name)).slice(1, -1).slice(0, 300);
}
