import { addColumns, createTable, type Migration } from './migration.js';

// A trackings night reads its trackings' runs instead of buying a search per document (issue 23): the ledger of
// the runs read and the cursor of each night's reading (schema/tables/tracking-runs.ts), and the night's figures on its `runs` row.
export const migration: Migration = {
  version: 75,
  name: 'tracking runs read',
  changes: [
    createTable('tracking_runs'), createTable('tracking_reads'),
    addColumns('runs', ['source', 'trackings_created', 'trackings_paused', 'trackings_resumed', 'tracking_runs_read', 'tracking_responses']),
  ],
};
