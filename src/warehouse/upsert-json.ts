import type { Warehouse } from './warehouse.js';

// The merge of rows answered as JSON into a table that keeps the newest answer of each key, whatever order the
// answers were written in: the synchronous queries' tables (pipeline/sync.ts) and the trackings' records
// (pipeline/tracking/records.ts) both write through it.

/**
 * Rows to a table in one statement: JSON text unnested by DuckDB, merged on the key. A row replaces the stored
 * one of its key only when it is not older by `versionedBy` (columns compared in order, an absent value oldest),
 * so that what the table holds is the newest answer whatever order answers were written in (docs/warehouse.md,
 * "The merge rule").
 */
export async function upsertJsonRows(
  wh: Warehouse, table: string, columns: ReadonlyArray<readonly [name: string, type: string]>, key: readonly string[],
  rows: readonly object[], versionedBy: readonly string[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const shape = JSON.stringify([Object.fromEntries(columns.map(([c, t]) => [c, t === 'TIMESTAMPTZ' || t === 'JSON' ? 'VARCHAR' : t]))]);
  const select = columns.map(([c, t]) => (t === 'TIMESTAMPTZ' || t === 'JSON' ? `"${c}"::${t}` : `"${c}"`)).join(', ');
  const names = columns.map(([c]) => `"${c}"`).join(', ');
  const updates = columns.filter(([c]) => !key.includes(c)).map(([c]) => `"${c}" = excluded."${c}"`).join(', ');
  const sql = `INSERT INTO ${table} (${names}) SELECT ${select} FROM (SELECT unnest(from_json($1::JSON, '${shape.replace(/'/g, "''")}'), recursive := true))
    ON CONFLICT (${key.join(', ')}) DO ${updates ? `UPDATE SET ${updates} WHERE ${newer(table, versionedBy)}` : 'NOTHING'}`;
  return wh.run(sql, [JSON.stringify(rows)]);
}

/** The incoming row (`excluded`) is at least as new as the stored one, by `columns` in order; NULL is oldest. */
function newer(table: string, columns: readonly string[]): string {
  const v = (row: string): string => `(${columns.map((c) => `coalesce(${row}."${c}"::VARCHAR, '')`).join(', ')})`;
  return columns.length === 0 ? 'true' : `${v('excluded')} >= ${v(table)}`;
}
