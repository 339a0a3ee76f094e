import { addColumns, createTable, sql, type Migration } from './migration.js';

// Two levels (issue 32; docs/two-levels.md): a search by document answers lawsuit headers (no steps, phase or
// status; only last_step says how far the lawsuit has gone), a lawsuit_cnj search the whole lawsuit. What level
// each lawsuit is known at is read from the data: the lawsuits' new columns say how far the newest header and the
// newest whole payload go, the ledger which lawsuit-level reads found the lawsuit or not, and v_lawsuit_levels
// puts them together for the night's plan (src/pipeline/lawsuits/) and for analysts.

/**
 * Each lawsuit's level and since when, with the facts the night's plan of lawsuit-level reads needs. A read is a
 * lawsuit_cnj request fully loaded (whoever bought it: the night, or a CNJ number of the documents list), joined by
 * the number's digits; it found an instance when it hit it (search_hits), and else says why not (its
 * application_error, or that it did not return that instance). A refusal of the read itself (403) counts as a
 * read that found nothing. After `failures` reads in a row found nothing, the next is due 2^(failures-1) days
 * after the last, at most 30: a secret or vanished lawsuit is asked for on a backoff in days, not every night.
 */
const LAWSUIT_LEVELS_VIEW = `
CREATE OR REPLACE VIEW v_lawsuit_levels AS
WITH reads AS (
  SELECT q.request_id, regexp_replace(q.search_key, '[^0-9]', '', 'g') AS digits,
         coalesce(q.completed_at, q.created_at) AS read_at, q.basis
  FROM requests q
  WHERE q.search_type = 'lawsuit_cnj' AND q.loaded_at IS NOT NULL AND coalesce(q.status, '') NOT IN ('cancelled', 'failed')
),
app_errors AS (
  SELECT request_id, min(coalesce(json_extract_string(item, '$.response_data.message'), 'application_error')) AS reason
  FROM responses_raw WHERE response_type = 'application_error' GROUP BY request_id
),
attempts AS (
  SELECT l.code, l.instance, r.read_at, h.request_id IS NOT NULL AS found,
         CASE WHEN h.request_id IS NULL THEN coalesce(e.reason, 'its lawsuit-level read did not return this instance') END AS reason,
         json_extract_string(r.basis, '$."' || l.instance::VARCHAR || '".step_id') AS basis_step_id,
         TRY_CAST(json_extract(r.basis, '$."' || l.instance::VARCHAR || '".steps_count') AS INTEGER) AS basis_steps_count
  FROM lawsuits l
  JOIN reads r ON r.digits = regexp_replace(l.code, '[^0-9]', '', 'g')
  LEFT JOIN search_hits h ON h.request_id = r.request_id AND h.code = l.code AND h.instance = l.instance
  LEFT JOIN app_errors e ON e.request_id = r.request_id
  UNION ALL
  SELECT l.code, l.instance, f.refused_at, false, 'refused: ' || coalesce(f.reason, f.error_code, '403'), NULL, NULL
  FROM lawsuits l JOIN lawsuit_read_refusals f ON f.code = l.code
),
found AS (
  SELECT code, instance, max(read_at) AS last_found_at, arg_max(basis_step_id, read_at) AS basis_step_id,
         arg_max(basis_steps_count, read_at) AS basis_steps_count
  FROM attempts WHERE found GROUP BY ALL
),
failed AS (
  SELECT a.code, a.instance, count(*)::INTEGER AS failures, min(a.read_at) AS first_failed_at, max(a.read_at) AS last_failed_at,
         arg_max(a.reason, a.read_at) AS reason
  FROM attempts a LEFT JOIN found f USING (code, instance)
  WHERE NOT a.found AND a.read_at > coalesce(f.last_found_at, '-infinity'::TIMESTAMPTZ)
  GROUP BY ALL
),
facts AS (
  SELECT l.code, l.instance, l.status, l.phase, l.last_step_id, l.steps_count, l.whole_step_id, l.whole_steps_count, l.whole_at,
         coalesce(l.whole_seen, false) AS whole_seen, l.crawled_at,
         coalesce(l.whole_seen, false) AND l.whole_step_id IS NOT DISTINCT FROM l.last_step_id
           AND l.whole_steps_count IS NOT DISTINCT FROM l.steps_count AS agrees,
         f.last_found_at, coalesce(x.failures, 0) AS failures, x.first_failed_at, x.last_failed_at, x.reason AS failure,
         f.last_found_at IS NOT NULL AND f.basis_step_id IS NOT DISTINCT FROM l.last_step_id
           AND f.basis_steps_count IS NOT DISTINCT FROM l.steps_count AS read_for_header,
         r.started_at AS first_seen_at
  FROM lawsuits l
  LEFT JOIN found f USING (code, instance)
  LEFT JOIN failed x USING (code, instance)
  LEFT JOIN runs r ON r.run_id = l.first_seen_run
)
SELECT code, instance,
  CASE WHEN agrees THEN 'whole' WHEN failures > 0 THEN 'unavailable' WHEN whole_seen THEN 'stale' ELSE 'header' END AS level,
  CASE WHEN agrees THEN whole_at WHEN failures > 0 THEN first_failed_at WHEN whole_seen THEN crawled_at ELSE first_seen_at END AS since,
  CASE
    WHEN agrees THEN NULL
    WHEN failures > 0 THEN failure
    WHEN whole_seen AND read_for_header THEN 'its lawsuit-level answer lags its header: read again once the header moves'
    WHEN whole_seen THEN 'its header moved past what is held (last step ' || coalesce(last_step_id, '?') || ', ' || coalesce(steps_count::VARCHAR, '?')
      || ' steps; held ' || coalesce(whole_step_id, '?') || ', ' || coalesce(whole_steps_count::VARCHAR, '?') || ')'
    ELSE 'known by its header only'
  END AS reason,
  status, phase, last_step_id, steps_count, whole_step_id, whole_steps_count, whole_at, last_found_at,
  failures, last_failed_at,
  CASE WHEN failures > 0 THEN last_failed_at + to_days(least(30, 2 ** (failures - 1))::INTEGER) END AS next_read_at,
  read_for_header
FROM facts`;

export const migration: Migration = {
  version: 90,
  name: 'two levels',
  changes: [
    addColumns('lawsuits', ['last_step_id', 'whole_step_id', 'whole_steps_count', 'whole_at', 'whole_seen']),
    addColumns('requests', ['basis']),
    addColumns('submissions', ['basis']),
    addColumns('response_sweeps', ['wave']),
    createTable('lawsuit_read_refusals'),
    // Lawsuits loaded before this version came from payloads read as whole (one level): those with steps, or a
    // phase and status, are taken as whole as they stand; `lawsuit-etl rebuild` derives the columns exactly.
    sql(`UPDATE lawsuits SET
  last_step_id = coalesce(json_extract_string(raw, '$.last_step.step_id'), (SELECT arg_max(s.step_id, s.step_date) FROM steps s WHERE s.code = lawsuits.code AND s.instance = lawsuits.instance)),
  steps_count = coalesce(steps_count, (SELECT count(*) FROM steps s WHERE s.code = lawsuits.code AND s.instance = lawsuits.instance)::INTEGER)
WHERE last_step_id IS NULL;`),
    sql(`UPDATE lawsuits SET whole_seen = true, whole_step_id = last_step_id, whole_steps_count = steps_count, whole_at = crawled_at
WHERE (phase IS NOT NULL AND status IS NOT NULL) OR EXISTS (SELECT 1 FROM steps s WHERE s.code = lawsuits.code AND s.instance = lawsuits.instance);`),
    sql(LAWSUIT_LEVELS_VIEW),
  ],
};
