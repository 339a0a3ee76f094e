import { sql, type Migration } from './migration.js';

// The views for the questions analysts ask every day, as first released (051 replaced
// v_active_lawsuits_per_document). A view is never edited in place once released: a changed view is a new
// migration with CREATE OR REPLACE VIEW (replacing a view drops its comments; publish applies them again).

/** A search's current answer: its newest request with every page loaded. Shared by the views below. */
const LATEST_ANSWERS = `
SELECT * FROM (
  SELECT request_id, search_type, search_key, coalesce(on_demand, false) AS on_demand, coalesce(completed_at, created_at) AS searched_at,
         row_number() OVER (PARTITION BY search_type, search_key ORDER BY coalesce(completed_at, created_at) DESC NULLS LAST, request_id DESC) AS rn
  FROM requests
  WHERE status = 'completed' AND all_pages_count IS NOT NULL AND pages_loaded >= all_pages_count AND search_key IS NOT NULL
) WHERE rn = 1`;

export const migration: Migration = {
  version: 31,
  name: 'analysts views',
  changes: [sql(`
CREATE VIEW v_active_lawsuits_per_document AS
WITH latest AS (${LATEST_ANSWERS})
SELECT a.search_type, a.search_key, a.searched_at AS last_searched_at,
       count(DISTINCT (h.code, h.instance)) AS lawsuits_found,
       count(DISTINCT (h.code, h.instance)) FILTER (WHERE l.status = 'Ativo') AS active_lawsuits,
       coalesce(sum(l.amount) FILTER (WHERE l.status = 'Ativo'), 0)::DECIMAL(18,2) AS active_amount
FROM latest a
LEFT JOIN search_hits h ON h.request_id = a.request_id
LEFT JOIN lawsuits l ON l.code = h.code AND l.instance = h.instance
GROUP BY a.search_type, a.search_key, a.searched_at;

CREATE VIEW v_amount_per_party_tribunal AS
WITH party_lawsuits AS (
  SELECT DISTINCT coalesce(nullif(trim(p.document), ''), 'name:' || upper(strip_accents(trim(p.name)))) AS party_key,
         p.code, p.instance
  FROM parties p WHERE p.document IS NOT NULL OR p.name IS NOT NULL
), party_names AS (
  SELECT coalesce(nullif(trim(document), ''), 'name:' || upper(strip_accents(trim(name)))) AS party_key,
         min(name) AS name, min(nullif(trim(document), '')) AS document, min(document_type) AS document_type
  FROM parties WHERE document IS NOT NULL OR name IS NOT NULL GROUP BY 1
)
SELECT n.document, n.document_type, n.name, l.tribunal_acronym,
       count(*) AS lawsuits,
       count(*) FILTER (WHERE l.status = 'Ativo') AS active_lawsuits,
       coalesce(sum(l.amount), 0)::DECIMAL(18,2) AS total_amount
FROM party_lawsuits pl
JOIN party_names n USING (party_key)
JOIN lawsuits l ON l.code = pl.code AND l.instance = pl.instance
GROUP BY n.document, n.document_type, n.name, l.tribunal_acronym;

CREATE VIEW v_latest_step AS
SELECT l.code, l.instance, l.tribunal_acronym, l.status, l.phase,
       s.step_id AS latest_step_id, s.step_date AS latest_step_date, s.content AS latest_step_content,
       count(*) OVER (PARTITION BY s.code, s.instance) AS steps_count
FROM lawsuits l
JOIN steps s ON s.code = l.code AND s.instance = l.instance
QUALIFY row_number() OVER (PARTITION BY s.code, s.instance ORDER BY s.step_date DESC NULLS LAST, s.step_id DESC) = 1;

CREATE VIEW v_lawsuits_per_phase AS
SELECT coalesce(phase, '(unknown)') AS phase, coalesce(status, '(unknown)') AS status,
       count(*) AS lawsuits, coalesce(sum(amount), 0)::DECIMAL(18,2) AS total_amount
FROM lawsuits
GROUP BY ALL;

CREATE VIEW v_status_history AS
SELECT h.code, h.instance, l.tribunal_acronym, l.name, h.valid_from,
       lead(h.valid_from) OVER (PARTITION BY h.code, h.instance ORDER BY h.valid_from, h.run_id) AS valid_to,
       h.status, h.phase, h.previous_status, h.previous_phase, h.run_id
FROM lawsuit_status_history h
LEFT JOIN lawsuits l ON l.code = h.code AND l.instance = h.instance;

CREATE VIEW v_changes_tonight AS
SELECT c.run_id, c.detected_at, c.code, c.instance, l.tribunal_acronym, c.change, c.detail, c.old_value, c.new_value,
       c.search_type, c.search_key
FROM lawsuit_changes c
LEFT JOIN lawsuits l ON l.code = c.code AND l.instance = c.instance
WHERE c.run_id = (SELECT run_id FROM change_detections ORDER BY detected_at DESC, run_id DESC LIMIT 1);
`)],
};
