import { C } from '../common.js';
import type { Table } from '../types.js';

// What a trackings night read of its trackings' runs (src/pipeline/tracking/): each run once, with the document
// it answers, and the reading's cursor, written in the same transaction as the responses they cover (the page
// sink's), so that a kill anywhere resumes the reading without reading or loading anything twice.

const trackingRuns: Table = {
  name: 'tracking_runs',
  comment: 'Runs of our trackings whose responses a trackings night read (a run is a request of origin tracking): which document each answers and what was loaded.',
  key: ['request_id'],
  export: {},
  columns: [
    { name: 'request_id', type: 'VARCHAR', notNull: true, comment: 'the run\'s request (responses_raw.request_id, search_hits.request_id)' },
    { name: 'tracking_id', type: 'VARCHAR', notNull: true, comment: 'the tracking it is a run of (the responses\' origin_id; trackings.tracking_id)' },
    { name: 'search_type', type: 'VARCHAR', comment: C.search_type },
    { name: 'search_key', type: 'VARCHAR', privacy: 'search key', comment: `${C.search_key}: the document the tracking follows` },
    { name: 'responses_loaded', type: 'INTEGER', notNull: true, default: '0', comment: 'its responses loaded so far (a run sends only what changed since the run before it)' },
    { name: 'read_id', type: 'VARCHAR', comment: 'the reading that first met it (tracking_reads.read_id)' },
    { name: 'run_id', type: 'VARCHAR', comment: 'the run of this tool that first read it' },
    { name: 'first_read_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when its first response was loaded' },
    { name: 'last_read_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when its latest response was loaded' },
  ],
};

const trackingReads: Table = {
  name: 'tracking_reads',
  comment: 'Each trackings night\'s reading of the responses listing across requests for its trackings\' runs: where it started (the watermark), how far it may read, and its cursor.',
  key: ['read_id'],
  columns: [
    { name: 'read_id', type: 'VARCHAR', notNull: true, comment: 'reading identifier (the run that started it)' },
    { name: 'run_id', type: 'VARCHAR', comment: 'the run that started it (a killed run\'s reading is carried on by the next)' },
    { name: 'started_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it started' },
    { name: 'updated_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when its cursor last moved' },
    { name: 'status', type: 'VARCHAR', notNull: true, comment: 'active (reading, or killed: the next night carries it on) or done' },
    { name: 'watermark_at', type: 'TIMESTAMPTZ', comment: 'where it started: everything created before was read by the readings before it (provider clock)' },
    { name: 'until_at', type: 'TIMESTAMPTZ', comment: 'how far it may read: just before the oldest run of a tracking still running (NULL: none was running, to the newest response)' },
    { name: 'cursor_from', type: 'TIMESTAMPTZ', comment: 'the anchor: it asks for responses created at or after it (inclusive)' },
    { name: 'cursor_page', type: 'INTEGER', notNull: true, comment: 'next page at the anchor' },
    { name: 'cursor_page_size', type: 'INTEGER', comment: 'page size of the pages read at the anchor' },
    { name: 'cursor_seen', type: 'JSON', comment: 'response ids read at the end of the cursor, skipped when read again (JSON list)' },
    { name: 'cursor_last', type: 'TIMESTAMPTZ', comment: 'created_at of the last response read: every response created before it was read' },
    { name: 'high_at', type: 'TIMESTAMPTZ', comment: 'newest created_at read' },
    { name: 'pages', type: 'INTEGER', notNull: true, comment: 'listing pages read' },
    { name: 'items_read', type: 'INTEGER', notNull: true, comment: 'responses listed' },
    { name: 'items_ours', type: 'INTEGER', notNull: true, comment: 'responses of our trackings\' runs, loaded' },
    { name: 'items_skipped', type: 'INTEGER', notNull: true, comment: 'responses of other requests (our searches, another client\'s requests or trackings on the key), skipped' },
  ],
};

export const trackingRunsTables: readonly Table[] = [trackingRuns, trackingReads];
