import { addColumns, createTable, sql, type Migration } from './migration.js';

// A document's lawsuits are the union of what its latest search and its trackings' runs found: a run sends only
// what changed since the run before it, so it adds lawsuits and never removes one.
const ACTIVE_PER_DOCUMENT = `
CREATE OR REPLACE VIEW v_active_lawsuits_per_document AS
WITH latest AS (
  SELECT * FROM (
    SELECT request_id, search_type, search_key, coalesce(completed_at, created_at) AS searched_at,
           row_number() OVER (PARTITION BY search_type, search_key ORDER BY coalesce(completed_at, created_at) DESC NULLS LAST, request_id DESC) AS rn
    FROM requests
    WHERE loaded_at IS NOT NULL AND search_key IS NOT NULL
  ) WHERE rn = 1
),
found AS (
  SELECT a.search_type, a.search_key, h.code, h.instance FROM latest a JOIN search_hits h ON h.request_id = a.request_id
  UNION
  SELECT a.search_type, a.search_key, h.code, h.instance FROM latest a
  JOIN tracking_runs t ON t.search_type = a.search_type AND t.search_key = a.search_key
  JOIN search_hits h ON h.request_id = t.request_id
)
SELECT a.search_type, a.search_key, a.searched_at AS last_searched_at,
       count(f.code) AS lawsuits_found,
       count(f.code) FILTER (WHERE l.status = 'Ativo') AS active_lawsuits,
       coalesce(sum(l.amount) FILTER (WHERE l.status = 'Ativo'), 0)::DECIMAL(18,2) AS active_amount
FROM latest a
LEFT JOIN found f ON f.search_type = a.search_type AND f.search_key = a.search_key
LEFT JOIN lawsuits l ON l.code = f.code AND l.instance = f.instance
GROUP BY a.search_type, a.search_key, a.searched_at;`;

// A trackings night reads its trackings' runs instead of buying a search per document (issue 23): the ledger of
// the runs read and the cursor of each night's reading (schema/tables/tracking-runs.ts), and the night's figures on its `runs` row.
export const migration: Migration = {
  version: 75,
  name: 'tracking runs read',
  changes: [
    createTable('tracking_runs'), createTable('tracking_reads'),
    sql(ACTIVE_PER_DOCUMENT),
    addColumns('runs', ['source', 'trackings_created', 'trackings_paused', 'trackings_resumed', 'tracking_runs_read', 'tracking_responses']),
  ],
};
