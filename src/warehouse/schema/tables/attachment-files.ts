import { C } from '../common.js';
import type { Table } from '../types.js';

// The attachments' files (docs/warehouse.md, "Attachments"): each file stored once, by its content, under
// LAWSUIT_ATTACHMENTS_DIR, and what each attachment's download came to. Two tables, since one file may be the
// bytes of several attachments (the same petition filed twice): attachment_files has a row per file (keys: its
// sha256, and the attachment that first brought it), attachment_downloads a row per attachment tried.

const attachmentFiles: Table = {
  name: 'attachment_files',
  comment: 'Attachment files stored, each once, by the sha256 of its bytes (the same bytes under two attachment ids are one file): where it is on disk, its size and the type read from its bytes. Keys: sha256, and (code, instance, attachment_id) of the attachment that first brought it.',
  key: ['sha256'],
  export: {},
  columns: [
    { name: 'sha256', type: 'VARCHAR', notNull: true, comment: 'sha256 of the file\'s bytes (hex): its name on disk' },
    { name: 'code', type: 'VARCHAR', notNull: true, comment: `${C.code}: of the attachment that first brought the file` },
    { name: 'instance', type: 'INTEGER', notNull: true, comment: C.instance },
    { name: 'attachment_id', type: 'VARCHAR', notNull: true, comment: 'the attachment that first brought the file (attachments.attachment_id); the others with the same bytes are in attachment_downloads' },
    { name: 'bytes', type: 'BIGINT', notNull: true, comment: 'size of the file in bytes' },
    { name: 'content_type', type: 'VARCHAR', comment: 'media type read from the file\'s first bytes (application/pdf, image/png, ...), not from what the provider said; application/octet-stream when unknown' },
    { name: 'path', type: 'VARCHAR', notNull: true, privacy: 'not personal', comment: 'where the file is: LAWSUIT_ATTACHMENTS_DIR as the run was configured, then ab/<sha256>.<extension> (its first two hex digits, then its whole sha256)' },
    { name: 'downloaded_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it was stored' },
    { name: 'run_id', type: 'VARCHAR', comment: C.run_id },
  ],
};

const attachmentDownloads: Table = {
  name: 'attachment_downloads',
  comment: 'What the download of each attachment came to: stored (its file in attachment_files), or why not yet (not ready, refused, too large, failed) and when it is asked for again: a backoff in days, never every night.',
  key: ['code', 'instance', 'attachment_id'],
  export: {},
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, comment: C.instance },
    { name: 'attachment_id', type: 'VARCHAR', notNull: true, comment: 'the attachment (attachments.attachment_id)' },
    { name: 'state', type: 'VARCHAR', notNull: true, comment: 'stored (its file is attachment_files.sha256), not_ready (its status is not done, or the provider answered 404), refused (403: a secret lawsuit without a credential), too_large (over LAWSUIT_ATTACHMENT_MAX_SIZE) or failed (the body came short, long or broken, after the retries)' },
    { name: 'sha256', type: 'VARCHAR', comment: 'its file (attachment_files.sha256) once stored; NULL before' },
    { name: 'bytes', type: 'BIGINT', comment: 'its size once stored, or as announced when it was too large' },
    { name: 'attempts', type: 'INTEGER', notNull: true, comment: 'tries in a row that did not store it (0 once stored): the backoff doubles with each' },
    { name: 'first_tried_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it was first tried' },
    { name: 'last_tried_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it was last tried' },
    { name: 'next_try_at', type: 'TIMESTAMPTZ', comment: 'when it is asked for again: 1, 2, 4, 8, 16, then every 30 days after the last try; NULL once stored (and while too large, until the limit is raised)' },
    { name: 'error_code', type: 'VARCHAR', comment: 'the error\'s constant code (ATTACHMENT_NOT_READY, API_SECRET_LAWSUIT, ATTACHMENT_TOO_LARGE, ATTACHMENT_SHORT_BODY, ...); NULL once stored' },
    { name: 'reason', type: 'VARCHAR', privacy: 'cpf text', comment: 'why it is not stored, in words; NULL once stored' },
    { name: 'run_id', type: 'VARCHAR', comment: 'the run that last tried it' },
  ],
};

export const attachmentFilesTables: readonly Table[] = [attachmentFiles, attachmentDownloads];
