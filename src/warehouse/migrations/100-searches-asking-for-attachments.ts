import { addColumns, type Migration } from './migration.js';

// A lawsuit_cnj search may ask for its attachments (`with_attachments`, the top level of the request's body, beside
// the search): it is another search than the same one without (it costs more and brings more), so the ledger and
// the submission intents keep it, for the plan to know a search's identity whole (spec/search-identity.ts). Every
// request made before asked for none: NULL reads as false.
export const migration: Migration = {
  version: 100,
  name: 'searches asking for attachments',
  changes: [addColumns('requests', ['with_attachments']), addColumns('submissions', ['with_attachments'])],
};
