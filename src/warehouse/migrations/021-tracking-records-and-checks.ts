import { createTable, type Migration } from './migration.js';

export const migration: Migration = {
  version: 21,
  name: 'tracking records and checks',
  changes: [createTable('trackings'), createTable('tracking_checks')],
};
