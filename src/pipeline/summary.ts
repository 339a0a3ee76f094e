import type { ApiStats } from '../api/client.js';
import type { SearchStepResult } from './nightly.js';
import type { TransferSummary } from './transfer.js';
import { formatChanges, type ChangeRow } from '../warehouse/changes.js';

/** A run's outcome, printed at the end, stored in runs.summary and written to the Markdown report. */
export interface RunSummary {
  runId: string;
  command: string;
  status: 'ok' | 'partial' | 'interrupted' | 'failed' | 'dry-run';
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  documents: { listed: number; valid: number; rejected: number; duplicates: number; fresh: number; toSearch: number; resumed: number };
  requests: { submitted: number; adopted: number; resubmittedCancelled: number; completed: number; stillRunning: number; failed: number; pages: number; polls: number };
  warehouse: { lawsuitsThisRun: number; lawsuits: number; parties: number; lawyers: number; steps: number; responses: number };
  api: { calls: number; byStatus: Record<string, number>; retries: number };
  transfer?: { listed: number; loaded: number; skipped: number; failed: number; rows: number };
  exports?: { tables: number; rows: number; dir: string };
  failures: Array<{ what: string; where: string; code: string; reason: string }>;
  /** What changed since the previous run, per kind, and the most telling changes. */
  changes?: { counts: Record<string, number>; top: ChangeRow[] };
  /** Dry runs: what would be sent. */
  plan?: { expectedCalls: number; onDemand: number; byType: Record<string, number>; rejected: Array<{ line: number; reason: string }> };
}

export function statusOf(s: Pick<RunSummary, 'failures'> & { interrupted?: boolean; stillRunning?: number }): RunSummary['status'] {
  if (s.interrupted) return 'interrupted';
  return s.failures.length > 0 || (s.stillRunning ?? 0) > 0 ? 'partial' : 'ok';
}

export function searchFailures(r: SearchStepResult): RunSummary['failures'] {
  return r.failures.map((f) => ({ what: 'document', where: `line ${f.line} (${f.searchType})`, code: f.code, reason: f.reason }));
}

export function transferFailures(t: TransferSummary): RunSummary['failures'] {
  return t.failed.map((f) => ({ what: 'transfer file', where: `${f.name} (${f.id})`, code: 'TRANSFER_FAILED', reason: f.reason }));
}

export function apiSummary(s: ApiStats): RunSummary['api'] {
  return { calls: s.calls, byStatus: s.byStatus, retries: s.retries };
}

/** A dry run's plan: what would be sent and what it would cost. */
export function formatPlan(s: RunSummary): string {
  const d = s.documents;
  const p = s.plan!;
  const types = Object.entries(p.byType).map(([t, n]) => `${n} ${t}`).join(', ') || 'none';
  const lines = [
    `dry run: nothing was sent`,
    `  to search   ${d.toSearch} documents (${types}), ${p.onDemand} of them on_demand`,
    `  resumed     ${d.resumed} requests still outstanding from an earlier run (polled and read, not submitted again)`,
    `  skipped     ${d.fresh} searched less than LAWSUIT_FRESHNESS_DAYS ago (--force searches them), ${d.duplicates} duplicates`,
    `  rejected    ${d.rejected} lines`,
    ...p.rejected.slice(0, 20).map((r) => `              line ${r.line}: ${r.reason}`),
    `  cost        at least ${p.expectedCalls} API calls (one submission each, a polling call per 100 requests, one call per response page)`,
  ];
  return lines.join('\n');
}

/** The human summary printed at the end of a run (stdout). */
export function formatSummary(s: RunSummary): string {
  if (s.status === 'dry-run' && s.plan) return formatPlan(s);
  const d = s.documents;
  const r = s.requests;
  const w = s.warehouse;
  const calls = Object.entries(s.api.byStatus).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}: ${v}`).join(', ') || 'none';
  const lines = [
    `run ${s.runId} (${s.command}): ${s.status} in ${(s.durationMs / 1000).toFixed(1)} s`,
    `  documents  ${d.listed} listed, ${d.valid} valid, ${d.rejected} rejected, ${d.duplicates} duplicates, ${d.fresh} fresh (skipped), ${d.toSearch} searched, ${d.resumed} resumed`,
    `  requests   ${r.submitted} submitted, ${r.adopted} adopted after a crash, ${r.completed} completed, ${r.stillRunning} still running, ${r.failed} failed, ${r.resubmittedCancelled} resubmitted after cancel`,
    `  responses  ${r.pages} pages read, ${r.polls} polling calls`,
    `  warehouse  ${w.lawsuitsThisRun} lawsuits seen tonight; totals: ${w.lawsuits} lawsuits, ${w.parties} parties, ${w.lawyers} lawyers, ${w.steps} steps, ${w.responses} raw responses`,
    `  api calls  ${s.api.calls} (${calls}), ${s.api.retries} retries`,
  ];
  if (s.plan) lines.push(`  plan       at least ${s.plan.expectedCalls} calls, ${s.plan.onDemand} on_demand searches`);
  if (s.transfer) lines.push(`  transfer   ${s.transfer.listed} listed, ${s.transfer.loaded} loaded (${s.transfer.rows} rows), ${s.transfer.skipped} already loaded, ${s.transfer.failed} failed`);
  if (s.changes) lines.push(...formatChanges(s.changes));
  if (s.exports) lines.push(`  exports    ${s.exports.tables} tables, ${s.exports.rows} rows -> ${s.exports.dir}`);
  for (const f of s.failures.slice(0, 20)) lines.push(`  FAILED     ${f.what} ${f.where}: [${f.code}] ${f.reason}`);
  if (s.failures.length > 20) lines.push(`  ... and ${s.failures.length - 20} more failures (see the runs table)`);
  return lines.join('\n');
}
