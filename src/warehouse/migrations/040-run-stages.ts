import { createTable, type Migration } from './migration.js';

// Every stage of every run (src/pipeline/stage.ts). A stage's row is written when it starts, as
// 'interrupted', and rewritten when it ends: a run killed mid-stage leaves the truth behind.
export const migration: Migration = {
  version: 40,
  name: 'run stages',
  changes: [createTable('run_stages')],
};
