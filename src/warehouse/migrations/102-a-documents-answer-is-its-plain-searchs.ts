import { sql, type Migration } from './migration.js';

// v_active_lawsuits_per_document shows each document's latest complete answer. With filters in the documents list
// one document may be several searches (spec/search-identity.ts): the latest was whichever finished last, a
// filtered one's few lawsuits one night and the plain one's all of them the next. The answer shown is now the
// plain search's (asking nothing but its key, on_demand and instance), the latest of them; a document searched only
// with filters shows its latest filtered answer. 075-tracking-runs-read.ts keeps the text it replaces.
export const migration: Migration = {
  version: 102,
  name: 'a document\'s answer is its plain search\'s',
  changes: [sql(`
CREATE OR REPLACE VIEW v_active_lawsuits_per_document AS
WITH latest AS (
  SELECT * FROM (
    SELECT request_id, search_type, search_key, coalesce(completed_at, created_at) AS searched_at,
           row_number() OVER (PARTITION BY search_type, search_key ORDER BY
             (NOT coalesce(with_attachments, false) AND len(list_filter(coalesce(json_keys(search, '$.search_params'), []), k -> k <> 'lawsuit_instance')) = 0) DESC,
             coalesce(completed_at, created_at) DESC NULLS LAST, request_id DESC) AS rn
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
GROUP BY a.search_type, a.search_key, a.searched_at;`)],
};
