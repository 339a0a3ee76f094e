import type { Migration } from './migration.js';

export const migration: Migration = {
  version: 21,
  name: 'tracking records and checks',
  sql: `
CREATE TABLE trackings (
  tracking_id VARCHAR PRIMARY KEY,
  search_type VARCHAR,
  search_key VARCHAR,
  recurrence INTEGER,
  status VARCHAR,
  search JSON,
  created_at TIMESTAMPTZ,
  updated_at TIMESTAMPTZ,
  last_seen_run VARCHAR,
  checked_at TIMESTAMPTZ NOT NULL
);

-- What each track run found for each listed document: the answer to "is this document tracked?".
CREATE TABLE tracking_checks (
  run_id VARCHAR NOT NULL,
  checked_at TIMESTAMPTZ NOT NULL,
  search_type VARCHAR NOT NULL,
  search_key VARCHAR NOT NULL,
  document_line INTEGER,
  tracking_id VARCHAR,
  outcome VARCHAR NOT NULL,
  error VARCHAR,
  PRIMARY KEY (run_id, search_type, search_key)
);
`,
};
