import type { Warehouse } from './warehouse.js';

// The one store of a cursor on the listing across requests, for both of its readers: the search stage's sweep
// (response_sweeps, migration 50) and a trackings night's reading of its runs (tracking_reads, migration 75). Both
// tables carry the same cursor columns and the same tallies, so the cursor's row mapping is written here once:
// what a page saves (with the responses it covers, in the page sink's transaction) and what a later run reads back.
// A reader that wrote its cursor one way and read it another would resume on a cursor it never saved.

/** Where a reading of the listing across requests stands (src/pipeline/sweep/cursor.ts moves it). */
export interface StoredCursor {
  /** The anchor: queries ask for responses created at or after it (epoch ms, provider clock); undefined before the first page. */
  from?: number;
  /** Next page at the anchor. */
  page: number;
  /** Page size of the pages read at the anchor (page numbers hold at one size). */
  pageSize?: number;
  /** Response ids of the last page read, and of the one before: read again after a shift, skipped by id. */
  seen: readonly string[];
  seenBefore?: readonly string[];
  /** Response ids read at the millisecond of `last` (a new anchor there reads them again). */
  atLast?: readonly string[];
  /** created_at of the last response read: every response created before it has been read. */
  last?: number;
  /** Newest created_at (epoch ms) among the responses read: a request created later may join a sweep. */
  high?: number;
}

/** The two readers' tables, each with its key column. */
type CursorTable = 'response_sweeps' | 'tracking_reads';
const KEY: Record<CursorTable, string> = { response_sweeps: 'sweep_id', tracking_reads: 'read_id' };

/** The cursor's columns as selected: read back by cursorOf. */
export const CURSOR_COLUMNS = 'cursor_from, cursor_page, cursor_page_size, cursor_seen::VARCHAR AS cursor_seen, cursor_last, high_at';

/** A row selected with CURSOR_COLUMNS. */
export interface CursorRow {
  cursor_from: Date | null; cursor_page: number; cursor_page_size: number | null; cursor_seen: string | null; cursor_last: Date | null; high_at: Date | null;
}

/** An instant (epoch ms) as a TIMESTAMPTZ parameter; undefined as NULL. */
export const dateAt = (t: number | undefined): Date | null => (t === undefined ? null : new Date(t));

/** The cursor a row holds. The ids to skip come back as one list (`seen`): which page read them no longer matters. */
export function cursorOf(r: CursorRow): StoredCursor {
  return {
    from: r.cursor_from?.getTime(), page: r.cursor_page, pageSize: r.cursor_page_size ?? undefined,
    seen: r.cursor_seen ? (JSON.parse(r.cursor_seen) as string[]) : [], last: r.cursor_last?.getTime(), high: r.high_at?.getTime(),
  };
}

/** The cursor columns' values, in CURSOR_COLUMNS' order: every id to skip (the last two pages', the last millisecond's) in one list. */
export function cursorValues(c: StoredCursor): [Date | null, number, number | null, string, Date | null, Date | null] {
  const skip = [...new Set([...c.seen, ...(c.seenBefore ?? []), ...(c.atLast ?? [])])];
  return [dateAt(c.from), c.page, c.pageSize ?? null, JSON.stringify(skip), dateAt(c.last), dateAt(c.high)];
}

/** What one commit of pages read: added to the reading's tallies. */
interface PageTally { pages: number; read: number; ours: number; skipped: number }

/**
 * Saves a reading's cursor after a commit of pages and adds to its tallies. `done`: the reading ended (tracking_reads'
 * status; a sweep's status is its own entry).
 */
export async function saveCursor(wh: Warehouse, table: CursorTable, id: string, c: StoredCursor, t: PageTally, done = false): Promise<void> {
  const status = table === 'tracking_reads' ? `, status = CASE WHEN $12 THEN 'done' ELSE status END` : '';
  await wh.run(`UPDATE ${table} SET updated_at = current_timestamp${status},
      cursor_from = $2::TIMESTAMPTZ, cursor_page = $3, cursor_page_size = $4, cursor_seen = $5::JSON, cursor_last = $6::TIMESTAMPTZ, high_at = $7::TIMESTAMPTZ,
      pages = pages + $8, items_read = items_read + $9, items_ours = items_ours + $10, items_skipped = items_skipped + $11
    WHERE ${KEY[table]} = $1`, [id, ...cursorValues(c), t.pages, t.read, t.ours, t.skipped, ...(status ? [done] : [])]);
}
