// Loading one staged transfer file into its transfer_* table, in the same transaction as its transfer_files
// record: either both are there or neither, which is what makes "never loaded twice" hold after a crash at any
// point. DuckDB's own readers do the parsing (read_csv, read_json, read_parquet); nothing passes through JS rows.

import { REDACTED } from '../shared/echoed-secret.js';
import { EtlError } from '../shared/errors.js';
import { tableOf } from './schema/index.js';
import { ident, lit } from './schema/sql.js';

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
    throw new TransferLoadError('TRANSFER_FILE_READ', `cannot read the ${input.meta.file_type} file: ${firstLine(e)}`, e);
  }
  const table = tableForColumns(described.map((d) => d.column_name));
  const known = new Map(KNOWN[table]);
  const existing = new Map((await db.all<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? AND table_schema = current_schema()`, [table],
  )).map((r) => [r.column_name, r.data_type]));
  const targets: string[] = [];
  const exprs: string[] = [];
  const params: unknown[] = [];
  const added: Array<[string, string]> = [];
  const secrets = input.secrets ?? [];
  for (const { column_name: c, column_type: src } of described) {
    if (LINEAGE.includes(c)) continue;
    const want = known.get(c);
    if (!existing.has(c)) added.push([c, src]);
    targets.push(ident(c));
    let expr: string;
    // A naive TIMESTAMP from a reader means UTC here (JSON's "…Z" text, parquet's TIMESTAMP_MILLIS).
    if (want === 'TIMESTAMPTZ' && src === 'TIMESTAMP') expr = `timezone('UTC', ${ident(c)})`;
    else if (want) expr = `CAST(${ident(c)} AS ${want})`;
    else expr = ident(c);
    // A text column loses the key as the rows are inserted (as parameters: the key is never in a statement's text).
    if ((want ?? existing.get(c) ?? src) === 'VARCHAR') {
      for (const secret of secrets) {
        expr = `replace(${expr}, ?, ${lit(REDACTED)})`;
        params.push(secret);
      }
    }
    exprs.push(expr);
  }
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
        rows = await db.run(
          `INSERT INTO ${table} (${[...targets, ...LINEAGE.map(ident)].join(', ')}) SELECT ${exprs.join(', ')}, ?, current_timestamp FROM ${reader}`,
          [...params, input.meta.transfer_file_id],
        );
      } finally {
        await db.run('RESET preserve_insertion_order');
      }
      await upsertFile(db, input.meta, { status: 'loaded', loaded_rows: rows, error: null, run_id: input.runId, target_table: table, attempts: input.attempts });
      return { table, rows };
    });
  } catch (e) {
    if (e instanceof TransferLoadError) throw e;
    throw new TransferLoadError('TRANSFER_FILE_READ', `cannot load the ${input.meta.file_type} file: ${firstLine(e)}`, e);
  }
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0].replace(/^warehouse (statement|query) failed: /, '').slice(0, 400);
}

async function upsertFile(db: TransferDb, m: TransferFileMeta, s: { status: string; loaded_rows: number | null; error: string | null; run_id: string; target_table: string | null; attempts: number }): Promise<void> {
  await db.run(
    `INSERT INTO transfer_files (transfer_file_id, name, description, file_type, remote_status, file_size, lawsuits_count, created_at,
       completed_at, status, loaded_rows, loaded_at, error, run_id, target_table, attempts, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, CAST(? AS TIMESTAMPTZ), CAST(? AS TIMESTAMPTZ), ?, ?, CASE WHEN ? = 'loaded' THEN current_timestamp END, ?, ?, ?, ?, current_timestamp)
     ON CONFLICT (transfer_file_id) DO UPDATE SET name = excluded.name, description = excluded.description, file_type = excluded.file_type,
       remote_status = excluded.remote_status, file_size = excluded.file_size, lawsuits_count = excluded.lawsuits_count,
       created_at = excluded.created_at, completed_at = excluded.completed_at, status = excluded.status,
       loaded_rows = coalesce(excluded.loaded_rows, transfer_files.loaded_rows), loaded_at = coalesce(excluded.loaded_at, transfer_files.loaded_at),
       error = excluded.error, run_id = excluded.run_id, target_table = coalesce(excluded.target_table, transfer_files.target_table),
       attempts = excluded.attempts, updated_at = excluded.updated_at`,
    [m.transfer_file_id, m.name, m.description ?? null, m.file_type, m.status ?? null, m.file_size ?? null, m.lawsuits_count ?? null,
      m.created_at ?? null, m.completed_at ?? null, s.status, s.loaded_rows, s.status, s.error, s.run_id, s.target_table, s.attempts],
  );
}

/** After the provider accepted the "downloaded" PATCH. */
export async function markTransferDownloaded(db: TransferDb, id: string): Promise<void> {
  await db.run(`UPDATE transfer_files SET status = 'downloaded', remote_status = 'downloaded', downloaded_at = current_timestamp,
    updated_at = current_timestamp WHERE transfer_file_id = ?`, [id]);
}

/** A file that could not be loaded: its reason, for the summary and the provider's team. */
export async function markTransferError(db: TransferDb, meta: TransferFileMeta, reason: string, runId: string, attempts: number, remotePatched: boolean): Promise<void> {
  await upsertFile(db, { ...meta, status: remotePatched ? 'error' : meta.status }, { status: 'error', loaded_rows: null, error: reason, run_id: runId, target_table: null, attempts });
}

/** Local status of every file seen before: 'loaded' (PATCH pending), 'downloaded' (done) or 'error'. */
export async function transferFileStates(db: TransferDb): Promise<Map<string, string>> {
  const rows = await db.all<{ transfer_file_id: string; status: string }>('SELECT transfer_file_id, status FROM transfer_files');
  return new Map(rows.map((r) => [r.transfer_file_id, r.status]));
}
