import type { Migration } from './migration.js';

// The schema as first released. The big tables (steps above all: some 17 rows per lawsuit) have no PRIMARY KEY: DuckDB checks a key with an
// ART index that must sit in memory, and at 100k lawsuits the steps index alone outgrows the run's memory
// budget (an INSERT ... ON CONFLICT failed with "Out of Memory" at 128MB). Their keys are kept unique by the
// loader instead: children are replaced per lawsuit; steps, raw responses and hits are inserted with an
// anti-join on the key. The tests and ../shared/tools/contract-check.mjs check uniqueness.
export const migration: Migration = {
  version: 1,
  name: 'core tables',
  sql: `
CREATE TABLE runs (
  run_id VARCHAR PRIMARY KEY,
  started_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ,
  status VARCHAR NOT NULL,
  command VARCHAR,
  calls INTEGER,
  calls_by_status JSON,
  documents INTEGER,
  rejected INTEGER,
  requests_submitted INTEGER,
  requests_completed INTEGER,
  lawsuits INTEGER,
  parties INTEGER,
  steps INTEGER,
  errors INTEGER,
  summary JSON
);

CREATE TABLE requests (
  request_id VARCHAR PRIMARY KEY,
  search_type VARCHAR,
  search_key VARCHAR,
  on_demand BOOLEAN,
  lawsuit_instance INTEGER,
  status VARCHAR,
  created_at TIMESTAMPTZ,
  completed_at TIMESTAMPTZ,
  run_id VARCHAR,
  document_line INTEGER,
  search JSON,
  submitted_at TIMESTAMPTZ,
  pages_loaded INTEGER NOT NULL DEFAULT 0,
  items_loaded INTEGER NOT NULL DEFAULT 0,
  all_pages_count INTEGER,
  last_polled_at TIMESTAMPTZ,
  error VARCHAR
);

CREATE TABLE request_pages (
  request_id VARCHAR NOT NULL,
  page INTEGER NOT NULL,
  items INTEGER NOT NULL,
  loaded_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (request_id, page)
);

CREATE TABLE responses_raw (
  response_id VARCHAR NOT NULL, -- key: kept unique by the loader, not by an index (see above)
  request_id VARCHAR,
  response_type VARCHAR,
  created_at TIMESTAMPTZ,
  item JSON NOT NULL,
  run_id VARCHAR,
  loaded_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE search_hits (
  request_id VARCHAR NOT NULL,
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  response_id VARCHAR,
  first_seen_at TIMESTAMPTZ NOT NULL
  -- key (request_id, code, instance): kept unique by the loader, not by an index (see above)
);

CREATE TABLE lawsuits (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  lawsuit_id VARCHAR,
  tribunal_acronym VARCHAR,
  justice VARCHAR,
  justice_description VARCHAR,
  tribunal VARCHAR,
  area VARCHAR,
  state VARCHAR,
  city VARCHAR,
  county VARCHAR,
  distribution_date TIMESTAMPTZ,
  amount DECIMAL(18,2),
  status VARCHAR,
  phase VARCHAR,
  secrecy_level INTEGER,
  free_justice BOOLEAN,
  name VARCHAR,
  created_at TIMESTAMPTZ,
  updated_at TIMESTAMPTZ,
  crawl_id VARCHAR,
  crawler_source VARCHAR,
  crawled_at TIMESTAMPTZ,
  last_step_date TIMESTAMPTZ,
  steps_count INTEGER,
  response_id VARCHAR,
  response_created_at TIMESTAMPTZ,
  cached_response BOOLEAN,
  source VARCHAR,
  first_seen_run VARCHAR,
  last_seen_run VARCHAR,
  loaded_at TIMESTAMPTZ NOT NULL,
  raw JSON NOT NULL,
  PRIMARY KEY (code, instance)
);

CREATE TABLE parties (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  party_index INTEGER NOT NULL,
  name VARCHAR,
  side VARCHAR,
  person_type VARCHAR,
  document VARCHAR,
  document_type VARCHAR,
  main_document VARCHAR,
  documents JSON,
  raw JSON
  -- key (code, instance, party_index): kept unique by the loader, not by an index (see above)
);

CREATE TABLE lawyers (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  party_index INTEGER NOT NULL,
  lawyer_index INTEGER NOT NULL,
  name VARCHAR,
  side VARCHAR,
  oab VARCHAR,
  person_type VARCHAR,
  documents JSON
  -- key (code, instance, party_index, lawyer_index): kept unique by the loader, not by an index (see above)
);

CREATE TABLE steps (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  step_id VARCHAR NOT NULL,
  step_id_derived BOOLEAN NOT NULL DEFAULT false,
  step_date TIMESTAMPTZ,
  content VARCHAR,
  private BOOLEAN,
  step_type VARCHAR,
  raw JSON
  -- key (code, instance, step_id): kept unique by the loader, not by an index (see above)
);

CREATE TABLE subjects (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  item_code VARCHAR NOT NULL,
  item_name VARCHAR
  -- key (code, instance, item_code): kept unique by the loader, not by an index (see above)
);

CREATE TABLE classifications (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  item_code VARCHAR NOT NULL,
  item_name VARCHAR
  -- key (code, instance, item_code): kept unique by the loader, not by an index (see above)
);

CREATE TABLE courts (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  court_index INTEGER NOT NULL,
  court_code VARCHAR,
  court_name VARCHAR
  -- key (code, instance, court_index): kept unique by the loader, not by an index (see above)
);

CREATE TABLE attachments (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  attachment_index INTEGER NOT NULL,
  attachment_date TIMESTAMPTZ,
  attachment_name VARCHAR,
  raw JSON
  -- key (code, instance, attachment_index): kept unique by the loader, not by an index (see above)
);

CREATE TABLE rejected_inputs (
  run_id VARCHAR NOT NULL,
  line INTEGER NOT NULL,
  value VARCHAR,
  reason VARCHAR NOT NULL,
  source VARCHAR,
  rejected_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp,
  PRIMARY KEY (run_id, line)
);

CREATE TABLE transfer_files (
  transfer_file_id VARCHAR PRIMARY KEY,
  name VARCHAR,
  description VARCHAR,
  file_type VARCHAR,
  status VARCHAR,
  file_size BIGINT,
  lawsuits_count INTEGER,
  created_at TIMESTAMPTZ,
  completed_at TIMESTAMPTZ,
  downloaded_at TIMESTAMPTZ,
  loaded_rows INTEGER,
  loaded_at TIMESTAMPTZ,
  error VARCHAR,
  run_id VARCHAR
);
`,
};
