import { randomBytes } from 'node:crypto';
import type { RequestObject } from '../spec/types.js';
import { appendRows } from './stage.js';
import type { Warehouse } from './warehouse.js';

// The ledger: runs, requests and what of each request is loaded (the reading ledger itself, written with the
// responses it covers, is read-ledger.ts). It is what makes a run resumable: after a crash a page is either
// wholly loaded and recorded, or neither, and the next run reads exactly what is missing.

type Ts = Date | string | null | undefined;

/** Sortable and unique: the start time to the millisecond, then randomness for runs started together. */
function newRunId(now: Date = new Date()): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${randomBytes(4).toString('hex')}`;
}

export async function startRun(wh: Warehouse, opts: { command: string; runId?: string; now?: Date }): Promise<string> {
  const runId = opts.runId ?? newRunId(opts.now);
  await wh.run(`INSERT INTO runs (run_id, started_at, status, command) VALUES ($1, $2::TIMESTAMPTZ, 'running', $3)`,
    [runId, opts.now ?? new Date(), opts.command]);
  return runId;
}

/**
 * Closes the `runs` rows a dead process left `running` (SIGKILL, OOM, power cut): status `interrupted`,
 * finished_at left NULL (when it died is unknown), and a note in `summary` saying which run found it. Call it
 * at the start of a run, under the run lock: one run at a time, so every `running` row but the caller's own is
 * stale. Returns the run ids closed.
 */
export async function closeStaleRuns(wh: Warehouse, opts: { byRunId?: string } = {}): Promise<string[]> {
  const rows = await wh.all<{ run_id: string }>(`UPDATE runs SET status = 'interrupted',
      summary = coalesce(summary, json_object('interrupted', 'the process ended without finishing the run (killed or crashed)', 'noticed_by', $1::VARCHAR))
    WHERE status = 'running' AND run_id IS DISTINCT FROM $1 RETURNING run_id`, [opts.byRunId ?? null]);
  return rows.map((r) => r.run_id).sort();
}

interface RunTotals {
  /** Final status: 'ok', 'partial', 'usage-error', ... (RunStatus, pipeline/outcome.ts) */
  status: string;
  calls?: number;
  callsByStatus?: Record<string, number>;
  documents?: number;
  rejected?: number;
  requestsSubmitted?: number;
  requestsCompleted?: number;
  lawsuits?: number;
  parties?: number;
  steps?: number;
  errors?: number;
  summary?: unknown;
  /** Finish time. Default now. */
  finishedAt?: Date;
  /** A night's source and, on a trackings night, what it did with the trackings (the `trackings` stage's counts). */
  tracking?: {
    source: string; created?: number; paused?: number; resumed?: number; runsRead?: number; responses?: number;
    /** The lawsuits' own trackings (lawsuit_cnj): made, before and after the night's reads, paused, resumed. */
    lawsuits?: { created: number; paused: number; resumed: number };
  };
}

export async function finishRun(wh: Warehouse, runId: string, t: RunTotals): Promise<void> {
  await wh.run(`UPDATE runs SET finished_at = $2::TIMESTAMPTZ, status = $3, calls = $4, calls_by_status = $5::JSON,
      documents = $6, rejected = $7, requests_submitted = $8, requests_completed = $9, lawsuits = $10, parties = $11,
      steps = $12, errors = $13, summary = $14::JSON WHERE run_id = $1`,
  [runId, t.finishedAt ?? new Date(), t.status, t.calls, t.callsByStatus, t.documents, t.rejected, t.requestsSubmitted,
    t.requestsCompleted, t.lawsuits, t.parties, t.steps, t.errors, t.summary === undefined ? null : JSON.stringify(t.summary)]);
  if (t.tracking) {
    const k = t.tracking;
    await wh.run(`UPDATE runs SET source = $2, trackings_created = $3, trackings_paused = $4, trackings_resumed = $5,
        tracking_runs_read = $6, tracking_responses = $7, lawsuit_trackings_created = $8, lawsuit_trackings_paused = $9,
        lawsuit_trackings_resumed = $10 WHERE run_id = $1`,
    [runId, k.source, k.created ?? null, k.paused ?? null, k.resumed ?? null, k.runsRead ?? null, k.responses ?? null,
      k.lawsuits?.created ?? null, k.lawsuits?.paused ?? null, k.lawsuits?.resumed ?? null]);
  }
}

interface StageRow {
  stage: string;
  position: number;
  status: string;
  startedAt: Date;
  finishedAt?: Date;
  counts?: Record<string, number>;
  failures?: number;
  errorCode?: string | null;
  errorMessage?: string | null;
}

/**
 * Writes a stage's row (insert or replace). The runner writes it first when the stage starts, as
 * `interrupted` with no end, so that a run killed mid-stage leaves a true row behind, then again when it ends.
 */
export async function recordStage(wh: Warehouse, runId: string, row: StageRow): Promise<void> {
  await wh.run(`INSERT INTO run_stages (run_id, stage, position, status, started_at, finished_at, counts, failures, error_code, error_message)
    VALUES ($1, $2, $3, $4, $5::TIMESTAMPTZ, $6::TIMESTAMPTZ, $7::JSON, $8, $9, $10)
    ON CONFLICT (run_id, stage) DO UPDATE SET status = excluded.status, finished_at = excluded.finished_at, counts = excluded.counts,
      failures = excluded.failures, error_code = excluded.error_code, error_message = excluded.error_message`,
  [runId, row.stage, row.position, row.status, row.startedAt, row.finishedAt ?? null, row.counts ?? {}, row.failures ?? 0,
    row.errorCode ?? null, row.errorMessage ?? null]);
}

interface RequestRow {
  request_id: string;
  search_type?: string | null;
  search_key?: string | null;
  on_demand?: boolean | null;
  lawsuit_instance?: number | null;
  status?: string | null;
  created_at?: Ts;
  completed_at?: Ts;
  run_id?: string | null;
  document_line?: number | null;
  /** The search object as sent (no secrets in it). */
  search?: unknown;
  submitted_at?: Ts;
  last_polled_at?: Ts;
  error?: string | null;
  /** A lawsuit-level read: how far each instance's header said the lawsuit had gone when it was bought. */
  basis?: ReadBasis | null;
  /** The body asked for attachments beside the search (its top level). */
  with_attachments?: boolean | null;
}

/** A lawsuit-level read's basis (requests.basis): by instance, the header's last step and steps counted. */
export type ReadBasis = Record<string, { step_id: string | null; steps_count: number | null }>;

const REQUEST_COLUMNS = ['search_type', 'search_key', 'on_demand', 'lawsuit_instance', 'status', 'created_at', 'completed_at',
  'run_id', 'document_line', 'search', 'submitted_at', 'last_polled_at', 'error', 'basis', 'with_attachments'] as const;
/** Columns holding JSON, written as its text. */
const JSON_COLUMNS = new Set<string>(['search', 'basis']);
const CASTS: Partial<Record<string, string>> = {
  created_at: '::TIMESTAMPTZ', completed_at: '::TIMESTAMPTZ', submitted_at: '::TIMESTAMPTZ', last_polled_at: '::TIMESTAMPTZ', search: '::JSON', basis: '::JSON',
};

/**
 * Inserts a request, or updates the fields given (a field left undefined keeps its stored value). `isNew`: the
 * caller has just seen the ledger hold no such id (submit.ts), so a plain INSERT: DuckDB's ON CONFLICT DO UPDATE
 * took 7.8 ms a row against 2.5 for the INSERT (300 rows, 2026-11-28), paid once a request, 26,000 times on a
 * night of 10,000 individuals read whole.
 */
export async function upsertRequest(wh: Warehouse, row: RequestRow, isNew = false): Promise<void> {
  const params = [row.request_id, ...REQUEST_COLUMNS.map((c) => (JSON_COLUMNS.has(c) && row[c] !== undefined && row[c] !== null
    ? JSON.stringify(row[c]) : row[c]))];
  const given = REQUEST_COLUMNS.filter((c) => row[c] !== undefined);
  const conflict = isNew ? '' : `ON CONFLICT (request_id) DO ${given.length === 0 ? 'NOTHING' : `UPDATE SET ${given.map((c) => `${c} = excluded.${c}`).join(', ')}`}`;
  await wh.run(`INSERT INTO requests (request_id, ${REQUEST_COLUMNS.join(', ')})
    VALUES ($1, ${REQUEST_COLUMNS.map((c, i) => `$${i + 2}${CASTS[c] ?? ''}`).join(', ')}) ${conflict}`, params);
}

/** Updates some fields of a known request (status, completed_at, last_polled_at, error, ...). */
export async function markRequest(wh: Warehouse, requestId: string, fields: Omit<Partial<RequestRow>, 'request_id'>): Promise<void> {
  const cols = REQUEST_COLUMNS.filter((c) => fields[c] !== undefined);
  if (cols.length === 0) return;
  const values = cols.map((c) => (JSON_COLUMNS.has(c) && fields[c] !== null ? JSON.stringify(fields[c]) : fields[c]));
  await wh.run(`UPDATE requests SET ${cols.map((c, i) => `${c} = $${i + 2}${CASTS[c] ?? ''}`).join(', ')} WHERE request_id = $1`,
    [requestId, ...values]);
}

/** Records a request seen completed: its status, and when (the provider's updated_at, else now). */
export async function markCompleted(wh: Warehouse, req: Pick<RequestObject, 'request_id' | 'status' | 'updated_at'>): Promise<void> {
  // One UPDATE: a transaction of its own already (a BEGIN and COMMIT around it cost 0.6 ms more, once a request).
  await markRequest(wh, req.request_id, { status: req.status, completed_at: req.updated_at ?? new Date().toISOString(), last_polled_at: new Date() });
}

export interface Rejection { line: number; value: string | null; reason: string }

/**
 * Records the rejected lines of a documents list: appended to a staging table and inserted in one statement,
 * so that any number of them fits in bounded memory (one INSERT ... ON CONFLICT per line, in one transaction,
 * exhausted DuckDB's 128 MB at some 700 lines). Idempotent per (run, line). Returns the rows inserted.
 */
export async function recordRejections(wh: Warehouse, runId: string, rejections: readonly Rejection[], source: string): Promise<number> {
  if (rejections.length === 0) return 0;
  return wh.transaction(async () => {
    await wh.run('CREATE OR REPLACE TEMP TABLE stg_rejections (line INTEGER, value VARCHAR, reason VARCHAR)');
    await appendRows(wh, 'stg_rejections', rejections, (a, r) => {
      a.appendInteger(r.line);
      if (r.value === null) a.appendNull(); else a.appendVarchar(r.value);
      a.appendVarchar(r.reason);
    });
    // One row per line: a list that names a line twice keeps its first reason, as the row-by-row insert did.
    const n = await wh.run(`INSERT INTO rejected_inputs (run_id, line, value, reason, source, rejected_at)
      SELECT $1, line, arg_min(value, rowid), arg_min(reason, rowid), $2, current_timestamp FROM stg_rejections GROUP BY line
      ON CONFLICT DO NOTHING`, [runId, source]);
    await wh.run('DROP TABLE stg_rejections');
    return n;
  });
}
