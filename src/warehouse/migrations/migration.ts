// The warehouse schema's history, as numbered migrations, one per file (index.ts lists them in order). A
// migration is never edited once released: a change is a new version, so an old warehouse file upgrades by
// replaying only what it has not seen (schema_migrations records the versions applied, in files in the field).
// Where the schema stands today is the declaration (../schema/); test/warehouse/ holds the two together.

export interface Migration {
  /** Strictly increasing, starting at 1. Never reused: warehouses in the field record it. */
  version: number;
  /** Short description, stored in schema_migrations. */
  name: string;
  /** One or more statements, run in one transaction with the schema_migrations row, then checkpointed. */
  sql: string;
}

/** The ledger of applied migrations, made before any of them (warehouse.ts). */
export const MIGRATIONS_TABLE_SQL = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name VARCHAR NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp
)`;
