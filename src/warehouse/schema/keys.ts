import { ident } from './sql.js';
import { SCHEMA } from './index.js';
import type { Schema, Table } from './types.js';

/** What keys.ts needs of the warehouse: `Warehouse` (warehouse.ts) has it. */
export interface KeyDb {
  all<T = Record<string, unknown>>(sql: string): Promise<T[]>;
}

/** The number of key values held by more than one row of `t`. */
export function duplicateKeysSql(t: Table): string {
  if (!t.key) throw new Error(`table ${t.name} declares no key`);
  return `SELECT count(*) AS n FROM (SELECT 1 FROM ${ident(t.name)} GROUP BY ${t.key.map(ident).join(', ')} HAVING count(*) > 1)`;
}

/**
 * Tables of `schema` (those present in the file) whose declared key holds duplicates, with how many key values
 * are duplicated. Empty when every key is unique. The keys DuckDB does not enforce (`keptByLoader`) are the ones
 * this exists for; the others are checked too, since it costs nothing on small tables.
 */
export async function duplicateKeys(db: KeyDb, schema: Schema = SCHEMA): Promise<Array<{ table: string; duplicates: number }>> {
  const present = new Set((await db.all<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables()
    WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary`)).map((r) => r.name));
  const out: Array<{ table: string; duplicates: number }> = [];
  for (const t of schema.tables) {
    if (!t.key || !present.has(t.name)) continue;
    const [{ n }] = await db.all<{ n: number }>(duplicateKeysSql(t));
    if (Number(n) > 0) out.push({ table: t.name, duplicates: Number(n) });
  }
  return out;
}
