import type { Migration } from './migration.js';

// Values of a payload its typed columns could not hold, per response item (src/warehouse/problems.ts): the
// payload is whole in responses_raw, and this says what did not fit where. Key (response_id, field), kept
// unique by the loader's anti-join.
export const migration: Migration = {
  version: 41,
  name: 'load problems',
  sql: `
CREATE TABLE load_problems (
  response_id VARCHAR NOT NULL,
  code VARCHAR,
  instance INTEGER,
  field VARCHAR NOT NULL,
  value VARCHAR,
  problem VARCHAR NOT NULL,
  detail VARCHAR NOT NULL,
  run_id VARCHAR,
  detected_at TIMESTAMPTZ NOT NULL
);`,
};
