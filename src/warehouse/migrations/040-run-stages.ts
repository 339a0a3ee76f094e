import type { Migration } from './migration.js';

// Every stage of every run (src/pipeline/stage.ts). A stage's row is written when it starts, as
// 'interrupted', and rewritten when it ends: a run killed mid-stage leaves the truth behind.
export const migration: Migration = {
  version: 40,
  name: 'run stages',
  sql: `
CREATE TABLE run_stages (
  run_id VARCHAR NOT NULL,
  stage VARCHAR NOT NULL,
  position INTEGER NOT NULL,
  status VARCHAR NOT NULL,
  started_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ,
  counts JSON,
  failures INTEGER NOT NULL DEFAULT 0,
  error_code VARCHAR,
  error_message VARCHAR,
  PRIMARY KEY (run_id, stage)
);`,
};
