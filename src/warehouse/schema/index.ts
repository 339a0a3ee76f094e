import { changesTables } from './tables/changes.js';
import { deliveriesTables } from './tables/deliveries.js';
import { dialectTables } from './tables/dialect.js';
import { lawsuitsTables } from './tables/lawsuits.js';
import { requestsTables } from './tables/requests.js';
import { responsesTables } from './tables/responses.js';
import { runsTables } from './tables/runs.js';
import { syncTables } from './tables/sync.js';
import { trackingRunsTables } from './tables/tracking-runs.js';
import { transferTables } from './tables/transfer.js';
import type { Column, Schema, Table } from './types.js';
import { VIEWS } from './views.js';

// The warehouse as it is today: every table and view, once, and the only place a column's shape is written.
// Adding a column is one edit in its table's declaration plus one migration (../migrations/) naming it, which
// adds it to files already in the field (ARCHITECTURE.md, "Adding a column"). The order of the tables is the
// order of the exports.

export const SCHEMA: Schema = {
  tables: [...lawsuitsTables, ...responsesTables, ...requestsTables, ...runsTables, ...transferTables, ...syncTables, ...trackingRunsTables, ...changesTables, ...dialectTables, ...deliveriesTables],
  views: VIEWS,
};

/** The declaration of `name` in `schema`; throws for a table nobody declared (a programming error). */
export function tableOf(name: string, schema: Schema = SCHEMA): Table {
  const t = schema.tables.find((x) => x.name === name);
  if (!t) throw new Error(`table ${name} is not declared in the warehouse schema (src/warehouse/schema/)`);
  return t;
}

/** The declaration of `table`'s column `name`; throws when it is not declared. */
export function columnOf(table: Table, name: string): Column {
  const c = table.columns.find((x) => x.name === name);
  if (!c) throw new Error(`column ${table.name}.${name} is not declared in the warehouse schema (src/warehouse/schema/)`);
  return c;
}

