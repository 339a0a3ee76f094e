import { addColumns, createTable, type Migration } from './migration.js';

// The transfer tables and the four transfer_files columns only the transfer step used, which that step created
// itself before (ensureTransferSchema in transfer-load.ts) on the first run that reached it. A warehouse where it
// ran already has them, exactly so: hence IF NOT EXISTS, which leaves them, and any column a transfer file
// added, as they are.
export const migration: Migration = {
  version: 52,
  name: 'transfer tables, created by the migrations',
  changes: [
    ...['transfer_lawsuits', 'transfer_parties', 'transfer_steps'].map((t) => createTable(t, { ifNotExists: true })),
    addColumns('transfer_files', ['remote_status', 'target_table', 'attempts', 'updated_at'], { ifNotExists: true }),
  ],
};
