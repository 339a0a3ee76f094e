import type { Migration } from './migration.js';

// Submission intents: written before POST /requests and closed when the request id is stored, so that a
// run killed in between can find the request in the provider's listing instead of paying for it again.
export const migration: Migration = {
  version: 2,
  name: 'submission intents',
  sql: `
CREATE TABLE submissions (
  search_hash VARCHAR NOT NULL,
  started_at TIMESTAMPTZ NOT NULL,
  run_id VARCHAR,
  search JSON,
  document_line INTEGER,
  request_id VARCHAR,
  PRIMARY KEY (search_hash, started_at)
);`,
};
