import { CURSOR_COLUMNS, cursorOf, cursorValues, dateAt, saveCursor, type CursorRow, type StoredCursor } from './cursor-store.js';
import type { Warehouse } from './warehouse.js';

// Where a trackings night's reading of its trackings' runs stands (tracking_reads, migration 75). The cursor is
// the pipeline's data, not the provider's (STYLE.md, 16): each night's reading starts where the one before it
// ended (its watermark), with that reading's cursor, so that the responses at its last millisecond are skipped by
// id rather than read twice; a reading a killed run left active is carried on by the next run. Its pages are
// recorded with their responses by recordReads (read-ledger.ts, `tracking_page`).

interface StoredTrackingRead {
  readId: string;
  status: 'active' | 'done';
  cursor: StoredCursor;
  /** How far it may read (epoch ms, provider clock; undefined: to the newest). */
  until?: number;
  /** Where it started (epoch ms, provider clock). */
  watermark?: number;
  /** Responses of our trackings' runs it loaded. */
  ours: number;
}

/** The latest reading (active: a killed run's, to carry on; done: the night before's, to start after). */
export async function latestTrackingRead(wh: Warehouse): Promise<StoredTrackingRead | undefined> {
  const [r] = await wh.all<CursorRow & { read_id: string; status: string; until_at: Date | null; watermark_at: Date | null; items_ours: number }>(
    `SELECT read_id, status, until_at, watermark_at, items_ours, ${CURSOR_COLUMNS} FROM tracking_reads ORDER BY started_at DESC, read_id DESC LIMIT 1`);
  if (!r) return undefined;
  return {
    readId: r.read_id, status: r.status === 'done' ? 'done' : 'active', until: r.until_at?.getTime(), watermark: r.watermark_at?.getTime(),
    cursor: cursorOf(r), ours: Number(r.items_ours),
  };
}

/** Starts tonight's reading at `watermark` with the cursor it carries on from, reading up to `until`. */
export async function openTrackingRead(wh: Warehouse, r: { readId: string; runId: string; watermark: number; until?: number; cursor: StoredCursor }): Promise<void> {
  await wh.run(`INSERT INTO tracking_reads (read_id, run_id, started_at, updated_at, status, watermark_at, until_at, cursor_from, cursor_page,
      cursor_page_size, cursor_seen, cursor_last, high_at, pages, items_read, items_ours, items_skipped)
    VALUES ($1, $2, current_timestamp, current_timestamp, 'active', $3::TIMESTAMPTZ, $4::TIMESTAMPTZ, $5::TIMESTAMPTZ, $6, $7, $8::JSON, $9::TIMESTAMPTZ,
      $10::TIMESTAMPTZ, 0, 0, 0, 0) ON CONFLICT DO NOTHING`,
  [r.readId, r.runId, dateAt(r.watermark), dateAt(r.until), ...cursorValues(r.cursor)]);
}

/** A reading carried on by a later run reads up to that run's bound (runs finished since may be read too). */
export async function extendTrackingRead(wh: Warehouse, readId: string, until: number | undefined): Promise<void> {
  await wh.run(`UPDATE tracking_reads SET until_at = $2::TIMESTAMPTZ, updated_at = current_timestamp WHERE read_id = $1`, [readId, dateAt(until)]);
}

/**
 * The night's reading, done, moved on to `cursor` without reading: past the night's own answers (pipeline/tracking/
 * past-own-answers.ts), so that the next night starts after them. One row a night still: its tallies stay those of
 * what it read.
 */
export async function moveDoneReading(wh: Warehouse, readId: string, cursor: StoredCursor): Promise<void> {
  await saveCursor(wh, 'tracking_reads', readId, cursor, { pages: 0, read: 0, ours: 0, skipped: 0 }, true);
}
