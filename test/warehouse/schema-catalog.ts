import { DuckDBInstance } from '@duckdb/node-api';
import { tableDdl } from '../../src/warehouse/schema/ddl.js';
import { SCHEMA } from '../../src/warehouse/schema/index.js';
import { ident } from '../../src/warehouse/schema/sql.js';
import type { Schema } from '../../src/warehouse/schema/types.js';

// The catalog of a DuckDB file as the schema tests compare it: tables, columns (in order, with type, nullability,
// default and comment), keys and views; and whether every declared key holds.

export interface CatalogDb { all<T = Record<string, unknown>>(sql: string): Promise<T[]> }

export interface ColumnShape { table: string; column: string; type: string; nullable: boolean; default: string | null }

const MAIN = `database_name = current_database() AND schema_name = 'main' AND NOT internal`;

/** Every column of the main schema's tables, in order. */
export async function columnShapes(db: CatalogDb, tables?: readonly string[]): Promise<ColumnShape[]> {
  const rows = await db.all<{ t: string; c: string; ty: string; n: boolean; d: string | null }>(`
    SELECT c.table_name t, c.column_name c, c.data_type ty, c.is_nullable n, c.column_default d
    FROM duckdb_columns() c JOIN duckdb_tables() t ON t.table_oid = c.table_oid
    WHERE c.database_name = current_database() AND c.schema_name = 'main' AND NOT c.internal AND NOT t.temporary
    ORDER BY c.table_name, c.column_index`);
  return rows.filter((r) => !tables || tables.includes(r.t)).map((r) => ({ table: r.t, column: r.c, type: r.ty, nullable: r.n, default: r.d }));
}

/** PRIMARY KEY and UNIQUE constraints, as `table: TYPE (columns)`. */
export async function keyShapes(db: CatalogDb, tables?: readonly string[]): Promise<string[]> {
  const rows = await db.all<{ t: string; ty: string; cols: string }>(`
    SELECT table_name t, constraint_type ty, array_to_string(constraint_column_names, ', ') cols FROM duckdb_constraints()
    WHERE database_name = current_database() AND schema_name = 'main' AND constraint_type IN ('PRIMARY KEY', 'UNIQUE') ORDER BY 1, 2, 3`);
  return rows.filter((r) => !tables || tables.includes(r.t)).map((r) => `${r.t}: ${r.ty} (${r.cols})`);
}

export async function tableNames(db: CatalogDb): Promise<string[]> {
  return (await db.all<{ n: string }>(`SELECT table_name n FROM duckdb_tables() WHERE ${MAIN} AND NOT temporary ORDER BY 1`)).map((r) => r.n);
}

export async function viewColumns(db: CatalogDb): Promise<Record<string, string[]>> {
  const views = await db.all<{ v: string }>(`SELECT view_name v FROM duckdb_views() WHERE ${MAIN} AND NOT temporary ORDER BY 1`);
  const out: Record<string, string[]> = {};
  for (const { v } of views) {
    out[v] = (await db.all<{ c: string }>(`SELECT column_name c FROM duckdb_columns() WHERE ${MAIN} AND table_name = '${v}' ORDER BY column_index`)).map((r) => r.c);
  }
  return out;
}

/** Table, view and column comments, as `name` / `table.column` -> comment. */
export async function comments(db: CatalogDb): Promise<Record<string, string | null>> {
  const rows = await db.all<{ k: string; c: string | null }>(`
    SELECT table_name k, comment c FROM duckdb_tables() WHERE ${MAIN} AND NOT temporary
    UNION ALL SELECT view_name, comment FROM duckdb_views() WHERE ${MAIN} AND NOT temporary
    UNION ALL SELECT table_name || '.' || column_name, comment FROM duckdb_columns() WHERE ${MAIN}`);
  return Object.fromEntries(rows.map((r) => [r.k, r.c]));
}

/** The comments the declaration gives, in the shape of comments(). */
export function declaredComments(schema: Schema): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of [...schema.tables, ...schema.views]) {
    out[t.name] = t.comment;
    for (const c of t.columns) out[`${t.name}.${c.name}`] = c.comment;
  }
  return out;
}

/** The catalog the declaration's DDL makes in an empty in-memory database: what the migrations must add up to. */
export async function declaredShapes(schema: Schema): Promise<{ columns: ColumnShape[]; keys: string[] }> {
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    for (const t of schema.tables) await con.run(tableDdl(t));
    const db: CatalogDb = { all: async <T>(sql: string) => (await con.runAndReadAll(sql)).getRowObjectsJS() as T[] };
    return { columns: await columnShapes(db), keys: await keyShapes(db) };
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

/** Every difference between the catalog of `db` and the declaration; empty when they are the same. */
export async function differencesFromDeclaration(db: CatalogDb, schema: Schema): Promise<string[]> {
  const declared = await declaredShapes(schema);
  const diffs: string[] = [];
  const have = await columnShapes(db);
  const key = (c: ColumnShape) => `${c.table}.${c.column}`;
  const show = (c: ColumnShape | undefined) => (c ? JSON.stringify(c) : 'absent');
  const all = new Set([...declared.columns.map(key), ...have.map(key)]);
  for (const k of all) {
    const a = declared.columns.find((c) => key(c) === k);
    const b = have.find((c) => key(c) === k);
    if (JSON.stringify(a) !== JSON.stringify(b)) diffs.push(`${k}: declared ${show(a)}, file ${show(b)}`);
  }
  const order = (cols: ColumnShape[]) => cols.map(key).join(',');
  if (diffs.length === 0 && order(declared.columns) !== order(have)) diffs.push('column order differs');
  const keys = await keyShapes(db);
  if (JSON.stringify(keys) !== JSON.stringify(declared.keys)) diffs.push(`keys: declared ${declared.keys.join('; ')}; file ${keys.join('; ')}`);
  const views = await viewColumns(db);
  const wantViews = Object.fromEntries(schema.views.map((v) => [v.name, v.columns.map((c) => c.name)]));
  for (const v of new Set([...Object.keys(views), ...Object.keys(wantViews)])) {
    if (JSON.stringify(views[v]) !== JSON.stringify(wantViews[v])) diffs.push(`view ${v}: declared ${wantViews[v]?.join(', ') ?? 'absent'}, file ${views[v]?.join(', ') ?? 'absent'}`);
  }
  const got = await comments(db);
  for (const [k, want] of Object.entries(declaredComments(schema))) {
    if (got[k] !== want) diffs.push(`comment of ${k}: declared ${JSON.stringify(want)}, file ${JSON.stringify(got[k])}`);
  }
  return diffs;
}

/**
 * Tables of `schema` (those present in the file) whose declared key holds duplicates, with how many key values
 * are duplicated. Empty when every key is unique. The keys DuckDB does not enforce (`keptByLoader`) are the ones
 * this exists for; the others are checked too, since it costs nothing on small tables.
 */
export async function duplicateKeys(db: CatalogDb, schema: Schema = SCHEMA): Promise<Array<{ table: string; duplicates: number }>> {
  const present = new Set(await tableNames(db));
  const out: Array<{ table: string; duplicates: number }> = [];
  for (const t of schema.tables) {
    if (!t.key || !present.has(t.name)) continue;
    const [{ n }] = await db.all<{ n: number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM ${ident(t.name)} GROUP BY ${t.key.map(ident).join(', ')} HAVING count(*) > 1)`);
    if (Number(n) > 0) out.push({ table: t.name, duplicates: Number(n) });
  }
  return out;
}
