import type { DocumentSpec } from '../../input/documents.js';
import type { Tracking } from '../../spec/types.js';
import type { RunContext } from '../context.js';
import { upsertJsonRows } from '../../warehouse/upsert-json.js';

// What the warehouse keeps of the key's trackings: each record as last listed or answered (`trackings`), and what
// each run found or did for each tracked search (`tracking_checks`), written together so that a run killed between
// a call and its record leaves neither half.

const TRACKING_COLUMNS = [
  ['tracking_id', 'VARCHAR'], ['search_type', 'VARCHAR'], ['search_key', 'VARCHAR'], ['recurrence', 'INTEGER'], ['status', 'VARCHAR'],
  ['search', 'JSON'], ['created_at', 'TIMESTAMPTZ'], ['updated_at', 'TIMESTAMPTZ'], ['last_seen_run', 'VARCHAR'], ['checked_at', 'TIMESTAMPTZ'],
] as const;
const CHECK_COLUMNS = [
  ['run_id', 'VARCHAR'], ['checked_at', 'TIMESTAMPTZ'], ['search_type', 'VARCHAR'], ['search_key', 'VARCHAR'], ['document_line', 'INTEGER'],
  ['tracking_id', 'VARCHAR'], ['outcome', 'VARCHAR'], ['error', 'VARCHAR'], ['search_reason', 'VARCHAR'], ['kind', 'VARCHAR'],
] as const;

/** A row of `tracking_checks`: what one run found or did for one search. */
export interface TrackingCheck {
  run_id: string;
  checked_at: string;
  search_type: string;
  search_key: string;
  /** The documents list's line; null for a search no longer listed (a tracking paused) and for a lawsuit's tracking. */
  document_line: number | null;
  tracking_id: string | null;
  /** `track`: created, existing, conflict, failed; a trackings night adds kept, resumed, paused, gone. */
  outcome: string;
  error: string | null;
  /** Why a trackings night searches the document (or reads the lawsuit) besides (reconcile-plan.ts, SearchReason); null when it does not. */
  search_reason?: string | null;
  /** A trackings night: the tracking of a listed document (`document`) or of a lawsuit kept whole (`lawsuit`); null for `track`. */
  kind?: string | null;
}

function trackingRow(t: Tracking, runId: string, checkedAt: string): object {
  return {
    tracking_id: t.tracking_id, search_type: t.search?.search_type ?? null, search_key: t.search?.search_key ?? null,
    recurrence: typeof t.recurrence === 'number' ? t.recurrence : null, status: t.status ?? null,
    search: t.search ? JSON.stringify(t.search) : null, created_at: t.created_at ?? null, updated_at: t.updated_at ?? null,
    last_seen_run: runId, checked_at: checkedAt,
  };
}

/** Stores the records as listed or answered (in `trackings`) and the run's checks (in `tracking_checks`), together. */
export async function storeTrackings(ctx: RunContext, records: Iterable<Tracking>, checks: readonly TrackingCheck[], checkedAt: string): Promise<void> {
  const rows = [...records].map((t) => trackingRow(t, ctx.runId, checkedAt));
  // One check per search key and run (the table's key): a key listed twice with other filters is checked once, the
  // last check standing (one upsert cannot write a key twice).
  const byKey = new Map(checks.map((c) => [`${c.search_type}\u0000${c.search_key}`, c]));
  const checkRows = [...byKey.values()].map((c) => ({ search_reason: null, kind: null, ...c }));
  await ctx.wh.transaction(async () => {
    await upsertJsonRows(ctx.wh, 'trackings', TRACKING_COLUMNS, ['tracking_id'], rows, ['updated_at', 'checked_at']);
    await upsertJsonRows(ctx.wh, 'tracking_checks', CHECK_COLUMNS, ['run_id', 'search_type', 'search_key'], checkRows, ['checked_at']);
  });
}

/** The check of a listed document. */
export function checkRow(runId: string, checkedAt: string, doc: DocumentSpec, trackingId: string | null, outcome: string): TrackingCheck {
  return { run_id: runId, checked_at: checkedAt, search_type: doc.searchType, search_key: doc.searchKey, document_line: doc.line, tracking_id: trackingId, outcome, error: null };
}
