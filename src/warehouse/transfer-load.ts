// Loading one staged transfer file into its transfer_* table, in the same transaction as its transfer_files
// record: either both are there or neither, which is what makes "never loaded twice" hold after a crash at any
// point. DuckDB's own readers do the parsing (read_csv, read_json, read_parquet); nothing passes through JS rows.

import { REDACTED } from '../shared/echoed-secret.js';
import { EtlError } from '../shared/errors.js';
import { parseDuckSize } from './load-budget.js';
import { tableOf } from './schema/index.js';
import { ident, lit } from './schema/sql.js';
import { messageOf } from './wal-recovery.js';

/** What the loader needs from the warehouse; `Warehouse` (warehouse.ts) has exactly this. */
export interface TransferDb {
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  transaction<T>(fn: () => Promise<T>): Promise<T>;
}

type TransferTable = 'transfer_lawsuits' | 'transfer_parties' | 'transfer_steps';
const TRANSFER_TABLES: readonly TransferTable[] = ['transfer_lawsuits', 'transfer_parties', 'transfer_steps'];

/** Columns the pipeline adds to every row. */
const LINEAGE = ['transfer_file_id', 'loaded_at'];

// The columns we know, with the warehouse's types (the declaration, schema/tables/transfer.ts). A column a file
// brings beyond these is added to the table with the type the reader gave it.
const KNOWN = Object.fromEntries(TRANSFER_TABLES.map((t) => [
  t, tableOf(t).columns.filter((c) => !LINEAGE.includes(c.name)).map((c): [string, string] => [c.name, c.type]),
])) as Record<TransferTable, Array<[string, string]>>;

class TransferLoadError extends EtlError {
  constructor(code: 'TRANSFER_FILE_SHAPE' | 'TRANSFER_FILE_READ', message: string, cause?: unknown) {
    super(code, message, { cause });
    this.name = 'TransferLoadError';
  }
}

/**
 * The DuckDB table function reading a staged file. CSV is read as text so that documents keep leading zeros
 * (the table's types then apply). Its read buffer is 4 MiB instead of 32: on a 300 MB file that is the
 * difference between ~90 MB and ~140 MB of peak memory, and lines up to 2 MiB still fit.
 */
function readerSql(fileType: string, path: string): string {
  if (fileType === 'csv') {
    return `read_csv(${lit(path)}, header = true, all_varchar = true, delim = ',', quote = '"', escape = '"', strict_mode = true, buffer_size = 4194304)`;
  }
  if (fileType === 'json') return `read_json(${lit(path)}, format = 'newline_delimited')`;
  if (fileType === 'parquet') return `read_parquet(${lit(path)})`;
  throw new TransferLoadError('TRANSFER_FILE_SHAPE', `unknown file_type ${JSON.stringify(fileType)} (expected csv, json or parquet)`);
}

/** Which table a file's rows belong to, from its columns (the provider's names and descriptions are free text). */
function tableForColumns(columns: readonly string[]): TransferTable {
  const has = new Set(columns);
  if (!has.has('code') || !has.has('instance')) {
    throw new TransferLoadError('TRANSFER_FILE_SHAPE', `the file has no code and instance columns (columns: ${columns.slice(0, 12).join(', ').slice(0, 300)})`);
  }
  if (has.has('step_id')) return 'transfer_steps';
  if (has.has('party_index')) return 'transfer_parties';
  return 'transfer_lawsuits';
}

/** The record of the file as the provider gave it, for transfer_files. */
export interface TransferFileMeta {
  transfer_file_id: string;
  name: string;
  file_type: string;
  description?: string | null;
  status?: string | null;
  file_size?: number | null;
  lawsuits_count?: number | null;
  created_at?: string | null;
  completed_at?: string | null;
}

interface LoadInput {
  meta: TransferFileMeta;
  /** The staged file. */
  path: string;
  runId: string;
  /** Download attempts it took. */
  attempts: number;
  /** Texts replaced by REDACTED in every text column of its rows (the API key as a file may echo it). Default none. */
  secrets?: readonly string[];
}

interface LoadResult { table: TransferTable; rows: number }

/**
 * Loads the staged file into its table and records it in transfer_files with status 'loaded', in one
 * transaction. Rows a previous load of the same file left (a load whose record was lost cannot exist, but a
 * provider may re-issue a file under the same id) are deleted first.
 */
export async function loadTransferFile(db: TransferDb, input: LoadInput): Promise<LoadResult> {
  const reader = readerSql(input.meta.file_type, input.path);
  let described: Array<{ column_name: string; column_type: string }>;
  try {
    described = await db.all(`DESCRIBE SELECT * FROM ${reader}`);
  } catch (e) {
    throw loadFailure(e, `cannot read the ${input.meta.file_type} file`);
  }
  const table = tableForColumns(described.map((d) => d.column_name));
  const existing = new Map((await db.all<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? AND table_schema = current_schema()`, [table],
  )).map((r) => [r.column_name, r.data_type]));
  const { targets, exprs, params, added } = insertColumns(described, new Map(KNOWN[table]), existing, input.secrets ?? []);
  if (added.length > 0) {
    // Outside the load's transaction, so that the catalog change can be checkpointed before any row arrives; a
    // column added for a file that then fails to load stays empty, which is harmless.
    for (const [c, ty] of added) await db.run(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${ident(c)} ${ty}`);
    // The catalog change into the file, out of the WAL.
    await db.run('CHECKPOINT');
  }
  try {
    return await db.transaction(async () => {
      for (const t of TRANSFER_TABLES) await db.run(`DELETE FROM ${t} WHERE transfer_file_id = ?`, [input.meta.transfer_file_id]);
      // A file's rows have no order the tables promise to keep: without it DuckDB streams the insert instead of
      // buffering row groups to keep them in file order (a 300 MB CSV then stays under a 300 MB process).
      await db.run('SET preserve_insertion_order = false');
      let rows: number;
      try {
        rows = await streaming(db, () => db.run(
          `INSERT INTO ${table} (${[...targets, ...LINEAGE.map(ident)].join(', ')}) SELECT ${exprs.join(', ')}, ?, current_timestamp FROM ${reader}`,
          [...params, input.meta.transfer_file_id],
        ));
      } finally {
        await db.run('RESET preserve_insertion_order');
      }
      await upsertFile(db, input.meta, { status: 'loaded', loaded_rows: rows, error: null, run_id: input.runId, target_table: table, attempts: input.attempts });
      return { table, rows };
    });
  } catch (e) {
    if (e instanceof TransferLoadError) throw e;
    throw loadFailure(e, `cannot load the ${input.meta.file_type} file`);
  }
}

/** How the file's columns are inserted: the columns written, their values as read, and the columns the table lacks. */
interface InsertColumns {
  /** The table's columns written, in the file's order (lineage apart). */
  targets: string[];
  /** Each one's value from the reader, cast to the known type, the secrets replaced in text. */
  exprs: string[];
  /** The secrets, one for each `?` of exprs, in order. */
  params: unknown[];
  /** Columns of the file the table lacks, with the reader's type: added before the load. */
  added: Array<[string, string]>;
}

/**
 * The file's columns (as `described` by the reader) mapped to the table's: `known` types are cast to, `existing`
 * columns (name to type) are not added, and every text column has each secret replaced by REDACTED.
 */
function insertColumns(described: ReadonlyArray<{ column_name: string; column_type: string }>, known: ReadonlyMap<string, string>,
  existing: ReadonlyMap<string, string>, secrets: readonly string[]): InsertColumns {
  const out: InsertColumns = { targets: [], exprs: [], params: [], added: [] };
  for (const { column_name: c, column_type: src } of described) {
    if (LINEAGE.includes(c)) continue;
    const want = known.get(c);
    if (!existing.has(c)) out.added.push([c, src]);
    out.targets.push(ident(c));
    let expr: string;
    // A naive TIMESTAMP from a reader means UTC here (JSON's "…Z" text, parquet's TIMESTAMP_MILLIS).
    if (want === 'TIMESTAMPTZ' && src === 'TIMESTAMP') expr = `timezone('UTC', ${ident(c)})`;
    else if (want) expr = `CAST(${ident(c)} AS ${want})`;
    else expr = ident(c);
    // A text column loses the key as the rows are inserted (as parameters: the key is never in a statement's text).
    if ((want ?? existing.get(c) ?? src) === 'VARCHAR') {
      for (const secret of secrets) {
        expr = `replace(${expr}, ?, ${lit(REDACTED)})`;
        out.params.push(secret);
      }
    }
    out.exprs.push(expr);
  }
  return out;
}

/**
 * Runs a streaming insert under three quarters of the warehouse's memory limit, then restores it. The insert needs a
 * row group and the reader's buffers, not the blocks it has already written, which DuckDB keeps cached up to its
 * limit all the same: loading a 300 MB CSV filled 75 MB of them, and `lawsuit-etl transfer` peaked at 323 MB RSS.
 * Under 96 MB of the default 128 MB it peaks at 274 MB with the same rows (under half, 241 MB), 2026-11-28.
 */
async function streaming<T>(db: TransferDb, insert: () => Promise<T>): Promise<T> {
  const [{ limit }] = await db.all<{ limit: string }>(`SELECT current_setting('memory_limit') AS "limit"`);
  const bytes = parseDuckSize(limit);
  if (bytes === undefined) return insert();
  await db.run(`SET memory_limit = '${Math.floor(bytes * 0.75)} bytes'`);
  try {
    return await insert();
  } finally {
    await db.run(`SET memory_limit = ${lit(limit)}`);
  }
}

/**
 * Why a file could not be read or loaded: the warehouse's disk or memory (every file would meet it: the stage's,
 * and no fault of the file), or else the file's content (TRANSFER_FILE_READ, the file's own fault). A disk that
 * filled while loading was once read as the file's fault, and the file marked error at the provider for good.
 */
function loadFailure(e: unknown, what: string): EtlError {
  const said = messageOf(e);
  if (/No space left|Disk quota exceeded|Could not write all bytes/i.test(said)) {
    return new EtlError('FS_NO_SPACE', `${what}: the disk is full (${firstLine(e)}); the file is loaded by a later run`, { cause: e });
  }
  if (/Out of Memory|failed to (pin|allocate)/i.test(said)) {
    return new EtlError('WAREHOUSE_MEMORY', `${what}: DuckDB ran out of its memory limit (${firstLine(e)}); raise LAWSUIT_DUCKDB_MEMORY_LIMIT`, { cause: e });
  }
  return new TransferLoadError('TRANSFER_FILE_READ', `${what}: ${firstLine(e)}`, e);
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0].replace(/^warehouse (statement|query) failed: /, '').slice(0, 400);
}

interface FileOutcome {
  status: string; loaded_rows: number | null; error: string | null; run_id: string; target_table: string | null; attempts: number;
  /** Runs in a row it failed in for a passing cause, and when it may be tried again (`waiting`). Default 0 and none. */
  failed_runs?: number; retry_after?: Date | null;
}

async function upsertFile(db: TransferDb, m: TransferFileMeta, s: FileOutcome): Promise<void> {
  await db.run(
    `INSERT INTO transfer_files (transfer_file_id, name, description, file_type, remote_status, file_size, lawsuits_count, created_at,
       completed_at, status, loaded_rows, loaded_at, error, run_id, target_table, attempts, failed_runs, retry_after, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, CAST(? AS TIMESTAMPTZ), CAST(? AS TIMESTAMPTZ), ?, ?, CASE WHEN ? = 'loaded' THEN current_timestamp END, ?, ?, ?, ?, ?,
       CAST(? AS TIMESTAMPTZ), current_timestamp)
     ON CONFLICT (transfer_file_id) DO UPDATE SET name = excluded.name, description = excluded.description, file_type = excluded.file_type,
       remote_status = excluded.remote_status, file_size = excluded.file_size, lawsuits_count = excluded.lawsuits_count,
       created_at = excluded.created_at, completed_at = excluded.completed_at, status = excluded.status,
       loaded_rows = coalesce(excluded.loaded_rows, transfer_files.loaded_rows), loaded_at = coalesce(excluded.loaded_at, transfer_files.loaded_at),
       error = excluded.error, run_id = excluded.run_id, target_table = coalesce(excluded.target_table, transfer_files.target_table),
       attempts = excluded.attempts, failed_runs = excluded.failed_runs, retry_after = excluded.retry_after, updated_at = excluded.updated_at`,
    [m.transfer_file_id, m.name, m.description ?? null, m.file_type, m.status ?? null, m.file_size ?? null, m.lawsuits_count ?? null,
      m.created_at ?? null, m.completed_at ?? null, s.status, s.loaded_rows, s.status, s.error, s.run_id, s.target_table, s.attempts,
      s.failed_runs ?? 0, s.retry_after?.toISOString() ?? null],
  );
}

/**
 * After the provider accepted the PATCH that marks the file taken: `remote` is the word it took (`downloaded` or
 * `consumed`, the vocabulary of its listing); the file is `downloaded` here whichever it was.
 */
export async function markTransferDownloaded(db: TransferDb, id: string, remote: string): Promise<void> {
  await db.run(`UPDATE transfer_files SET status = 'downloaded', remote_status = ?, downloaded_at = current_timestamp,
    updated_at = current_timestamp WHERE transfer_file_id = ?`, [remote, id]);
}

/** A file bad in itself (FailureRule.fileAtFault): its reason, for the summary and the provider's team. */
export async function markTransferError(db: TransferDb, meta: TransferFileMeta, reason: string, runId: string, attempts: number, remotePatched: boolean): Promise<void> {
  await upsertFile(db, { ...meta, status: remotePatched ? 'error' : meta.status }, { status: 'error', loaded_rows: null, error: reason, run_id: runId, target_table: null, attempts });
}

/** A file that failed for a passing cause: kept, to be tried again from `retryAfter`, its `failedRuns`-th such run. */
export async function markTransferWaiting(db: TransferDb, meta: TransferFileMeta, o: { reason: string; runId: string; attempts: number; failedRuns: number; retryAfter: Date }): Promise<void> {
  await upsertFile(db, meta, {
    status: 'waiting', loaded_rows: null, error: o.reason, run_id: o.runId, target_table: null, attempts: o.attempts, failed_runs: o.failedRuns, retry_after: o.retryAfter,
  });
}

/** What is known here of a file seen before. */
export interface TransferFileState {
  /** 'loaded' (PATCH pending), 'downloaded' (done), 'waiting' (a passing failure: tried again from retryAfter) or 'error' (bad in itself). */
  status: string;
  /** The provider's status as last seen (the vocabulary its listing uses). */
  remote: string | null;
  retryAfter: Date | null;
  /** Runs in a row it failed in for a passing cause. */
  failedRuns: number;
}

/** The local state of every file seen before. */
export async function transferFileStates(db: TransferDb): Promise<Map<string, TransferFileState>> {
  const rows = await db.all<{ transfer_file_id: string; status: string; remote_status: string | null; retry_after: Date | null; failed_runs: number | null }>(
    'SELECT transfer_file_id, status, remote_status, retry_after, failed_runs FROM transfer_files');
  return new Map(rows.map((r) => [r.transfer_file_id, { status: r.status, remote: r.remote_status, retryAfter: r.retry_after, failedRuns: r.failed_runs ?? 0 }]));
}
