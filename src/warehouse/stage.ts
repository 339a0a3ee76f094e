import type { DuckDBAppender } from '@duckdb/node-api';
import { ident } from './schema/sql.js';
import { STAGE_COLUMNS } from './schema/staging.js';
import type { StageTable, StageType } from './schema/types.js';
import type { Warehouse } from './warehouse.js';

// Flattened rows reach DuckDB through the Appender into TEMP staging tables (one per row kind), and the
// merges then run as set-based statements from them. Measured against writing the rows as NDJSON and
// read_json-ing them back, the Appender was faster (no file, no parse) — see bench/load.ts.

export const stageName = (t: StageTable): string => `stg_${t}`;

/**
 * Empties the staging tables for a batch by making them anew (TEMP: never in the file, never in an export).
 * Not DELETE: a temp table is never checkpointed, so deleted rows keep their storage and their in-memory
 * row-group bookkeeping; emptied by DELETE, the staging tables grew by every batch ever loaded (80k lawsuits:
 * 0.9 GB spilled to disk, and bookkeeping that ran DuckDB out of memory near 200k).
 *
 * Making them anew changes the temp catalog, so DuckDB plans every merge statement again for each layer. Kept
 * tables with prepared statements were tried (rows deleted in the transaction that staged them, which frees them)
 * and left: DuckDB 1.5.5 and 1.5.6 bake table statistics into a prepared plan (duckdb#23704), so a statement first
 * prepared over an empty table (the first night's `lawsuits`) kept answering "no rows"; with statistics
 * propagation off while preparing it was correct, but each kept plan holds its last run's hash tables (25 MB at
 * the 128 MB budget, which ran the second-night test out of memory). Planning is about 6 ms of the lawsuits
 * merge's 15 ms per layer of 1,000 (DuckDB's profiler: binding 3.2, optimizer 1.7, parsing 0.7).
 */
export async function resetStaging(wh: Warehouse, tables: readonly StageTable[] = Object.keys(STAGE_COLUMNS) as StageTable[]): Promise<void> {
  // One call for all of them: a round trip per table cost 12 tables 3.0 ms against 1.7 (DuckDB 1.5.5).
  if (tables.length > 0) await wh.run(tables.map((t) => CREATE_STAGE[t]).join(';\n'));
}

const CREATE_STAGE = Object.fromEntries((Object.entries(STAGE_COLUMNS) as Array<[StageTable, ReadonlyArray<readonly [string, string]>]>)
  .map(([t, cols]) => [t, `CREATE OR REPLACE TEMP TABLE ${stageName(t)} (${cols.map(([c, ty]) => `${ident(c)} ${ty}`).join(', ')})`])) as Record<StageTable, string>;

type Append = (a: DuckDBAppender, v: unknown) => void;

// One N-API call per value, straight to the Appender: measured 17% faster than DuckDBDataChunkWriter with its
// value converter (25k step rows). The rows come from flatten, so each value already has its column's type;
// anything else is appended as NULL rather than failing the batch.
const APPEND: Record<StageType, Append> = {
  VARCHAR: (a, v) => (typeof v === 'string' ? a.appendVarchar(v) : a.appendNull()),
  JSON: (a, v) => (typeof v === 'string' ? a.appendVarchar(v) : a.appendNull()),
  INTEGER: (a, v) => (typeof v === 'number' && Number.isInteger(v) ? a.appendInteger(v) : a.appendNull()),
  BOOLEAN: (a, v) => (typeof v === 'boolean' ? a.appendBoolean(v) : a.appendNull()),
};

/** Appends rows (objects keyed by the staging columns) to one staging table. */
export async function stageRows<R extends object>(wh: Warehouse, table: StageTable, rows: readonly R[]): Promise<void> {
  if (rows.length === 0) return;
  const cols = STAGE_COLUMNS[table].map(([c]) => c);
  const appends = STAGE_COLUMNS[table].map(([, t]) => APPEND[t]);
  const appender = await wh.connection.createAppender(stageName(table), 'main', 'temp');
  try {
    for (const row of rows) {
      const r = row as Record<string, unknown>;
      for (let i = 0; i < cols.length; i++) appends[i](appender, r[cols[i]]);
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

/** Appends rows to a TEMP table through the Appender, one `write` per row (it appends each column in order). */
export async function appendRows<R>(wh: Warehouse, table: string, rows: readonly R[], write: (a: DuckDBAppender, row: R) => void): Promise<void> {
  if (rows.length === 0) return;
  const appender = await wh.connection.createAppender(table, 'main', 'temp');
  try {
    for (const row of rows) {
      write(appender, row);
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}
