import { createTable, type Migration } from './migration.js';

// Submission intents: written before POST /requests and closed when the request id is stored, so that a
// run killed in between can find the request in the provider's listing instead of paying for it again.
export const migration: Migration = {
  version: 2,
  name: 'submission intents',
  changes: [createTable('submissions')],
};
