// Schema of how responses are read (versions 50..59): the sweep across requests beside per-request reading,
// and one definition of "fully loaded" for both (src/warehouse/read-ledger.ts, src/pipeline/sweep/).

// A request is fully loaded when `loaded_at` is set: its completion was seen and every one of its responses
// is in the warehouse, whichever way they were read. Before version 50 that was page arithmetic
// (`pages_loaded >= all_pages_count`), which means nothing for a request read by the sweep; the backfill
// carries the old answer over, so an old warehouse plans its next night as it would have.
//
// Per-request reading keeps its place as an item offset (`items_loaded`: the leading responses of the
// request, in the provider's order, already loaded), not a page number, so that the page size can change
// between two pages (smaller pages for large items). `request_pages` is no longer written.
const readingLedger = `
ALTER TABLE requests ADD COLUMN loaded_at TIMESTAMPTZ;
ALTER TABLE requests ADD COLUMN strategy VARCHAR;
ALTER TABLE requests ADD COLUMN sweep_id VARCHAR;
ALTER TABLE requests ADD COLUMN items_total INTEGER;
UPDATE requests SET loaded_at = coalesce(completed_at, created_at, current_timestamp), strategy = 'per_request', items_total = items_loaded
WHERE status = 'completed' AND all_pages_count IS NOT NULL AND pages_loaded >= greatest(all_pages_count, 1);

CREATE TABLE response_sweeps (
  sweep_id VARCHAR PRIMARY KEY,
  run_id VARCHAR,
  started_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  status VARCHAR NOT NULL,
  reason VARCHAR,
  cursor_from TIMESTAMPTZ,
  cursor_page INTEGER NOT NULL,
  cursor_page_size INTEGER,
  cursor_seen JSON,
  cursor_last TIMESTAMPTZ,
  high_at TIMESTAMPTZ,
  pages INTEGER NOT NULL,
  items_read INTEGER NOT NULL,
  items_ours INTEGER NOT NULL,
  items_skipped INTEGER NOT NULL
);`;

// The analysts' view of each search's current answer, with the new definition (views.ts keeps the text
// migration 31 created; a released migration is never edited).
const activeLawsuitsView = `
CREATE OR REPLACE VIEW v_active_lawsuits_per_document AS
WITH latest AS (
  SELECT * FROM (
    SELECT request_id, search_type, search_key, coalesce(on_demand, false) AS on_demand, coalesce(completed_at, created_at) AS searched_at,
           row_number() OVER (PARTITION BY search_type, search_key ORDER BY coalesce(completed_at, created_at) DESC NULLS LAST, request_id DESC) AS rn
    FROM requests
    WHERE loaded_at IS NOT NULL AND search_key IS NOT NULL
  ) WHERE rn = 1
)
SELECT a.search_type, a.search_key, a.searched_at AS last_searched_at,
       count(DISTINCT (h.code, h.instance)) AS lawsuits_found,
       count(DISTINCT (h.code, h.instance)) FILTER (WHERE l.status = 'Ativo') AS active_lawsuits,
       coalesce(sum(l.amount) FILTER (WHERE l.status = 'Ativo'), 0)::DECIMAL(18,2) AS active_amount
FROM latest a
LEFT JOIN search_hits h ON h.request_id = a.request_id
LEFT JOIN lawsuits l ON l.code = h.code AND l.instance = h.instance
GROUP BY a.search_type, a.search_key, a.searched_at;`;

export const READING_MIGRATIONS = [
  { version: 50, name: 'responses read by a sweep or per request; loaded_at', sql: readingLedger },
  { version: 51, name: 'v_active_lawsuits_per_document on loaded_at', sql: activeLawsuitsView },
] as const;
