import type { Migration } from './migration.js';

// The synchronous queries and tracking: every `query` invocation is a run, and each table is keyed by run, so the
// nights stack up as history and the views compare each run with the one before it (window LAG over the time of
// the answer).
export const migration: Migration = {
  version: 20,
  name: 'synchronous query history',
  sql: `
CREATE TABLE sync_counts (
  run_id VARCHAR NOT NULL,
  queried_at TIMESTAMPTZ NOT NULL,
  search_type VARCHAR NOT NULL,
  search_key VARCHAR NOT NULL,
  document_line INTEGER,
  total INTEGER NOT NULL,
  PRIMARY KEY (run_id, search_type, search_key)
);

CREATE TABLE sync_exists (
  run_id VARCHAR NOT NULL,
  queried_at TIMESTAMPTZ NOT NULL,
  search_type VARCHAR NOT NULL,
  search_key VARCHAR NOT NULL,
  document_line INTEGER,
  has_lawsuits BOOLEAN NOT NULL,
  request_id VARCHAR,
  PRIMARY KEY (run_id, search_type, search_key)
);

-- Long form: one row per (dimension, value); the total of the answer is the dimension 'lawsuits_count'
-- with an empty value. Instances keep their integer as text in value.
CREATE TABLE sync_grouped (
  run_id VARCHAR NOT NULL,
  queried_at TIMESTAMPTZ NOT NULL,
  search_type VARCHAR NOT NULL,
  search_key VARCHAR NOT NULL,
  document_line INTEGER,
  dimension VARCHAR NOT NULL,
  value VARCHAR NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (run_id, search_type, search_key, dimension, value)
);

-- One row per document per historical query; the lawsuits themselves go to the core tables (source 'historical').
CREATE TABLE sync_historical (
  run_id VARCHAR NOT NULL,
  queried_at TIMESTAMPTZ NOT NULL,
  search_type VARCHAR NOT NULL,
  search_key VARCHAR NOT NULL,
  document_line INTEGER,
  has_lawsuits BOOLEAN NOT NULL,
  request_id VARCHAR,
  lawsuits INTEGER NOT NULL,
  PRIMARY KEY (run_id, search_type, search_key)
);
`,
};
