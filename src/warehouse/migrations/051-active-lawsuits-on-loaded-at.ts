import { sql, type Migration } from './migration.js';

// The analysts' view of each search's current answer, with the new definition (031-analysts-views.ts keeps the
// text migration 31 created; a released migration is never edited).
export const migration: Migration = {
  version: 51,
  name: 'v_active_lawsuits_per_document on loaded_at',
  changes: [sql(`
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
GROUP BY a.search_type, a.search_key, a.searched_at;`)],
};
