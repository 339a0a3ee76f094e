import { addColumns, type Migration } from './migration.js';

// A transfer file that fails for a passing cause (a download timing out, a disk filling while loading) is kept
// for a later run with a backoff instead of being marked error at the provider, which lists it no more: its
// runs failed in a row and when it may be tried again (pipeline/transfer.ts).
export const migration: Migration = {
  version: 81,
  name: 'transfer files wait after a passing failure',
  changes: [addColumns('transfer_files', ['failed_runs', 'retry_after'])],
};
