import { createTable, type Migration } from './migration.js';

// What each upstream was seen to accept, remembered between nights (src/pipeline/dialect.ts).
export const migration: Migration = {
  version: 61,
  name: 'upstream dialects',
  changes: [createTable('upstream_dialects')],
};
