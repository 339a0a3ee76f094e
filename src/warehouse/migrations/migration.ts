import type { Table } from '../schema/types.js';

// The warehouse schema's history, as numbered migrations, one per file (index.ts lists them in order). A
// migration says which declared tables and columns came to be at its version, in which order, and the data
// moves between them; it never spells out a column. The DDL is generated from the declaration (../schema/) as it
// stood at the migration's version: today's declaration with every later change undone (statements.ts). So a
// column is declared once, and a released migration still does exactly what it did: a warehouse in the field
// upgrades by replaying only what it has not seen (schema_migrations records the versions applied).
// test/warehouse/released-migrations-never-change.test.ts holds each released migration to its statements.

/** One step of a migration. */
export type Change =
  /** Creates the declared table `table` as it stood at this step. */
  | { kind: 'create'; table: string; ifNotExists?: boolean }
  /** Adds the declared columns `columns` of `table`, in this order, as they stood at this step. */
  | { kind: 'add'; table: string; columns: readonly string[]; ifNotExists?: boolean }
  /** Lets `table.column` hold NULL: before this step it was NOT NULL (the undo the history needs). */
  | { kind: 'dropNotNull'; table: string; column: string }
  /** A data move or a view, as SQL: never a table's or a column's shape, which the declaration holds. */
  | { kind: 'sql'; sql: string }
  /**
   * Makes the declared table `table` anew, as it stood at this step, in place of `before` (the table as it stood
   * until this step, which the declaration no longer says: a key that changed, columns dropped or renamed), and
   * moves its rows with `move`: SQL reading the old table under the name `old` gives it.
   */
  | { kind: 'recreate'; table: string; before: Table; move: (old: string) => string };

export interface Migration {
  /** Strictly increasing, starting at 1. Never reused: warehouses in the field record it. */
  version: number;
  /** Short description, stored in schema_migrations. */
  name: string;
  /** Its steps in order, run in one transaction with the schema_migrations row, then checkpointed. */
  changes: readonly Change[];
}

/**
 * Creates the declared table. `ifNotExists` leaves a table an older version made outside the migrations as it
 * is (with any column it added since).
 */
export const createTable = (table: string, opts: { ifNotExists?: boolean } = {}): Change => ({ kind: 'create', table, ...opts });

/** Adds declared columns of a declared table. `ifNotExists` leaves a column an older version added itself. */
export const addColumns = (table: string, columns: readonly string[], opts: { ifNotExists?: boolean } = {}): Change => ({ kind: 'add', table, columns, ...opts });

/** Lets a declared column, NOT NULL until this step, hold NULL. */
export const dropNotNull = (table: string, column: string): Change => ({ kind: 'dropNotNull', table, column });

/** A data move or a view. */
export const sql = (text: string): Change => ({ kind: 'sql', sql: text });

/**
 * Makes a declared table anew in place of the one it was (`before`, a copy of its declaration as it stood: the
 * history needs it, the declaration having moved on), its rows moved by `move` from the old table, named `old`.
 */
export const recreateTable = (table: string, before: Table, move: (old: string) => string): Change => ({ kind: 'recreate', table, before, move });
