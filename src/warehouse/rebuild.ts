import { rememberRawText } from '../shared/raw-json.js';
import type { ResponseItem } from '../spec/types.js';
import { failpoint } from '../shared/failpoint.js';
import { detectChanges } from './changes.js';
import { loadResponseItems } from './load.js';
import { isObj } from './values.js';
import type { Warehouse } from './warehouse.js';

// `rebuild`: every table that comes from response payloads, derived again from responses_raw alone — after a
// schema change or a fix to the flattening, without a single API call. This is what keeping every payload
// exactly as received is for.
//
// The payloads are replayed run after run, each run's items in the order they were loaded, through the same
// loader (load.ts, whose result does not depend on batch boundaries) and, where a run detected changes, the
// same change detection at the same instant. So the rebuilt tables are the ones the API loads made, first and
// last seen runs and the history of changes included.

/** The tables derived from response payloads, emptied and made again. The ledger, the transfer files, the
 * synchronous answers and the trackings come from elsewhere and are left as they are. */
export const DERIVED_TABLES = [
  'lawsuits', 'parties', 'lawyers', 'steps', 'subjects', 'classifications', 'courts', 'attachments', 'related_lawsuits', 'search_hits', 'load_problems', 'application_errors',
  'lawsuit_changes', 'lawsuit_state', 'lawsuit_state_parties', 'search_state', 'lawsuit_status_history', 'change_detections',
] as const;

export interface RebuildOptions {
  /** Items parsed and loaded at a time (the loader bounds its batches by bytes within). Default 500. */
  chunkItems?: number;
  /** Told the number of items to replay, then each chunk done. */
  progress?: (event: 'total' | 'tick', n: number) => void;
  /** Stops between chunks once aborted; the next rebuild starts again from the beginning. */
  signal?: AbortSignal;
}

export interface RebuildResult { runs: number; items: number; lawsuits: number; detections: number; interrupted: boolean }

interface RawRow { response_id: string; item: string | null }

export async function rebuildFromRaw(wh: Warehouse, opts: RebuildOptions = {}): Promise<RebuildResult> {
  const chunk = Math.max(1, opts.chunkItems ?? 500);
  await wh.transaction(async () => {
    // change_detections is the record of which runs detected changes, and when: a rebuild killed after this
    // transaction reads it again, so each run's detection replaces its row instead (detectChanges `again`).
    for (const t of DERIVED_TABLES) if (t !== 'change_detections' && t !== 'load_problems') await wh.run(`DELETE FROM ${t}`);
    // A copy of a response id left out for another content (load.ts, duplicateProblem) is not in responses_raw:
    // its problem cannot be found again, and is kept.
    await wh.run(`DELETE FROM load_problems WHERE problem <> 'conflicting_duplicate'`);
    await wh.run(`DELETE FROM raw_parts WHERE owner = 'lawsuits.raw'`);
  });
  // Checkpointed at once, so that the blocks of the emptied tables are free for the replay to write into: without
  // it every rebuild added the tables' size to the file (a 31 MB warehouse: 58, 75, 91 MB after three rebuilds;
  // with it 33, 35, 34 MB). DuckDB 1.5.5.
  await wh.checkpoint();
  // What the runs did (which loaded payloads, which detected changes, when), read after the checkpoint: none of
  // it is emptied, and a checkpoint may renumber the rowids of a table that had rows deleted, which would move
  // every range read before it.
  const runs = await wh.all<{ run_id: string; detected_at: Date | null; items: number; first_row: number | null; last_row: number | null }>(`
    WITH loaded AS (SELECT run_id, count(*) AS items, min(rowid) AS first_row, max(rowid) AS last_row FROM responses_raw GROUP BY run_id)
    SELECT r.run_id, d.detected_at, coalesce(l.items, 0)::BIGINT AS items, l.first_row, l.last_row
    FROM runs r LEFT JOIN loaded l USING (run_id) LEFT JOIN change_detections d USING (run_id)
    WHERE l.run_id IS NOT NULL OR d.run_id IS NOT NULL
    ORDER BY r.started_at, r.run_id`);
  const total = runs.reduce((n, r) => n + Number(r.items), 0);
  opts.progress?.('total', total);
  const result: RebuildResult = { runs: runs.length, items: 0, lawsuits: 0, detections: 0, interrupted: false };
  for (const run of runs) {
    // Ranges of rowid: responses_raw is only ever appended to, so its rowid is the order items were loaded in.
    // A range, not `rowid > last ORDER BY rowid LIMIT n`: that top-N over the whole table held the items it
    // passed over, and at 100k lawsuits (about 1 GB of payloads) the first chunk ran out of DuckDB's 128MB.
    const last = run.last_row === null ? -1 : Number(run.last_row);
    for (let from = run.first_row === null ? 0 : Number(run.first_row); from <= last; from += chunk) {
      if (opts.signal?.aborted) return { ...result, interrupted: true };
      const rows = await wh.all<RawRow>(`SELECT response_id, item::VARCHAR AS item FROM responses_raw
        WHERE run_id = $1 AND rowid BETWEEN $2 AND $3 ORDER BY rowid`, [run.run_id, from, from + chunk - 1]);
      if (rows.length === 0) continue;
      await replay(wh, run.run_id, await withParts(wh, rows));
      result.items += rows.length;
      opts.progress?.('tick', rows.length);
      failpoint('rebuild.after-chunk');
    }
    if (run.detected_at) {
      await detectChanges(wh, run.run_id, { now: run.detected_at, again: true });
      result.detections++;
    }
  }
  const [{ n }] = await wh.all<{ n: number }>('SELECT count(*) AS n FROM lawsuits');
  result.lawsuits = Number(n);
  return result;
}

/**
 * Items too long for a column are kept in raw_parts (long-values.ts): put them back together, one at a time, in
 * JavaScript. One string_agg statement for the chunk's long items ran out of DuckDB's 128 MB with 40 items of
 * 3 MB (its result is held whole, and values that long cannot spill); a statement per item holds one item.
 */
async function withParts(wh: Warehouse, rows: readonly RawRow[]): Promise<RawRow[]> {
  const out: RawRow[] = [];
  for (const r of rows) {
    if (r.item !== null) { out.push(r); continue; }
    const parts = await wh.all<{ text: string }>(`SELECT text FROM raw_parts WHERE owner = 'responses_raw.item' AND response_id = $1 ORDER BY part`, [r.response_id]);
    out.push({ ...r, item: parts.map((p) => p.text).join('') || null });
  }
  return out;
}

/** One chunk of a run's items, loaded as that run loaded them: consecutive items of one source together. */
async function replay(wh: Warehouse, runId: string, rows: readonly RawRow[]): Promise<void> {
  let group: ResponseItem[] = [];
  let historical = false;
  const flush = async (): Promise<void> => {
    if (group.length > 0) await loadResponseItems(wh, group, { runId, source: historical ? 'historical' : 'async' });
    group = [];
  };
  for (const r of rows) {
    if (r.item === null) continue;
    // The text is the item as received: the loader keeps it, and slices of it, byte for byte again.
    const item: unknown = JSON.parse(r.item);
    // An answer of the synchronous historical query, as src/pipeline/sync.ts marks it.
    const isHistorical = isObj(item) && isObj(item.tags) && item.tags.sync_query === 'historical';
    if (isHistorical !== historical) {
      await flush();
      historical = isHistorical;
    }
    // An item that is not an object is loaded as the loader takes any item: leniently, into responses_raw only.
    group.push((isObj(item) ? rememberRawText(item, r.item) : item) as ResponseItem);
  }
  await flush();
}
