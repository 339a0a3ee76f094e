import type { CreateTrackingResult } from '../../api/tracking.js';
import type { Tracking } from '../../spec/types.js';
import type { DocumentSpec, DocumentsList } from '../../input/documents.js';
import { isEtlError } from '../../shared/errors.js';
import { stageStatusFor } from '../../shared/failure-policy.js';
import type { RunContext } from '../context.js';
import { searchFor } from '../plan.js';
import { documentFailure, type DocumentFailure } from '../document-failure.js';
import { documentTrackingKey, recordTrackingKey } from './identity.js';
import { checkRow, storeTrackings, type TrackingCheck } from './records.js';
import { trackingState } from './reconcile-plan.js';

// `lawsuit-etl track`: every listed document ends with exactly one tracking. The service's own listing is
// read first (every page) and a document already tracked is left alone, so a rerun creates nothing; a 409 on
// creation means another path created it meanwhile, which is the outcome we wanted, not an error.

interface TrackResult {
  documents: number;
  /** Trackings created by this run. */
  created: number;
  /** Documents already tracked (found by listing, or answered 409). */
  existing: number;
  /** Of those, the ones answered 409 on creation. */
  conflicts: number;
  /** Existing trackings whose recurrence differs from the configured one (the spec shows no update call). */
  recurrenceMismatches: number;
  failures: DocumentFailure[];
}

interface TrackOptions {
  /** Recurrence of new trackings, in days. Default `ctx.cfg.trackingRecurrenceDays`. */
  recurrence?: number;
  /** Creations per batch (their results are written together). Default 200. */
  batchSize?: number;
}

async function listAll(ctx: RunContext): Promise<Map<string, Tracking>> {
  const byKey = new Map<string, Tracking>();
  for (const t of await ctx.api.tracking.all({ signal: ctx.signal })) {
    // A deleted record tracks nothing (the service lets its search be tracked again): it is no tracking of the document.
    if (!t.search || trackingState(String(t.status ?? '')) === 'deleted') continue;
    const k = recordTrackingKey(t.search);
    // Should the service hold two for one search, the oldest is the one kept.
    if (!byKey.has(k)) byKey.set(k, t);
  }
  return byKey;
}

/** What a run of `track` gathers as it goes: its checks, the trackings it created, the 409s to name by a relisting. */
interface TrackingRun {
  result: TrackResult;
  checkedAt: string;
  checks: TrackingCheck[];
  created: Tracking[];
  /** The checks of creations answered 409, and their documents: the relisting names their trackings. */
  conflicted: Map<TrackingCheck, DocumentSpec>;
}

/** Makes sure every document of the list has a tracking, and stores what the service holds in `trackings`. */
export async function runTracking(ctx: RunContext, list: DocumentsList, opts: TrackOptions = {}): Promise<TrackResult> {
  const recurrence = opts.recurrence ?? ctx.cfg.trackingRecurrenceDays;
  const batchSize = Math.max(1, opts.batchSize ?? 200);
  const docs = list.documents;
  const result: TrackResult = { documents: docs.length, created: 0, existing: 0, conflicts: 0, recurrenceMismatches: 0, failures: [] };
  let known = await listAll(ctx);
  const run: TrackingRun = { result, checkedAt: new Date().toISOString(), checks: [], created: [], conflicted: new Map() };
  const missing: DocumentSpec[] = [];

  for (const doc of docs) {
    const t = known.get(documentTrackingKey(doc));
    if (!t) { missing.push(doc); continue; }
    result.existing++;
    if (t.recurrence !== recurrence) result.recurrenceMismatches++;
    run.checks.push(checkRow(ctx.runId, run.checkedAt, doc, t.tracking_id, 'existing'));
  }
  if (result.recurrenceMismatches > 0) {
    ctx.log.warn({ count: result.recurrenceMismatches, recurrence }, 'some existing trackings have another recurrence; the service offers no way to change it, they are kept');
  }

  ctx.progress?.('documents', 'total', missing.length);
  for (let i = 0; i < missing.length && !ctx.signal.aborted; i += batchSize) {
    const batch = missing.slice(i, i + batchSize);
    const settled = await Promise.allSettled(batch.map((doc) => ctx.api.tracking.create(searchFor(doc), recurrence, { withAttachments: doc.withAttachments }).finally(() => ctx.progress?.('documents', 'tick', 1))));
    settled.forEach((s, n) => recordCreation(ctx, run, batch[n], s));
  }

  // A 409 names the record at best by id: one more listing gives its status and search.
  if (run.conflicted.size > 0) known = await listAll(ctx);
  const all = new Map<string, Tracking>();
  for (const t of known.values()) all.set(t.tracking_id, t);
  for (const t of run.created) if (!all.has(t.tracking_id)) all.set(t.tracking_id, t);
  for (const c of run.checks) {
    const doc = run.conflicted.get(c);
    if (c.tracking_id === null && doc) c.tracking_id = known.get(documentTrackingKey(doc))?.tracking_id ?? null;
  }
  await storeTrackings(ctx, all.values(), run.checks, run.checkedAt);
  return result;
}

/** One creation's outcome in the run: created, found made already (409), or failed; a refusal of the key or the resource ends the run. */
function recordCreation(ctx: RunContext, run: TrackingRun, doc: DocumentSpec, s: PromiseSettledResult<CreateTrackingResult>): void {
  const { result, checks, checkedAt } = run;
  if (s.status === 'rejected') {
    // The key or the resource refused: every other call would meet it too.
    if (isEtlError(s.reason) && stageStatusFor(s.reason) === 'refused') throw s.reason;
    const failure = documentFailure(doc, s.reason, 'TRACK_UNEXPECTED');
    const { code, reason } = failure;
    result.failures.push(failure);
    ctx.log.warn({ line: doc.line, search_type: doc.searchType, code }, `tracking creation failed: ${reason}`);
    checks.push({ ...checkRow(ctx.runId, checkedAt, doc, null, 'failed'), error: reason.slice(0, 500) });
  } else if (s.value.conflict) {
    result.existing++;
    result.conflicts++;
    const check = checkRow(ctx.runId, checkedAt, doc, s.value.trackingId ?? null, 'conflict');
    run.conflicted.set(check, doc);
    checks.push(check);
  } else {
    result.created++;
    run.created.push(s.value.tracking);
    checks.push(checkRow(ctx.runId, checkedAt, doc, s.value.tracking.tracking_id, 'created'));
  }
}
