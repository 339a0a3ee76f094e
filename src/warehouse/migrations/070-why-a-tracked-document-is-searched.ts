import { addColumns, type Migration } from './migration.js';

// A trackings night (run --source trackings) searches some tracked documents all the same (a new tracking, one
// paused or deleted behind our back, errored or silent): the check of each says why, for the report and analysts.
export const migration: Migration = {
  version: 70,
  name: 'why a tracked document is searched',
  changes: [addColumns('tracking_checks', ['search_reason'])],
};
