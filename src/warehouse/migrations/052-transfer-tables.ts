import type { Migration } from './migration.js';

// The transfer tables and the four transfer_files columns only the transfer step used, which that step created
// itself before (ensureTransferSchema in transfer-load.ts) on the first run that reached it. A warehouse where it
// ran already has them, exactly so: hence IF NOT EXISTS, which leaves them, and any column a transfer file
// added, as they are.
export const migration: Migration = {
  version: 52,
  name: 'transfer tables, created by the migrations',
  sql: `
CREATE TABLE IF NOT EXISTS transfer_lawsuits (
  code VARCHAR,
  instance INTEGER,
  tribunal_acronym VARCHAR,
  justice VARCHAR,
  tribunal VARCHAR,
  distribution_date TIMESTAMPTZ,
  amount DECIMAL(18,2),
  status VARCHAR,
  phase VARCHAR,
  secrecy_level INTEGER,
  name VARCHAR,
  area VARCHAR,
  state VARCHAR,
  city VARCHAR,
  updated_at TIMESTAMPTZ,
  transfer_file_id VARCHAR NOT NULL,
  loaded_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS transfer_parties (
  code VARCHAR,
  instance INTEGER,
  party_index INTEGER,
  name VARCHAR,
  side VARCHAR,
  person_type VARCHAR,
  document VARCHAR,
  document_type VARCHAR,
  transfer_file_id VARCHAR NOT NULL,
  loaded_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS transfer_steps (
  code VARCHAR,
  instance INTEGER,
  step_id VARCHAR,
  step_date TIMESTAMPTZ,
  content VARCHAR,
  private BOOLEAN,
  transfer_file_id VARCHAR NOT NULL,
  loaded_at TIMESTAMPTZ NOT NULL
);

ALTER TABLE transfer_files ADD COLUMN IF NOT EXISTS remote_status VARCHAR;
ALTER TABLE transfer_files ADD COLUMN IF NOT EXISTS target_table VARCHAR;
ALTER TABLE transfer_files ADD COLUMN IF NOT EXISTS attempts INTEGER;
ALTER TABLE transfer_files ADD COLUMN IF NOT EXISTS updated_at TIMESTAMPTZ;`,
};
