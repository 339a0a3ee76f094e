import type { Tracking } from '../spec/types.js';
import type { DocumentSpec, DocumentsList } from '../input/documents.js';
import { normaliseKey } from '../input/normalise.js';
import { keyIdentity, paramsIdentity } from '../spec/identifiers.js';
import type { SearchParams } from '../spec/types.js';
import { isEtlError } from '../shared/errors.js';
import { stageStatusFor } from '../shared/failure-policy.js';
import type { RunContext } from './context.js';
import { searchFor } from './plan.js';
import { trackingState } from './tracking/reconcile-plan.js';
import { upsertJsonRows, type SyncFailure } from './sync.js';

// `lawsuit-etl track`: every listed document ends with exactly one tracking. The service's own listing is
// read first (every page) and a document already tracked is left alone, so a rerun creates nothing; a 409 on
// creation means another path created it meanwhile, which is the outcome we wanted, not an error.

export interface TrackResult {
  documents: number;
  /** Trackings created by this run. */
  created: number;
  /** Documents already tracked (found by listing, or answered 409). */
  existing: number;
  /** Of those, the ones answered 409 on creation. */
  conflicts: number;
  /** Existing trackings whose recurrence differs from the configured one (the spec shows no update call). */
  recurrenceMismatches: number;
  failures: SyncFailure[];
}

export interface TrackOptions {
  /** Recurrence of new trackings, in days. Default `ctx.cfg.trackingRecurrenceDays`. */
  recurrence?: number;
  /** Creations per batch (their results are written together). Default 200. */
  batchSize?: number;
}

/**
 * One identity for a tracked search whichever way its key is punctuated or a name spelt (the listing echoes keys as
 * sent), with its filters, credential and masked_response (`params`, its search_params as sent or listed) when it
 * has any: a tracking carries its document's filters, and a document listed with other filters is another search.
 */
export function trackingKey(searchType: string, searchKey: string, params?: SearchParams): string {
  const n = normaliseKey(searchType as DocumentSpec['searchType'], searchKey);
  const base = `${searchType}\u0000${keyIdentity(searchType, n.ok ? n.key : searchKey.trim())}`;
  const more = paramsIdentity(params);
  return more === '' ? base : `${base}\u0000${more}`;
}

/** A listed document's tracking identity: the search it is tracked with (searchFor). */
export function documentTrackingKey(doc: DocumentSpec): string {
  return trackingKey(doc.searchType, doc.searchKey, searchFor(doc).search_params);
}

const TRACKING_COLUMNS = [
  ['tracking_id', 'VARCHAR'], ['search_type', 'VARCHAR'], ['search_key', 'VARCHAR'], ['recurrence', 'INTEGER'], ['status', 'VARCHAR'],
  ['search', 'JSON'], ['created_at', 'TIMESTAMPTZ'], ['updated_at', 'TIMESTAMPTZ'], ['last_seen_run', 'VARCHAR'], ['checked_at', 'TIMESTAMPTZ'],
] as const;
const CHECK_COLUMNS = [
  ['run_id', 'VARCHAR'], ['checked_at', 'TIMESTAMPTZ'], ['search_type', 'VARCHAR'], ['search_key', 'VARCHAR'], ['document_line', 'INTEGER'],
  ['tracking_id', 'VARCHAR'], ['outcome', 'VARCHAR'], ['error', 'VARCHAR'], ['search_reason', 'VARCHAR'],
] as const;

/** A row of `tracking_checks`: what one run found or did for one search. */
export interface TrackingCheck {
  run_id: string;
  checked_at: string;
  search_type: string;
  search_key: string;
  /** The documents list's line; null for a search no longer listed (a tracking paused). */
  document_line: number | null;
  tracking_id: string | null;
  /** `track`: created, existing, conflict, failed; a trackings night adds kept, resumed, paused, gone. */
  outcome: string;
  error: string | null;
  /** Why a trackings night searches the document besides (reconcile-plan.ts, SearchReason); null when it does not. */
  search_reason?: string | null;
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
  const checkRows = [...byKey.values()].map((c) => ({ search_reason: null, ...c }));
  await ctx.wh.transaction(async () => {
    await upsertJsonRows(ctx.wh, 'trackings', TRACKING_COLUMNS, ['tracking_id'], rows, ['updated_at', 'checked_at']);
    await upsertJsonRows(ctx.wh, 'tracking_checks', CHECK_COLUMNS, ['run_id', 'search_type', 'search_key'], checkRows, ['checked_at']);
  });
}

async function listAll(ctx: RunContext): Promise<Map<string, Tracking>> {
  const byKey = new Map<string, Tracking>();
  for (const t of await ctx.api.tracking.all({ signal: ctx.signal })) {
    // A deleted record tracks nothing (the service lets its search be tracked again): it is no tracking of the document.
    if (!t.search || trackingState(String(t.status ?? '')) === 'deleted') continue;
    const k = trackingKey(t.search.search_type, t.search.search_key, t.search.search_params);
    // Should the service hold two for one search, the oldest is the one kept.
    if (!byKey.has(k)) byKey.set(k, t);
  }
  return byKey;
}

/** Makes sure every document of the list has a tracking, and stores what the service holds in `trackings`. */
export async function runTracking(ctx: RunContext, list: DocumentsList, opts: TrackOptions = {}): Promise<TrackResult> {
  const recurrence = opts.recurrence ?? ctx.cfg.trackingRecurrenceDays;
  const batchSize = Math.max(1, opts.batchSize ?? 200);
  const docs = list.documents;
  const result: TrackResult = { documents: docs.length, created: 0, existing: 0, conflicts: 0, recurrenceMismatches: 0, failures: [] };
  let known = await listAll(ctx);
  const checkedAt = new Date().toISOString();
  const checks: TrackingCheck[] = [];
  const created: Tracking[] = [];
  const missing: DocumentSpec[] = [];
  /** The checks of creations answered 409, and their documents: the relisting names their trackings. */
  const conflicted = new Map<TrackingCheck, DocumentSpec>();
  let needRelist = false;

  for (const doc of docs) {
    const t = known.get(documentTrackingKey(doc));
    if (!t) { missing.push(doc); continue; }
    result.existing++;
    if (t.recurrence !== recurrence) result.recurrenceMismatches++;
    checks.push(checkRow(ctx.runId, checkedAt, doc, t.tracking_id, 'existing'));
  }
  if (result.recurrenceMismatches > 0) {
    ctx.log.warn({ count: result.recurrenceMismatches, recurrence }, 'some existing trackings have another recurrence; the service offers no way to change it, they are kept');
  }

  ctx.progress?.('documents', 'total', missing.length);
  for (let i = 0; i < missing.length && !ctx.signal.aborted; i += batchSize) {
    const batch = missing.slice(i, i + batchSize);
    const settled = await Promise.allSettled(batch.map((doc) => ctx.api.tracking.create(searchFor(doc), recurrence, { withAttachments: doc.withAttachments }).finally(() => ctx.progress?.('documents', 'tick', 1))));
    settled.forEach((s, n) => {
      const doc = batch[n];
      if (s.status === 'rejected') {
        // The key or the resource refused: every other call would meet it too.
        if (isEtlError(s.reason) && stageStatusFor(s.reason) === 'refused') throw s.reason;
        const code = isEtlError(s.reason) ? s.reason.code : 'TRACK_UNEXPECTED';
        const reason = s.reason instanceof Error ? s.reason.message : String(s.reason);
        result.failures.push({ line: doc.line, searchType: doc.searchType, searchKey: doc.searchKey, code, reason });
        ctx.log.warn({ line: doc.line, search_type: doc.searchType, code }, `tracking creation failed: ${reason}`);
        checks.push({ ...checkRow(ctx.runId, checkedAt, doc, null, 'failed'), error: reason.slice(0, 500) });
      } else if (s.value.conflict) {
        result.existing++;
        result.conflicts++;
        needRelist = true;
        const check = checkRow(ctx.runId, checkedAt, doc, s.value.trackingId ?? null, 'conflict');
        conflicted.set(check, doc);
        checks.push(check);
      } else {
        result.created++;
        created.push(s.value.tracking);
        checks.push(checkRow(ctx.runId, checkedAt, doc, s.value.tracking.tracking_id, 'created'));
      }
    });
  }

  // A 409 names the record at best by id: one more listing gives its status and search.
  if (needRelist) known = await listAll(ctx);
  const all = new Map<string, Tracking>();
  for (const t of known.values()) all.set(t.tracking_id, t);
  for (const t of created) if (!all.has(t.tracking_id)) all.set(t.tracking_id, t);
  for (const c of checks) {
    const doc = conflicted.get(c);
    if (c.tracking_id === null && doc) c.tracking_id = known.get(documentTrackingKey(doc))?.tracking_id ?? null;
  }
  await storeTrackings(ctx, all.values(), checks, checkedAt);
  return result;
}

/** The check of a listed document. */
export function checkRow(runId: string, checkedAt: string, doc: DocumentSpec, trackingId: string | null, outcome: string): TrackingCheck {
  return { run_id: runId, checked_at: checkedAt, search_type: doc.searchType, search_key: doc.searchKey, document_line: doc.line, tracking_id: trackingId, outcome, error: null };
}
