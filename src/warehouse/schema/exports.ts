import { SCHEMA } from './index.js';
import { ident } from './sql.js';
import type { Schema } from './types.js';

// What each exported table writes, derived from the declaration (a table's `export`). Apart from export.ts, which
// writes the files, so that privacy.ts can wrap these selects without importing the writer.

export interface ExportTable {
  /** Folder name under the export dir: the table's name. */
  table: string;
  /** The rows to write. */
  select: string;
  /** Hive partition column (must be a column of select), or none. */
  partitionBy?: string;
}

/** The export of each exported table of `schema`: its declared columns in order, JSON as text, then `add` and `withLawsuit`. */
export function exportTables(schema: Schema = SCHEMA): ExportTable[] {
  return schema.tables.flatMap((t) => {
    if (!t.export) return [];
    const cols = t.columns.filter((c) => c.exported !== false)
      .map((c) => (c.type === 'JSON' ? `t.${ident(c.name)}::VARCHAR AS ${ident(c.name)}` : `t.${ident(c.name)}`));
    for (const [name, sql] of Object.entries(t.export.add ?? {})) cols.push(`${sql} AS ${ident(name)}`);
    const joined = t.export.withLawsuit ?? [];
    for (const c of joined) cols.push(`l.${ident(c)}`);
    const join = joined.length > 0 ? ' LEFT JOIN lawsuits l ON l.code = t.code AND l.instance = t.instance' : '';
    return [{ table: t.name, select: `SELECT ${cols.join(', ')} FROM ${ident(t.name)} t${join}`, ...(t.export.partitionBy ? { partitionBy: t.export.partitionBy } : {}) }];
  });
}

/** The warehouse's exports. */
export const EXPORT_TABLES: readonly ExportTable[] = exportTables();
