import { addColumns, type Migration } from './migration.js';

// Two kinds of trackings (issue 32): a listed document's tracking announces the lawsuits born to it, a lawsuit's
// tracking (lawsuit_cnj, one per number kept whole) carries that lawsuit's movements. Each check says which kind it
// was for, so that a later night knows which of its trackings follow a lawsuit (its pause guard counts each kind
// apart), and the night's row counts the lawsuit trackings it made, paused and resumed.
export const migration: Migration = {
  version: 120,
  name: 'lawsuit trackings',
  changes: [
    addColumns('tracking_checks', ['kind']),
    addColumns('runs', ['lawsuit_trackings_created', 'lawsuit_trackings_paused', 'lawsuit_trackings_resumed']),
  ],
};
