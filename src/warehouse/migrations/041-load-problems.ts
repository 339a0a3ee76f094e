import { createTable, type Migration } from './migration.js';

// Values of a payload its typed columns could not hold, per response item (src/warehouse/problems.ts): the
// payload is whole in responses_raw, and this says what did not fit where.
export const migration: Migration = {
  version: 41,
  name: 'load problems',
  changes: [createTable('load_problems')],
};
