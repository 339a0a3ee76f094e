import { ident } from './sql.js';
import type { Table } from './types.js';

/**
 * The CREATE TABLE of a declared table as it stands today. Migrations keep their own SQL (a released migration
 * is never edited, and v1 creates what v1 created); this is what a new table's migration starts from, and what
 * the schema tests build a scratch table from to compare with the migrated catalog.
 */
export function tableDdl(t: Table): string {
  const cols = t.columns.map((c) => [
    ident(c.name), c.type, c.notNull ? 'NOT NULL' : '', c.default !== undefined ? `DEFAULT ${c.default}` : '',
  ].filter(Boolean).join(' '));
  if (t.key && !t.keptByLoader) cols.push(`PRIMARY KEY (${t.key.map(ident).join(', ')})`);
  return `CREATE TABLE ${ident(t.name)} (\n  ${cols.join(',\n  ')}\n)`;
}
