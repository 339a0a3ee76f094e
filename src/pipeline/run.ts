import type { DocumentsList } from '../input/documents.js';
import { failpoint } from '../shared/failpoint.js';
import { finishRun } from '../warehouse/ledger.js';
import type { RunContext } from './context.js';
import { searchDocuments } from './nightly.js';
import type { PollOptions } from './poll.js';
import { apiSummary, searchFailures, statusOf, transferFailures, type RunSummary } from './summary.js';
import { runTransfer, type TransferSummary } from './transfer.js';
import { exportParquet } from '../warehouse/export.js';
import { detectChanges } from '../warehouse/changes.js';

/** The transfer-file step with the run's context: the `transfer` command and the step of `run` alike. */
export function transferStep(ctx: RunContext): Promise<TransferSummary> {
  return runTransfer({
    api: ctx.api.transfer, wh: ctx.wh, stagingDir: ctx.cfg.stagingDir, runId: ctx.runId, log: ctx.log, signal: ctx.signal,
    progress: (event, n) => ctx.progress?.('files', event, n), onLoaded: () => failpoint('transfer.after-load'),
  });
}

/** Records the end of a command that is not a nightly run (`transfer`, `query`, `track`) in `runs`. */
export async function finishCommand(ctx: RunContext, fields: { errors: number; summary: unknown; documents?: number; rejected?: number }): Promise<void> {
  const stats = ctx.api.stats();
  await ctx.wh.transaction(() => finishRun(ctx.wh, ctx.runId, {
    status: fields.errors ? 'partial' : 'ok', calls: stats.calls, callsByStatus: stats.byStatus, ...fields,
  }));
}

export interface NightlyOptions { poll?: PollOptions; command?: string }

/** One nightly run: documents -> requests -> responses -> warehouse -> transfer files -> exports. */
export async function runNightly(ctx: RunContext, list: DocumentsList, opts: NightlyOptions = {}): Promise<RunSummary> {
  const started = new Date();
  const search = await searchDocuments(ctx, list, opts.poll);
  const failures = searchFailures(search);
  const summary: RunSummary = {
    runId: ctx.runId,
    command: opts.command ?? 'run',
    status: 'ok',
    startedAt: started.toISOString(),
    finishedAt: '',
    durationMs: 0,
    documents: {
      listed: list.documents.length + list.rejected.length + list.duplicates.length,
      valid: list.documents.length,
      rejected: list.rejected.length,
      duplicates: list.duplicates.length,
      fresh: search.plan.fresh.length,
      toSearch: search.plan.submit.length,
      resumed: search.plan.resume.length,
    },
    requests: {
      submitted: search.submitted, adopted: search.adopted, resubmittedCancelled: search.resubmittedCancelled, completed: search.completed,
      stillRunning: search.stillRunning, failed: search.failures.length, pages: search.pages, polls: search.polls,
    },
    warehouse: { lawsuitsThisRun: 0, lawsuits: 0, parties: 0, lawyers: 0, steps: 0, responses: 0 },
    api: apiSummary(ctx.api.stats()),
    failures,
  };
  if (ctx.cfg.dryRun) {
    summary.status = 'dry-run';
    const byType: Record<string, number> = {};
    for (const p of search.plan.submit) byType[p.search.search_type] = (byType[p.search.search_type] ?? 0) + 1;
    summary.plan = {
      expectedCalls: search.plan.expectedCalls, onDemand: search.plan.onDemand, byType,
      rejected: list.rejected.map((r) => ({ line: r.line, reason: r.reason })),
    };
    return finish(ctx, summary, started, false);
  }

  failpoint('run.after-search');
  if (!ctx.cfg.skipTransfer && !ctx.signal.aborted) {
    const t = await transferStep(ctx);
    summary.transfer = { listed: t.listed, loaded: t.loaded, skipped: t.skipped, failed: t.failed.length, rows: t.rows };
    failures.push(...transferFailures(t));
  }
  if (!search.interrupted && !ctx.signal.aborted) {
    const changes = await detectChanges(ctx.wh, ctx.runId);
    summary.changes = { counts: changes.counts, top: changes.top };
  }
  if (!ctx.cfg.skipExport && !ctx.signal.aborted) {
    const ex = await exportParquet(ctx.wh, ctx.cfg.exportDir);
    summary.exports = { tables: ex.tables.length, rows: ex.tables.reduce((n, t) => n + t.rows, 0), dir: ctx.cfg.exportDir };
  }
  summary.status = statusOf({ failures, interrupted: search.interrupted, stillRunning: search.stillRunning });
  return finish(ctx, summary, started, true);
}

async function finish(ctx: RunContext, s: RunSummary, started: Date, record: boolean): Promise<RunSummary> {
  const finished = new Date();
  s.finishedAt = finished.toISOString();
  s.durationMs = finished.getTime() - started.getTime();
  s.api = apiSummary(ctx.api.stats());
  const [w] = await ctx.wh.all<Record<string, number>>(`SELECT
      (SELECT count(*) FROM lawsuits WHERE last_seen_run = $1) AS lawsuits_this_run,
      (SELECT count(*) FROM lawsuits) AS lawsuits, (SELECT count(*) FROM parties) AS parties,
      (SELECT count(*) FROM lawyers) AS lawyers, (SELECT count(*) FROM steps) AS steps,
      (SELECT count(*) FROM responses_raw) AS responses`, [ctx.runId]);
  s.warehouse = {
    lawsuitsThisRun: Number(w.lawsuits_this_run), lawsuits: Number(w.lawsuits), parties: Number(w.parties),
    lawyers: Number(w.lawyers), steps: Number(w.steps), responses: Number(w.responses),
  };
  if (record) {
    await ctx.wh.transaction(() => finishRun(ctx.wh, ctx.runId, {
      status: s.status, calls: s.api.calls, callsByStatus: s.api.byStatus, documents: s.documents.valid, rejected: s.documents.rejected,
      requestsSubmitted: s.requests.submitted, requestsCompleted: s.requests.completed, lawsuits: s.warehouse.lawsuitsThisRun,
      parties: s.warehouse.parties, steps: s.warehouse.steps, errors: s.failures.length, summary: s, finishedAt: finished,
    }));
  }
  return s;
}
