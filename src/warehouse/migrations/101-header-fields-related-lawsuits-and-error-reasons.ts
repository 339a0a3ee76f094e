import { addColumns, createTable, sql, type Migration } from './migration.js';

// The lawsuit header's documented judge and situation get columns of their own (county and city had them), its
// related_lawsuits a table, and each application_error item a row with a typed reason. A stored lawsuit's judge
// and situation are read from its raw, which is its newest payload's: what the merge keeps when that payload
// carried them. `lawsuit-etl rebuild` derives the exact rows from responses_raw, older payloads, related lawsuits
// and the application errors of earlier nights included (a raw kept in raw_parts is left to it as well).
const text = (field: string): string =>
  `CASE WHEN json_type(raw, '$.${field}') IN ('VARCHAR', 'BIGINT', 'UBIGINT', 'DOUBLE') THEN json_extract_string(raw, '$.${field}') END`;

export const migration: Migration = {
  version: 101,
  name: 'judge, situation, related lawsuits and the reason of an application error',
  changes: [
    addColumns('lawsuits', ['judge', 'situation', 'has_related_lawsuits']),
    createTable('related_lawsuits'),
    createTable('application_errors'),
    sql(`UPDATE lawsuits SET judge = ${text('judge')}, situation = ${text('situation')}
WHERE raw IS NOT NULL AND (json_exists(raw, '$.judge') OR json_exists(raw, '$.situation'));`),
  ],
};
