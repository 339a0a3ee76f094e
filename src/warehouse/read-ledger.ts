import { CURSOR_COLUMNS, cursorOf, saveCursor, type CursorRow, type StoredCursor } from './cursor-store.js';
import { isDeliveryEntry, recordDelivery, recordTrackingRuns, type DeliveryEntry } from './delivery-ledger.js';
import type { Warehouse } from './warehouse.js';

// The ledger of reading responses (migration 50), written in the same transaction as the responses it covers
// (the page sink's), so that after a kill the warehouse and its ledger agree: a page is loaded and recorded, or
// neither. Two ways of reading share it:
//
// - per request (`strategy = 'per_request'`): `items_loaded` is an item offset, the leading responses of the
//   request in the provider's order already loaded; a page adds to it only when it starts where the offset stands.
// - the sweep across requests (`strategy = 'sweep'`): `items_loaded` counts the request's responses the sweep
//   loaded, and `response_sweeps` holds the sweep's cursor on the provider's created_at.
//
// Either way a request is fully loaded when `loaded_at` is set, the one definition every reader of the ledger uses.

type ReadStrategy = 'sweep' | 'per_request';

/** One ledger change, applied in order within the page sink's transaction. */
export type ReadEntry =
  /** Per-request reading: `count` responses of the request from item `from` are loaded; `total` is what the listing announced. */
  | { kind: 'span'; requestId: string; from: number; count: number; total: number; complete: boolean }
  /** A page of the sweep: its cursor after the page, what it read, and the requests it completed. */
  | {
    kind: 'sweep'; sweepId: string; cursor: StoredCursor; read: number; skipped: number; pages: number;
    ours: ReadonlyArray<{ requestId: string; items: number }>; complete: readonly string[];
  }
  /** Requests of a sweep handed to per-request reading (read again from their first response). */
  | { kind: 'to_per_request'; requestIds: readonly string[] }
  /** The sweep ends: `done`, `fallback` (the provider does not honour the filters), `switched` (costlier than per-request reading), `handed_over` (too old to resume). */
  | { kind: 'sweep_status'; sweepId: string; status: 'done' | 'fallback' | 'switched' | 'handed_over'; reason?: string }
  /** A page of a trackings night's reading (tracking-ledger.ts): its cursor after the page, and the runs of our trackings it loaded. */
  | TrackingPageEntry
  /** What a night read of the webhook intake's spool (delivery-ledger.ts). */
  | DeliveryEntry;

/** One run of one of our trackings met on a page: its request, its tracking, the document followed, its responses on the page. */
export interface TrackingRunRead { requestId: string; trackingId: string; searchType: string; searchKey: string; items: number }

interface TrackingPageEntry {
  kind: 'tracking_page'; readId: string; runId: string; cursor: StoredCursor; read: number; skipped: number; pages: number;
  runs: readonly TrackingRunRead[];
  /** The page was the last of the reading's range: the reading is done. */
  done: boolean;
}

const ids = (list: readonly string[]): string => JSON.stringify(list);

/** Applies ledger entries in order. Call it in the transaction that loads their responses. */
export async function recordReads(wh: Warehouse, entries: readonly ReadEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await wh.transaction(async () => {
    // Consecutive spans go together (a batch of small pages of large items carries hundreds): one statement.
    let spans: Array<Extract<ReadEntry, { kind: 'span' }>> = [];
    const flushSpans = async (): Promise<void> => {
      if (spans.length === 0) return;
      const rows = spans;
      spans = [];
      await recordSpans(wh, rows);
    };
    for (const e of entries) {
      if (e.kind === 'span') { spans.push(e); continue; }
      await flushSpans();
      if (e.kind === 'sweep') await recordSweepPage(wh, e);
      else if (e.kind === 'tracking_page') await recordTrackingPage(wh, e);
      else if (isDeliveryEntry(e)) await recordDelivery(wh, e);
      else if (e.kind === 'to_per_request') {
        await wh.run(`UPDATE requests SET strategy = 'per_request', items_loaded = 0, items_total = NULL, loaded_at = NULL
          WHERE request_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]'))) AND loaded_at IS NULL`, [ids(e.requestIds)]);
      } else {
        await wh.run(`UPDATE response_sweeps SET status = $2, reason = $3, updated_at = current_timestamp WHERE sweep_id = $1`,
          [e.sweepId, e.status, e.reason ?? null]);
      }
    }
    await flushSpans();
  });
}

/**
 * Spans of per-request reading. Pages of one request reach the ledger in the order read, so the spans of a
 * request in one batch are contiguous: the offset moves to their end if their start is not past it (a span
 * that starts beyond the offset would leave a hole, and is not counted).
 */
async function recordSpans(wh: Warehouse, spans: ReadonlyArray<Extract<ReadEntry, { kind: 'span' }>>): Promise<void> {
  const byRequest = new Map<string, { from: number; to: number; total: number; complete: boolean }>();
  for (const s of spans) {
    const r = byRequest.get(s.requestId);
    if (!r) byRequest.set(s.requestId, { from: s.from, to: s.from + s.count, total: s.total, complete: s.complete });
    else Object.assign(r, { to: Math.max(r.to, s.from + s.count), total: s.total, complete: s.complete });
  }
  const rows = [...byRequest].map(([id, r]) => ({ id, ...r }));
  await wh.run(`UPDATE requests SET items_loaded = greatest(requests.items_loaded, t."to"), items_total = t.total,
      loaded_at = CASE WHEN t.complete THEN coalesce(requests.loaded_at, current_timestamp) ELSE requests.loaded_at END
    FROM (SELECT unnest(from_json($1::JSON, '[{"id":"VARCHAR","from":"INTEGER","to":"INTEGER","total":"INTEGER","complete":"BOOLEAN"}]'), recursive := true)) t
    WHERE requests.request_id = t.id AND requests.items_loaded >= t."from"`, [JSON.stringify(rows)]);
}

async function recordSweepPage(wh: Warehouse, e: Extract<ReadEntry, { kind: 'sweep' }>): Promise<void> {
  if (e.ours.length > 0) {
    await wh.run(`UPDATE requests SET items_loaded = requests.items_loaded + t.items
      FROM (SELECT unnest(from_json($1::JSON, '[{"requestId":"VARCHAR","items":"INTEGER"}]'), recursive := true)) t
      WHERE requests.request_id = t.requestId AND requests.strategy = 'sweep'`, [JSON.stringify(e.ours)]);
  }
  if (e.complete.length > 0) {
    await wh.run(`UPDATE requests SET loaded_at = coalesce(loaded_at, current_timestamp), items_total = items_loaded
      WHERE request_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]'))) AND strategy = 'sweep'`, [ids(e.complete)]);
  }
  await saveCursor(wh, 'response_sweeps', e.sweepId, e.cursor, { pages: e.pages, read: e.read, ours: e.ours.reduce((n, o) => n + o.items, 0), skipped: e.skipped });
}

/**
 * A page of a trackings night's reading: the runs it met added to (or counted in) tracking_runs, its cursor moved.
 * In the page sink's transaction with the responses, so that a run's count and the cursor never get ahead of them.
 */
async function recordTrackingPage(wh: Warehouse, e: TrackingPageEntry): Promise<void> {
  await recordTrackingRuns(wh, e.runs, e.readId, e.runId);
  await saveCursor(wh, 'tracking_reads', e.readId, e.cursor, { pages: e.pages, read: e.read, ours: e.runs.reduce((n, r) => n + r.items, 0), skipped: e.skipped }, e.done);
}

interface StoredSweep {
  sweepId: string;
  status: string;
  updatedAt: Date;
  cursor: StoredCursor;
  pages: number;
  itemsRead: number;
  itemsOurs: number;
  itemsSkipped: number;
}

/**
 * Which of a night's waves of requests a sweep reads: the documents list's searches, or the lawsuit-level reads
 * chosen once their headers are loaded (docs/two-levels.md). Each wave has its own sweep, resumed by its own wave.
 */
export type SweepWave = 'documents' | 'lawsuits';

/**
 * A wave's sweep id: the run's id, a suffix for a later wave and one for a later part of it (a wave read in parts,
 * src/pipeline/stages/lawsuits.ts), so that one run's sweeps never share a row.
 */
export function sweepIdOf(runId: string, wave: SweepWave, part = 1): string {
  return `${wave === 'documents' ? runId : `${runId}/${wave}`}${part > 1 ? `/${part}` : ''}`;
}

/** The wave's sweep still covering requests (status `active`), if any: the latest one. */
export async function activeSweep(wh: Warehouse, wave: SweepWave): Promise<StoredSweep | undefined> {
  const [r] = await wh.all<CursorRow & { sweep_id: string; status: string; updated_at: Date; pages: number; items_read: number; items_ours: number; items_skipped: number }>(
    `SELECT sweep_id, status, updated_at, ${CURSOR_COLUMNS}, pages, items_read, items_ours, items_skipped
    FROM response_sweeps WHERE status = 'active' AND coalesce(wave, 'documents') = $1 ORDER BY started_at DESC LIMIT 1`, [wave]);
  if (!r) return undefined;
  return {
    sweepId: r.sweep_id, status: r.status, updatedAt: r.updated_at, cursor: cursorOf(r),
    pages: r.pages, itemsRead: r.items_read, itemsOurs: r.items_ours, itemsSkipped: r.items_skipped,
  };
}

/** Starts a sweep's row. */
export async function openSweep(wh: Warehouse, sweepId: string, runId: string, wave: SweepWave): Promise<void> {
  await wh.run(`INSERT INTO response_sweeps (sweep_id, run_id, started_at, updated_at, status, cursor_page, pages, items_read, items_ours, items_skipped, wave)
    VALUES ($1, $2, current_timestamp, current_timestamp, 'active', 1, 0, 0, 0, 0, $3) ON CONFLICT DO NOTHING`, [sweepId, runId, wave]);
}

/**
 * How a request's responses are read from now on. A request given a strategy afresh starts unread: a request id
 * the provider handed out again must not count as loaded on its old request's ledger.
 */
export async function assignStrategy(wh: Warehouse, requestId: string, strategy: ReadStrategy, sweepId?: string): Promise<void> {
  await wh.run(`UPDATE requests SET strategy = $2, sweep_id = $3, items_loaded = 0, items_total = NULL, loaded_at = NULL
    WHERE request_id = $1 AND loaded_at IS NULL`, [requestId, strategy, sweepId ?? null]);
}
