import { sql, type Migration } from './migration.js';

export const migration: Migration = {
  version: 22,
  name: 'synchronous and tracking history views',
  changes: [sql(`
CREATE VIEW v_sync_count_history AS
SELECT run_id, queried_at, search_type, search_key, total,
       lag(total) OVER w1 AS previous_total,
       total - lag(total) OVER w1 AS change
FROM sync_counts
WINDOW w1 AS (PARTITION BY search_type, search_key ORDER BY queried_at, run_id);

CREATE VIEW v_sync_exists_history AS
SELECT run_id, queried_at, search_type, search_key, has_lawsuits, request_id,
       lag(has_lawsuits) OVER w2 AS previous_has_lawsuits,
       has_lawsuits IS DISTINCT FROM lag(has_lawsuits) OVER w2 AND lag(has_lawsuits) OVER w2 IS NOT NULL AS changed
FROM sync_exists
WINDOW w2 AS (PARTITION BY search_type, search_key ORDER BY queried_at, run_id);

CREATE VIEW v_sync_grouped_history AS
SELECT run_id, queried_at, search_type, search_key, dimension, value, count,
       lag(count) OVER w3 AS previous_count,
       count - lag(count) OVER w3 AS change
FROM sync_grouped
WINDOW w3 AS (PARTITION BY search_type, search_key, dimension, value ORDER BY queried_at, run_id);

CREATE VIEW v_sync_historical_history AS
SELECT run_id, queried_at, search_type, search_key, lawsuits,
       lag(lawsuits) OVER w4 AS previous_lawsuits,
       lawsuits - lag(lawsuits) OVER w4 AS change
FROM sync_historical
WINDOW w4 AS (PARTITION BY search_type, search_key ORDER BY queried_at, run_id);

-- A party's count per calendar night (UTC): the last answer of each day, and its change from the day before.
CREATE VIEW v_sync_count_daily AS
WITH last_of_day AS (
  SELECT search_type, search_key, CAST(timezone('UTC', queried_at) AS DATE) AS night, total, queried_at,
         row_number() OVER (PARTITION BY search_type, search_key, CAST(timezone('UTC', queried_at) AS DATE) ORDER BY queried_at DESC, run_id DESC) AS rn
  FROM sync_counts
)
SELECT search_type, search_key, night, total,
       lag(total) OVER w5 AS previous_total,
       total - lag(total) OVER w5 AS change
FROM last_of_day WHERE rn = 1
WINDOW w5 AS (PARTITION BY search_type, search_key ORDER BY night);

-- Each document's latest tracking check, with the tracking's status as last listed.
CREATE VIEW v_tracking_status AS
WITH latest AS (
  SELECT *, row_number() OVER (PARTITION BY search_type, search_key ORDER BY checked_at DESC, run_id DESC) AS rn
  FROM tracking_checks
)
SELECT l.search_type, l.search_key, l.document_line, l.run_id, l.checked_at, l.outcome, l.error,
       l.tracking_id, t.status, t.recurrence, t.created_at, t.updated_at AS status_since,
       l.tracking_id IS NOT NULL AS tracked
FROM latest l LEFT JOIN trackings t ON t.tracking_id = l.tracking_id
WHERE l.rn = 1;
`)],
};
