import { createTable, type Migration } from './migration.js';

// Change detection: lawsuit_state is the snapshot the last detection saw; each run compares the lawsuits as they
// are now with it, writes the differences to lawsuit_changes and then moves the snapshot forward, all in one
// transaction.
export const migration: Migration = {
  version: 30,
  name: 'change detection',
  changes: ['lawsuit_changes', 'lawsuit_state', 'lawsuit_state_parties', 'search_state', 'lawsuit_status_history', 'change_detections']
    .map((t) => createTable(t)),
};
