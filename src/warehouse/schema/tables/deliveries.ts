import { C } from '../common.js';
import type { Table } from '../types.js';

// What the night read of the webhook intake's spool (src/intake/, docs/operating.md "The webhook intake"): how far
// each segment was read, and the deliveries of requests the warehouse did not know yet, kept by their place in
// the spool until it does. Written in the same transaction as the responses they cover (the page sink's), so that a
// night killed anywhere reads the spool on from where its last commit left it, and loads nothing twice.

const spoolSegments: Table = {
  name: 'spool_segments',
  comment: 'Segments of the webhook intake\'s spool a night read: how far (bytes of whole lines), and what their deliveries became. A segment read to the end of its closed file is deleted after the publish that contains it.',
  key: ['segment_id'],
  columns: [
    { name: 'segment_id', type: 'VARCHAR', notNull: true, comment: 'the segment (its file is <segment_id>.open while written, <segment_id>.ndjson once closed)' },
    { name: 'bytes_read', type: 'BIGINT', notNull: true, comment: 'bytes read from its start: every delivery before this offset is loaded or parked' },
    { name: 'closed', type: 'BOOLEAN', notNull: true, comment: 'it was closed when last read (it never grows again)' },
    { name: 'deliveries', type: 'INTEGER', notNull: true, comment: 'deliveries read from it' },
    { name: 'loaded', type: 'INTEGER', notNull: true, comment: 'of those, loaded (their request or tracking run was ours)' },
    { name: 'parked', type: 'INTEGER', notNull: true, comment: 'of those, parked (deliveries_parked): their request was not known yet' },
    { name: 'run_id', type: 'VARCHAR', comment: 'the run that last read it' },
    { name: 'read_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it was last read' },
  ],
};

const deliveriesParked: Table = {
  name: 'deliveries_parked',
  comment: 'Deliveries of the webhook intake whose request was not known when read (its submission not answered yet, a tracking run read by trackings nights only, another system on the account): kept by their place in the spool, whose segment is not deleted while one is here; loaded once their request is known, forgotten after 30 days.',
  key: ['response_id'],
  columns: [
    { name: 'response_id', type: 'VARCHAR', notNull: true, comment: 'the provider\'s response item id' },
    { name: 'request_id', type: 'VARCHAR', notNull: true, comment: C.request_id },
    { name: 'reference_type', type: 'VARCHAR', notNull: true, comment: 'request, or tracking (a run of a tracking)' },
    { name: 'reference_id', type: 'VARCHAR', notNull: true, comment: 'the request\'s id, or the tracking\'s' },
    { name: 'segment_id', type: 'VARCHAR', notNull: true, comment: 'the spool segment holding it (spool_segments.segment_id)' },
    { name: 'line_from', type: 'BIGINT', notNull: true, comment: 'offset of its line in the segment, in bytes' },
    { name: 'line_to', type: 'BIGINT', notNull: true, comment: 'offset just past its line' },
    { name: 'received_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when the intake accepted it' },
    { name: 'parked_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when a night parked it' },
  ],
};

export const deliveriesTables: readonly Table[] = [spoolSegments, deliveriesParked];
