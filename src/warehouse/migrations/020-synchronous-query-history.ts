import { createTable, type Migration } from './migration.js';

// The synchronous queries and tracking: every `query` invocation is a run, and each table is keyed by run, so the
// nights stack up as history and the views compare each run with the one before it (window LAG over the time of
// the answer).
export const migration: Migration = {
  version: 20,
  name: 'synchronous query history',
  changes: ['sync_counts', 'sync_exists', 'sync_grouped', 'sync_historical'].map((t) => createTable(t)),
};
