import { ident } from './sql.js';
import type { Column, Table } from './types.js';

// The DDL of the declaration, the only place table and column shapes become SQL: the migrations run it
// (../migrations/statements.ts gives it the table as it stood at their version) and the schema tests build a
// scratch catalog from it to compare with a migrated file.

/** Whether the statement leaves an object that already exists alone (a table an older version made itself). */
interface DdlOptions { ifNotExists?: boolean }

/** A column's definition: its name, type, NOT NULL and DEFAULT. */
function columnDdl(c: Column): string {
  return [ident(c.name), c.type, c.notNull ? 'NOT NULL' : '', c.default !== undefined ? `DEFAULT ${c.default}` : ''].filter(Boolean).join(' ');
}

/** The CREATE TABLE of `t`: its columns in order, and its key as a PRIMARY KEY unless the loader keeps it. */
export function tableDdl(t: Table, opts: DdlOptions = {}): string {
  const cols = t.columns.map(columnDdl);
  if (t.key && !t.keptByLoader) cols.push(`PRIMARY KEY (${t.key.map(ident).join(', ')})`);
  return `CREATE TABLE ${opts.ifNotExists ? 'IF NOT EXISTS ' : ''}${ident(t.name)} (\n  ${cols.join(',\n  ')}\n)`;
}

/** The ALTER TABLE that adds column `c` to `table` (last, as DuckDB adds columns). */
export function addColumnDdl(table: string, c: Column, opts: DdlOptions = {}): string {
  return `ALTER TABLE ${ident(table)} ADD COLUMN ${opts.ifNotExists ? 'IF NOT EXISTS ' : ''}${columnDdl(c)}`;
}

/** The ALTER TABLE that lets `table`'s `column` hold NULL. */
export function dropNotNullDdl(table: string, column: string): string {
  return `ALTER TABLE ${ident(table)} ALTER COLUMN ${ident(column)} DROP NOT NULL`;
}
