import type { Migration } from './migration.js';

// Change detection: lawsuit_state is the snapshot the last detection saw; each run compares the lawsuits as they
// are now with it, writes the differences to lawsuit_changes and then moves the snapshot forward, all in one
// transaction.
export const migration: Migration = {
  version: 30,
  name: 'change detection',
  sql: `
CREATE TABLE lawsuit_changes (
  run_id VARCHAR NOT NULL,
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  change VARCHAR NOT NULL,
  detail VARCHAR NOT NULL DEFAULT '',
  old_value VARCHAR,
  new_value VARCHAR,
  search_type VARCHAR,
  search_key VARCHAR,
  detected_at TIMESTAMPTZ NOT NULL
  -- key (run_id, code, instance, change, detail): unique by construction (one detection per run, in one transaction), no in-memory index
);

CREATE TABLE lawsuit_state (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  status VARCHAR,
  phase VARCHAR,
  amount DECIMAL(18,2),
  secrecy_level INTEGER,
  steps_count INTEGER NOT NULL,
  snapshot_run VARCHAR NOT NULL,
  snapshot_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (code, instance)
);

CREATE TABLE lawsuit_state_parties (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  party_key VARCHAR NOT NULL
  -- key (code, instance, party_key): unique by construction (one detection per run, in one transaction), no in-memory index
);

CREATE TABLE search_state (
  search_type VARCHAR NOT NULL,
  search_key VARCHAR NOT NULL,
  on_demand BOOLEAN NOT NULL,
  lawsuit_instance INTEGER NOT NULL,
  request_id VARCHAR NOT NULL,
  snapshot_run VARCHAR NOT NULL,
  PRIMARY KEY (search_type, search_key, on_demand, lawsuit_instance)
);

CREATE TABLE lawsuit_status_history (
  code VARCHAR NOT NULL,
  instance INTEGER NOT NULL,
  run_id VARCHAR NOT NULL,
  valid_from TIMESTAMPTZ NOT NULL,
  status VARCHAR,
  phase VARCHAR,
  previous_status VARCHAR,
  previous_phase VARCHAR,
  provider_updated_at TIMESTAMPTZ
  -- key (code, instance, run_id): unique by construction (one detection per run, in one transaction), no in-memory index
);

CREATE TABLE change_detections (
  run_id VARCHAR PRIMARY KEY,
  detected_at TIMESTAMPTZ NOT NULL,
  lawsuits_compared INTEGER NOT NULL,
  changes INTEGER NOT NULL,
  counts JSON NOT NULL
);
`,
};
