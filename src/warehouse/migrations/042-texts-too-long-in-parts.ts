import { createTable, dropNotNull, sql, type Migration } from './migration.js';

// Texts too long for a column (long-values.ts): the parts of a response item or of a lawsuit's raw, whose
// column is then NULL; the two views put them back together.
export const migration: Migration = {
  version: 42,
  name: 'texts too long for a column, in parts',
  changes: [
    createTable('raw_parts'),
    dropNotNull('responses_raw', 'item'),
    dropNotNull('lawsuits', 'raw'),
    sql(`
CREATE VIEW v_responses_raw AS
SELECT response_id, request_id, response_type, created_at, item, run_id, loaded_at FROM responses_raw WHERE item IS NOT NULL
UNION ALL
SELECT r.response_id, r.request_id, r.response_type, r.created_at, p.item::JSON, r.run_id, r.loaded_at
FROM responses_raw r
JOIN (SELECT response_id, string_agg(text, '' ORDER BY part) AS item FROM raw_parts WHERE owner = 'responses_raw.item' GROUP BY response_id) p
  ON p.response_id = r.response_id
WHERE r.item IS NULL;
CREATE VIEW v_lawsuit_raw AS
SELECT code, instance, raw FROM lawsuits WHERE raw IS NOT NULL
UNION ALL
SELECT code, instance, string_agg(text, '' ORDER BY part)::JSON FROM raw_parts WHERE owner = 'lawsuits.raw' GROUP BY code, instance;`),
  ],
};
