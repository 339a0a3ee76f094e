import { C } from '../common.js';
import type { Column, Table } from '../types.js';

/** What every synchronous answer row starts with: which run asked, when the provider answered, and for which search. */
const ANSWERED: readonly Column[] = [
  { name: 'run_id', type: 'VARCHAR', notNull: true, comment: C.run_id },
  { name: 'queried_at', type: 'TIMESTAMPTZ', notNull: true, comment: C.queried_at },
  { name: 'search_type', type: 'VARCHAR', notNull: true, comment: C.search_type },
  { name: 'search_key', type: 'VARCHAR', notNull: true, comment: C.search_key },
  { name: 'document_line', type: 'INTEGER', comment: C.document_line },
];

const syncCounts: Table = {
  name: 'sync_counts',
  comment: 'Synchronous count queries: how many lawsuits each document had, per run.',
  key: ['run_id', 'search_type', 'search_key'],
  columns: [
    ...ANSWERED,
    { name: 'total', type: 'INTEGER', notNull: true, comment: 'lawsuits counted' },
  ],
};

const syncExists: Table = {
  name: 'sync_exists',
  comment: 'Synchronous true/false queries: whether each document had lawsuits, per run.',
  key: ['run_id', 'search_type', 'search_key'],
  columns: [
    ...ANSWERED,
    { name: 'has_lawsuits', type: 'BOOLEAN', notNull: true, comment: 'true when the document has at least one lawsuit' },
    { name: 'request_id', type: 'VARCHAR', comment: 'request the provider created for the answer, if any' },
  ],
};

const syncGrouped: Table = {
  name: 'sync_grouped',
  comment: 'Synchronous grouped counts (long form): per run, document, dimension and value.',
  key: ['run_id', 'search_type', 'search_key', 'dimension', 'value'],
  columns: [
    ...ANSWERED,
    { name: 'dimension', type: 'VARCHAR', notNull: true, comment: 'grouping dimension (lawsuits_count is the total)' },
    { name: 'value', type: 'VARCHAR', notNull: true, comment: 'value of the dimension (instances as text; empty for the total)' },
    { name: 'count', type: 'INTEGER', notNull: true, comment: 'lawsuits with that value' },
  ],
};

const syncHistorical: Table = {
  name: 'sync_historical',
  comment: 'Synchronous historical queries: one row per document per run (the lawsuits go to the core tables).',
  key: ['run_id', 'search_type', 'search_key'],
  columns: [
    ...ANSWERED,
    { name: 'has_lawsuits', type: 'BOOLEAN', notNull: true, comment: 'true when lawsuits were returned' },
    { name: 'request_id', type: 'VARCHAR', comment: 'request the provider created for the answer, if any' },
    { name: 'lawsuits', type: 'INTEGER', notNull: true, comment: 'lawsuits returned' },
  ],
};

const trackings: Table = {
  name: 'trackings',
  comment: 'Tracking records at the provider (recurring searches), as last listed.',
  key: ['tracking_id'],
  columns: [
    { name: 'tracking_id', type: 'VARCHAR', notNull: true, comment: 'the provider\'s tracking id' },
    { name: 'search_type', type: 'VARCHAR', comment: C.search_type },
    { name: 'search_key', type: 'VARCHAR', comment: C.search_key },
    { name: 'recurrence', type: 'INTEGER', comment: 'recurrence in days' },
    { name: 'status', type: 'VARCHAR', comment: 'created, active, updating, updated or paused' },
    { name: 'search', type: 'JSON', comment: 'the tracked search (JSON)' },
    { name: 'created_at', type: 'TIMESTAMPTZ', comment: 'when it was created' },
    { name: 'updated_at', type: 'TIMESTAMPTZ', comment: 'last status change at the provider' },
    { name: 'last_seen_run', type: 'VARCHAR', comment: 'run that last listed it' },
    { name: 'checked_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it was last checked' },
  ],
};

const trackingChecks: Table = {
  name: 'tracking_checks',
  comment: 'What each track run, and each trackings night, found or did for each tracked search: a listed document\'s, or a lawsuit\'s kept whole.',
  key: ['run_id', 'search_type', 'search_key'],
  columns: [
    { name: 'run_id', type: 'VARCHAR', notNull: true, comment: C.run_id },
    { name: 'checked_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it was checked' },
    { name: 'search_type', type: 'VARCHAR', notNull: true, comment: C.search_type },
    { name: 'search_key', type: 'VARCHAR', notNull: true, comment: C.search_key },
    { name: 'document_line', type: 'INTEGER', comment: C.document_line },
    { name: 'tracking_id', type: 'VARCHAR', comment: 'the tracking record (NULL: none)' },
    { name: 'outcome', type: 'VARCHAR', notNull: true, comment: 'created, existing, conflict, failed, ...' },
    { name: 'error', type: 'VARCHAR', comment: 'why it failed, if it did' },
    {
      name: 'search_reason', type: 'VARCHAR',
      comment: 'why a trackings night also searched the document (new, paused_elsewhere, deleted, errored, stale, untracked), or read a tracked lawsuit at the lawsuit level (paused_elsewhere, errored, stale); NULL when it did not',
    },
    {
      name: 'kind', type: 'VARCHAR',
      comment: 'a trackings night: document (the tracking of a listed document, which announces the lawsuits born to it) or lawsuit (the tracking of a lawsuit kept whole, search_type lawsuit_cnj, which carries its movements); NULL for the track command',
    },
  ],
};

export const syncTables: readonly Table[] = [syncCounts, syncExists, syncGrouped, syncHistorical, trackings, trackingChecks];
