import type { Migration } from './migration.js';

// What each upstream was seen to accept, remembered between nights (src/pipeline/dialect.ts).
export const migration: Migration = {
  version: 61,
  name: 'upstream dialects',
  sql: `
CREATE TABLE upstream_dialects (
  "base_url" VARCHAR NOT NULL,
  "dialect" JSON NOT NULL,
  "learned_at" TIMESTAMPTZ NOT NULL,
  "probe_calls" INTEGER NOT NULL,
  "run_id" VARCHAR,
  "source" VARCHAR NOT NULL,
  PRIMARY KEY ("base_url")
);`,
};
