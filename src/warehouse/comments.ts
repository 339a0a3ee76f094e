import { SCHEMA } from './schema/index.js';
import { ident, lit } from './schema/sql.js';
import type { Schema } from './schema/types.js';

// COMMENT ON for every table, view and column of the warehouse, so that an analyst's `DESCRIBE`, DBeaver or
// `SELECT * FROM duckdb_columns()` explains the data without the source at hand. The sentences are the schema
// declaration's (schema/). Applied to what exists and only where the text differs, so calling it before every
// publish costs next to nothing. A column the declaration does not describe is reported by applyComments and
// fails test/analytics/comments-cover-every-column.test.ts.

/** What the catalog holds today: each object with its kind and comment, each column with its comment. */
interface Catalog {
  objects: ReadonlyArray<{ name: string; kind: 'TABLE' | 'VIEW'; comment: string | null }>;
  columns: ReadonlyArray<{ table_name: string; column_name: string; comment: string | null }>;
}

interface CommentPlan {
  /** The COMMENT statements that bring the catalog to the declaration. */
  statements: string[];
  /** `table.column` (or `table`) of the main schema the declaration does not describe. */
  missing: string[];
}

/** The COMMENT statements `catalog` needs to carry `schema`'s sentences (pure). */
function commentStatements(catalog: Catalog, schema: Schema = SCHEMA): CommentPlan {
  const described = new Map<string, { comment: string; columns: Map<string, string>; added?: string }>();
  for (const t of schema.tables) described.set(t.name, { comment: t.comment, columns: new Map(t.columns.map((c) => [c.name, c.comment])), added: t.addedColumns });
  for (const v of schema.views) described.set(v.name, { comment: v.comment, columns: new Map(v.columns.map((c) => [c.name, c.comment])) });
  const statements: string[] = [];
  const missing: string[] = [];
  const kinds = new Map(catalog.objects.map((o) => [o.name, o.kind]));
  for (const o of catalog.objects) {
    const want = described.get(o.name)?.comment;
    if (!want) missing.push(o.name);
    else if (want !== o.comment) statements.push(`COMMENT ON ${o.kind} ${ident(o.name)} IS ${lit(want)}`);
  }
  for (const c of catalog.columns) {
    if (!kinds.has(c.table_name)) continue;
    const d = described.get(c.table_name);
    const want = d?.columns.get(c.column_name) ?? d?.added;
    if (!want) missing.push(`${c.table_name}.${c.column_name}`);
    else if (want !== c.comment) statements.push(`COMMENT ON COLUMN ${ident(c.table_name)}.${ident(c.column_name)} IS ${lit(want)}`);
  }
  return { statements, missing };
}

interface CommentResult {
  /** COMMENT statements run (0 when every comment was already in place). */
  applied: number;
  /** `table.column` (or `table`) of the main schema still without a comment: missing from the declaration. */
  missing: string[];
}

/** What applyComments needs of the warehouse: `Warehouse` (warehouse.ts) has it. */
interface CommentDb {
  run(sql: string): Promise<number>;
  all<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  transaction<T>(fn: () => Promise<T>): Promise<T>;
}

/** The main schema's tables, views and columns with their comments. */
async function readCatalog(wh: Pick<CommentDb, 'all'>): Promise<Catalog> {
  const objects = await wh.all<Catalog['objects'][number]>(`
    SELECT table_name AS name, 'TABLE' AS kind, comment FROM duckdb_tables()
      WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary
    UNION ALL
    SELECT view_name, 'VIEW', comment FROM duckdb_views()
      WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary`);
  const columns = await wh.all<Catalog['columns'][number]>(`
    SELECT table_name, column_name, comment FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal ORDER BY table_name, column_index`);
  return { objects, columns };
}

/**
 * Comments every table, view and column that exists and that the declaration describes; reports the rest. A
 * COMMENT is a catalog change: the caller checkpoints right after when `applied` > 0 (wal-recovery.ts says why).
 */
export async function applyComments(wh: CommentDb, schema: Schema = SCHEMA): Promise<CommentResult> {
  const { statements, missing } = commentStatements(await readCatalog(wh), schema);
  if (statements.length > 0) await wh.transaction(async () => { await wh.run(statements.join(';\n')); });
  return { applied: statements.length, missing };
}
