import { createTable, type Migration } from './migration.js';

// The schema as first released. The big tables (steps above all: some 17 rows per lawsuit) were made without a
// PRIMARY KEY, which their declarations say with `keptByLoader` (schema/types.ts says why).
export const migration: Migration = {
  version: 1,
  name: 'core tables',
  changes: [
    'runs', 'requests', 'request_pages', 'responses_raw', 'search_hits', 'lawsuits', 'parties', 'lawyers', 'steps',
    'subjects', 'classifications', 'courts', 'attachments', 'rejected_inputs', 'transfer_files',
  ].map((t) => createTable(t)),
};
