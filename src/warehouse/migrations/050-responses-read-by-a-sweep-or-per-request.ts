import { addColumns, createTable, sql, type Migration } from './migration.js';

// How responses are read: the sweep across requests beside per-request reading, and one definition of "fully
// loaded" for both (src/warehouse/read-ledger.ts, src/pipeline/sweep/).
//
// A request is fully loaded when `loaded_at` is set: its completion was seen and every one of its responses
// is in the warehouse, whichever way they were read. Before version 50 that was page arithmetic
// (`pages_loaded >= all_pages_count`), which means nothing for a request read by the sweep; the backfill
// carries the old answer over, so an old warehouse plans its next night as it would have.
//
// Per-request reading keeps its place as an item offset (`items_loaded`: the leading responses of the
// request, in the provider's order, already loaded), not a page number, so that the page size can change
// between two pages (smaller pages for large items). `request_pages` is no longer written.
export const migration: Migration = {
  version: 50,
  name: 'responses read by a sweep or per request; loaded_at',
  changes: [
    addColumns('requests', ['loaded_at', 'strategy', 'sweep_id', 'items_total']),
    sql(`UPDATE requests SET loaded_at = coalesce(completed_at, created_at, current_timestamp), strategy = 'per_request', items_total = items_loaded
WHERE status = 'completed' AND all_pages_count IS NOT NULL AND pages_loaded >= greatest(all_pages_count, 1)`),
    createTable('response_sweeps'),
  ],
};
