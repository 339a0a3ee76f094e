import type { Warehouse } from './warehouse.js';

// What the attachments' downloads came to (attachment_downloads) and the files stored (attachment_files), as the
// attachments stage reads and records them (docs/warehouse.md, "Attachments"). Each outcome is written in its own
// short transaction the moment it is known, so that a night killed in the middle of its downloads keeps every file
// it stored, and the next night asks only for the rest.

/** An attachment whose file is due tonight. */
export interface DueAttachment { code: string; instance: number; attachment_id: string; extension: string | null; attempts: number }

/** A file stored in the content-addressed folder. */
interface StoredFileRow { sha256: string; bytes: number; content_type: string; path: string }

/** Why an attachment's file is not stored (yet). */
export interface NotStored {
  state: 'not_ready' | 'refused' | 'too_large' | 'failed';
  error_code: string;
  reason: string;
  /** too_large: its size as announced, or how far it came before the limit cut it. */
  bytes?: number;
}

/**
 * The next try after `attempts` tries in a row that stored nothing: 1, 2, 4, 8, 16 days, then every 30. A file not
 * ready is asked for again on a later night, never every night (the provider bills nothing per file, but each
 * is a call under the key's rate limit).
 */
const NEXT_TRY = (attempts: string) => `$now::TIMESTAMPTZ + to_days(least(30, pow(2, least(${attempts}, 6) - 1)::INTEGER))`;

/**
 * The attachments to ask for tonight: the provider's id known (a derived id names no file), and never stored; new
 * ones listed `done` (or with no status), tries that did not store on their backoff, a file listed pending that a
 * newer read lists done, and a file too large for a limit that has since grown past it.
 */
export async function dueAttachments(wh: Warehouse, now: Date, maxBytes: number): Promise<DueAttachment[]> {
  return wh.all<DueAttachment>(`SELECT a.code, a.instance, a.attachment_id, a.extension, coalesce(d.attempts, 0)::INTEGER AS attempts
    FROM attachments a LEFT JOIN attachment_downloads d USING (code, instance, attachment_id)
    WHERE NOT a.attachment_id_derived AND (
      (d.state IS NULL AND coalesce(a.status, 'done') = 'done')
      OR (d.state IN ('not_ready', 'refused', 'failed') AND (d.next_try_at <= $1::TIMESTAMPTZ OR (d.error_code = 'ATTACHMENT_PENDING' AND a.status = 'done')))
      OR (d.state = 'too_large' AND coalesce(d.bytes, 0) <= $2))
    ORDER BY a.code, a.instance, a.attachment_id`, [now.toISOString(), maxBytes]);
}

/**
 * Records, without asking for them, the attachments the provider lists as not ready (a status other than done)
 * that were never tried: not ready, asked for again on the backoff. Returns how many.
 */
export async function recordListedPending(wh: Warehouse, now: Date, runId: string): Promise<number> {
  return wh.run(`INSERT INTO attachment_downloads (code, instance, attachment_id, state, attempts, first_tried_at, last_tried_at, next_try_at, error_code, reason, run_id)
    SELECT a.code, a.instance, a.attachment_id, 'not_ready', 1, $now::TIMESTAMPTZ, $now::TIMESTAMPTZ, ${NEXT_TRY('1')}, 'ATTACHMENT_PENDING',
      'the provider lists it as ' || a.status || ', not done: asked for again on a later night', $run
    FROM attachments a ANTI JOIN attachment_downloads d USING (code, instance, attachment_id)
    WHERE NOT a.attachment_id_derived AND a.status IS NOT NULL AND a.status <> 'done'`.replaceAll('$now', '$1').replaceAll('$run', '$2'), [now.toISOString(), runId]);
}

/** The file is stored: its row in attachment_files once (the same bytes under another id are the same row), the attachment's download done. */
export async function recordStored(wh: Warehouse, a: DueAttachment, f: StoredFileRow, now: Date, runId: string): Promise<void> {
  await wh.transaction(async () => {
    await wh.run(`INSERT INTO attachment_files (sha256, code, instance, attachment_id, bytes, content_type, path, downloaded_at, run_id)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8::TIMESTAMPTZ, $9) ON CONFLICT DO NOTHING`,
    [f.sha256, a.code, a.instance, a.attachment_id, f.bytes, f.content_type, f.path, now.toISOString(), runId]);
    await upsertDownload(wh, a, { state: 'stored', sha256: f.sha256, bytes: f.bytes, error_code: null, reason: null }, now, runId);
  });
}

/** The file is not stored: why, and when it is asked for again (a too large file: once the limit grows). */
export async function recordNotStored(wh: Warehouse, a: DueAttachment, n: NotStored, now: Date, runId: string): Promise<void> {
  await upsertDownload(wh, a, { state: n.state, sha256: null, bytes: n.bytes ?? null, error_code: n.error_code, reason: n.reason.slice(0, 500) }, now, runId);
}

async function upsertDownload(wh: Warehouse, a: DueAttachment, v: { state: string; sha256: string | null; bytes: number | null; error_code: string | null; reason: string | null }, now: Date, runId: string): Promise<void> {
  const stored = v.state === 'stored';
  const attempts = stored ? 0 : a.attempts + 1;
  const next = stored || v.state === 'too_large' ? 'NULL' : NEXT_TRY('$6');
  await wh.run(`INSERT INTO attachment_downloads (code, instance, attachment_id, state, sha256, bytes, attempts, first_tried_at, last_tried_at, next_try_at, error_code, reason, run_id)
    VALUES ($2, $3, $4, $5, $7, $8, $6, $1::TIMESTAMPTZ, $1::TIMESTAMPTZ, ${next.replaceAll('$now', '$1')}, $9, $10, $11)
    ON CONFLICT (code, instance, attachment_id) DO UPDATE SET state = excluded.state, sha256 = excluded.sha256, bytes = excluded.bytes,
      attempts = excluded.attempts, last_tried_at = excluded.last_tried_at, next_try_at = excluded.next_try_at,
      error_code = excluded.error_code, reason = excluded.reason, run_id = excluded.run_id`,
  [now.toISOString(), a.code, a.instance, a.attachment_id, v.state, attempts, v.sha256, v.bytes, v.error_code, v.reason, runId]);
}

/** Files and bytes stored by a run, and the attachments' states now (the report's figures). */
export async function attachmentFigures(wh: Warehouse, runId: string): Promise<Record<string, number>> {
  const [r] = await wh.all<Record<string, number>>(`SELECT
      (SELECT count(*) FROM attachment_files WHERE run_id = $1)::INTEGER AS files_stored,
      (SELECT coalesce(sum(bytes), 0) FROM attachment_files WHERE run_id = $1)::BIGINT AS bytes_stored,
      (SELECT count(*) FROM attachment_downloads WHERE state = 'stored')::INTEGER AS attachments_stored,
      (SELECT count(*) FROM attachment_downloads WHERE state = 'not_ready')::INTEGER AS attachments_not_ready`, [runId]);
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)]));
}
