import { createTable, type Migration } from './migration.js';

// The night reads what the webhook intake wrote to its spool before it lists anything (issue 35): how far it read
// each segment, and the deliveries of requests not known yet (schema/tables/deliveries.ts).
export const migration: Migration = {
  version: 110,
  name: 'webhook deliveries read from the spool',
  changes: [createTable('spool_segments'), createTable('deliveries_parked')],
};
