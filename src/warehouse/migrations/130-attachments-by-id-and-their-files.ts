import type { Table } from '../schema/types.js';
import { createTable, recreateTable, sql, type Migration } from './migration.js';

// Attachments keyed by the provider's attachment_id instead of their place in the list (issue 36; docs/warehouse.md,
// "Attachments"), with what each holds (step_id, name, extension, status, date), and the tables of their files:
// attachment_files (each file once, by its sha256) and attachment_downloads (what each attachment's download came
// to, and when it is asked for again), and a view of each lawsuit's attachments with their local paths, for analysts.

/** The attachments table as migration 1 made it (by list position): the history needs it, the declaration moved on. */
const BY_POSITION: Table = {
  name: 'attachments',
  comment: 'Attachments (documents filed) of each lawsuit.',
  key: ['code', 'instance', 'attachment_index'], keptByLoader: true,
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, comment: '' },
    { name: 'instance', type: 'INTEGER', notNull: true, comment: '' },
    { name: 'attachment_index', type: 'INTEGER', notNull: true, comment: '' },
    { name: 'attachment_date', type: 'TIMESTAMPTZ', comment: '' },
    { name: 'attachment_name', type: 'VARCHAR', comment: '' },
    { name: 'raw', type: 'JSON', comment: '' },
  ],
};

/** A scalar of the attachment's raw as flatten.ts reads it (str): a text as it is, a number as its text; else NULL. */
const scalar = (path: string): string =>
  `CASE WHEN json_type(raw, '${path}') IN ('VARCHAR', 'BIGINT', 'UBIGINT', 'DOUBLE') THEN json_extract_string(raw, '${path}') END`;

/**
 * Each row keyed by its attachment_id, read from its raw as flatten.ts reads it today, so that `rebuild` gives the
 * same rows: the id given (a text not empty, or a whole number), else h_<sha256 of date, unit separator, name>
 * (derivedAttachmentId). Of one id twice in a lawsuit's list, the later entry wins, as flatten keeps it. A row whose
 * raw was too long to keep (NULL) keeps the date and name it had.
 */
const byId = (old: string): string => `
INSERT INTO attachments (code, instance, attachment_id, attachment_id_derived, step_id, name, extension, status, attachment_date, raw)
WITH read AS (
  SELECT code, instance, attachment_index, raw,
    CASE WHEN json_type(raw, '$.attachment_id') = 'VARCHAR' AND json_extract_string(raw, '$.attachment_id') <> '' THEN json_extract_string(raw, '$.attachment_id')
         WHEN json_type(raw, '$.attachment_id') IN ('BIGINT', 'UBIGINT') THEN json_extract_string(raw, '$.attachment_id') END AS given,
    CASE WHEN raw IS NULL THEN strftime(attachment_date AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') ELSE coalesce(${scalar('$.attachment_date')}, ${scalar('$.date')}) END AS date_text,
    CASE WHEN raw IS NULL THEN attachment_name ELSE coalesce(${scalar('$.attachment_name')}, ${scalar('$.name')}) END AS name,
    ${scalar('$.step_id')} AS step_id, ${scalar('$.extension')} AS extension, ${scalar('$.status')} AS status
  FROM ${old}
),
keyed AS (
  SELECT *, coalesce(given, 'h_' || left(sha256(coalesce(date_text, '') || chr(31) || coalesce(name, '')), 32)) AS attachment_id
  FROM read
)
SELECT code, instance, attachment_id, given IS NULL, step_id, name, extension, status, TRY_CAST(date_text AS TIMESTAMPTZ), raw
FROM keyed
QUALIFY row_number() OVER (PARTITION BY code, instance, attachment_id ORDER BY attachment_index DESC) = 1`;

/** Each lawsuit's attachments with where their files are on disk, for analysts (docs/warehouse.md). */
const LAWSUIT_ATTACHMENTS_VIEW = `
CREATE OR REPLACE VIEW v_lawsuit_attachments AS
SELECT a.code, a.instance, l.tribunal_acronym, a.attachment_id, a.step_id, a.name, a.extension, a.status, a.attachment_date,
  coalesce(d.state, CASE WHEN a.attachment_id_derived THEN 'no_id' ELSE 'not_tried' END) AS download_state,
  f.sha256, f.bytes, f.content_type, f.path, f.downloaded_at, d.reason, d.next_try_at
FROM attachments a
LEFT JOIN lawsuits l USING (code, instance)
LEFT JOIN attachment_downloads d USING (code, instance, attachment_id)
LEFT JOIN attachment_files f ON f.sha256 = d.sha256`;

export const migration: Migration = {
  version: 130,
  name: 'attachments by their id, and their files',
  changes: [
    recreateTable('attachments', BY_POSITION, byId),
    createTable('attachment_files'),
    // The second key of attachment_files (CONTRACT.md): the attachment that first brought a file brought one file.
    sql('CREATE UNIQUE INDEX attachment_files_attachment ON attachment_files (code, instance, attachment_id)'),
    createTable('attachment_downloads'),
    sql(LAWSUIT_ATTACHMENTS_VIEW),
  ],
};
