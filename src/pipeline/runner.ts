import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { readDocuments } from '../input/documents.js';
import type { Config } from '../shared/config.js';
import { EXIT, type ExitCode } from '../shared/errors.js';
import { acquireRunLock, defaultLockPath, type RunLock } from '../shared/lock.js';
import { closeStaleRuns, finishRun } from '../warehouse/ledger.js';
import { Warehouse } from '../warehouse/warehouse.js';
import { readReportFacts } from '../report/facts.js';
import { asStored, writeReports, type ReportInput, type RunReports } from '../report/run-reports.js';
import { rebuildFirst, sourceOf, stagesFor, type CommandName } from './commands.js';
import { outcomeOf, type Outcome } from './outcome.js';
import { openSession, type Session } from './session.js';
import type { NightData, StageResult } from './stage.js';
import { runStages } from './stage-runner.js';
import { apiSummary, stageSummary, type RunSummary } from './summary.js';
import type { QueryKind } from './sync.js';

// A command from start to end: read the documents list (a list that cannot be read is a usage error, found
// before anything is opened), take the run lock, open the warehouse and the API, run the command's stages,
// record the run, publish, write the report. The summary, the `runs` row, the report and the exit code all
// come from the stage results (outcome.ts); the CLI only prints the summary and exits with the code.

/** Where the API is: the configured addresses and key, or an embedded sandbox (the CLI's to provide). */
export interface Environment { cfg: Config; apiKey: string; close(): Promise<void> }

export interface CommandRequest {
  command: CommandName;
  cfg: Config;
  /** `query --kind K`. */
  kind?: QueryKind;
  log: Logger;
  /** Aborted on SIGTERM/SIGINT: stages stop taking new work, finish what is in hand, and the run ends. */
  signal: AbortSignal;
  /** Opens what the API calls go to; called only when the command sends something. */
  environment(cfg: Config): Promise<Environment>;
  /** Polling speeds (tests that drive the pipeline in-process). */
  pollTuning?: { minIntervalMs?: number; maxIntervalMs?: number };
}

export interface CommandResult {
  summary: RunSummary;
  outcome: Outcome;
  exitCode: ExitCode;
  /** The run's Markdown and HTML reports, when they could be written. */
  reports?: RunReports;
}

export async function runCommand(req: CommandRequest): Promise<CommandResult> {
  const { cfg, log } = req;
  const started = new Date();
  const dryRun = cfg.dryRun;
  const stages = stagesFor(req.command, { kind: req.kind, dryRun, source: sourceOf(cfg) });
  const night: NightData = {};
  if (stages.some((s) => s.name === 'documents')) night.list = await readDocuments(cfg.documents!);
  const readOnly = dryRun || req.command === 'export';
  const sends = !dryRun && stages.some((s) => s.callsApi);

  const lock: RunLock | undefined = dryRun ? undefined : await acquireRunLock(defaultLockPath(process.env, cfg.warehouse), { command: req.command });
  let env: Environment | undefined;
  let session: Session | undefined;
  try {
    env = sends ? await req.environment(cfg) : undefined;
    session = await openSession(env?.cfg ?? cfg, { command: req.command, log, signal: req.signal, apiKey: env?.apiKey ?? '', readOnly });
    const ctx = session.ctx;
    if (req.pollTuning) ctx.pollTuning = req.pollTuning;
    if (session.writes) {
      // The run lock guarantees one run at a time: any other run still marked running was killed.
      const stale = await closeStaleRuns(ctx.wh, { byRunId: ctx.runId });
      if (stale.length > 0) log.warn({ runs: stale }, 'runs killed before they could finish are now recorded as interrupted');
    }
    if (session.resumed) {
      await reconcileUnpublished(ctx.wh, cfg.warehouse, ctx.runId, log);
      // A rebuild that did not finish left the derived tables half made: it is done again before anything else.
      if (req.command !== 'rebuild' && await unfinishedRebuild(ctx.wh, ctx.runId)) {
        log.warn('the work copy holds a rebuild that did not finish: it is done again first');
        stages.splice(0, stages.length, ...rebuildFirst(stages));
      }
    }
    if (session.recovery) (night.notes ??= []).push(session.recovery);

    let totals: RunSummary['warehouse'];
    let recorded = false;
    let reportInput: ReportInput | undefined;
    const record = async (results: readonly StageResult[]): Promise<void> => {
      if (readOnly) return;
      totals = await warehouseTotals(ctx.wh, ctx.runId);
      const draft = summarise(req, ctx.runId, started, results, night, totals, sends ? ctx.api.stats() : undefined);
      await finishRun(ctx.wh, ctx.runId, {
        status: draft.status, calls: draft.api.calls, callsByStatus: draft.api.byStatus, documents: night.list?.documents.length,
        rejected: night.list?.rejected.length, requestsSubmitted: results.find((r) => r.name === 'search')?.counts.submitted,
        requestsCompleted: results.find((r) => r.name === 'search')?.counts.completed, lawsuits: totals?.lawsuitsThisRun,
        parties: totals?.parties, steps: totals?.steps, errors: draft.failures.length, summary: draft, finishedAt: new Date(draft.finishedAt),
        tracking: trackingTotals(req, results),
      });
      recorded = true;
      // The reports are made of the run's record as stored, and of facts read now, while the night is still
      // open to this run: a report written again later from the published warehouse is then the same file.
      const facts = await readReportFacts(ctx.wh, ctx.runId).catch((e: unknown) => {
        log.error({ err: e }, 'the facts of the run report could not be read; the report goes without them');
        return undefined;
      });
      reportInput = { summary: asStored(draft), facts };
    };
    const results = await runStages(ctx, stages, night, {
      record: !readOnly,
      // The run's record goes into the night it describes, with publish counted as done; a run that dies
      // while publishing is found out by the next one (reconcileUnpublished).
      beforeClosing: (done, closing) => record([...done, closing]),
    });
    if (!recorded && !readOnly) await record(results);
    const summary = summarise(req, ctx.runId, started, results, night, totals, sends ? ctx.api.stats() : undefined);
    const outcome = outcomeOf(results);
    // For the scheduler that started this command (its metrics); see Config.summaryFile.
    if (cfg.summaryFile) await writeFile(cfg.summaryFile, JSON.stringify(summary)).catch((e: unknown) => log.warn({ err: e }, 'the run summary could not be handed to the scheduler'));
    let reports: RunReports | undefined;
    if (!readOnly) {
      // The record says publish ended ok (it is written just before); when it did not, the report tells the truth.
      const publishFailed = results.some((r) => r.name === 'publish' && r.status !== 'ok' && r.status !== 'skipped');
      const input = reportInput && !publishFailed ? reportInput : { summary: asStored(summary), facts: reportInput?.facts };
      const t0 = performance.now();
      reports = await writeReports(cfg.reportsDir, input).catch((e: unknown) => {
        log.error({ err: e }, 'the run reports could not be written');
        return undefined;
      });
      if (reports) log.info({ report: reports.markdown, html: reports.html, ms: Math.round(performance.now() - t0) }, 'run reports written');
    }
    return { summary, outcome, exitCode: dryRun ? EXIT.ok : outcome.exitCode, reports };
  } finally {
    await session?.close();
    await env?.close();
    await lock?.release();
  }
}

function summarise(
  req: CommandRequest, runId: string, started: Date, results: readonly StageResult[], night: NightData,
  warehouse: RunSummary['warehouse'], api: Parameters<typeof apiSummary>[0],
): RunSummary {
  const finished = new Date();
  const outcome = outcomeOf(results);
  const s: RunSummary = {
    runId, command: req.command, status: req.cfg.dryRun ? 'dry-run' : outcome.status, exitCode: req.cfg.dryRun ? EXIT.ok : outcome.exitCode,
    startedAt: started.toISOString(), finishedAt: finished.toISOString(), durationMs: finished.getTime() - started.getTime(),
    stages: stageSummary(results), warehouse, api: apiSummary(api), failures: outcome.failures,
  };
  if (req.command === 'run') s.source = sourceOf(req.cfg);
  if (night.changes) s.changes = night.changes;
  const notes = [...(night.list?.warnings ?? []), ...(night.notes ?? [])];
  if (notes.length) s.notes = notes;
  if (night.exportDir) s.exportDir = night.exportDir;
  if (req.cfg.dryRun && night.plan && night.list) {
    const byType: Record<string, number> = {};
    for (const p of night.plan.submit) byType[p.search.search_type] = (byType[p.search.search_type] ?? 0) + 1;
    s.plan = { byType, rejected: night.list.rejected.map((r) => ({ line: r.line, reason: r.reason })) };
  }
  return s;
}

/** A night's source, and what its trackings stage did (the `runs` row's tracking figures); none for other commands. */
function trackingTotals(req: CommandRequest, results: readonly StageResult[]) {
  if (req.command !== 'run') return undefined;
  const c = results.find((r) => r.name === 'trackings')?.counts;
  return {
    source: sourceOf(req.cfg), created: c?.trackings_created, paused: c?.trackings_paused, resumed: c?.trackings_resumed,
    runsRead: c?.tracking_runs_read, responses: c?.tracking_responses,
  };
}

async function warehouseTotals(wh: Warehouse, runId: string): Promise<NonNullable<RunSummary['warehouse']>> {
  const [w] = await wh.all<Record<string, number>>(`SELECT
      (SELECT count(*) FROM lawsuits WHERE last_seen_run = $1) AS lawsuits_this_run,
      (SELECT count(*) FROM lawsuits) AS lawsuits, (SELECT count(*) FROM parties) AS parties,
      (SELECT count(*) FROM lawyers) AS lawyers, (SELECT count(*) FROM steps) AS steps,
      (SELECT count(*) FROM responses_raw) AS responses`, [runId]);
  return {
    lawsuitsThisRun: Number(w.lawsuits_this_run), lawsuits: Number(w.lawsuits), parties: Number(w.parties),
    lawyers: Number(w.lawyers), steps: Number(w.steps), responses: Number(w.responses),
  };
}

/**
 * True when the newest rebuild on this work copy did not end ok: killed (its stage row still says
 * `interrupted`), failed or stopped, whether it ran as `rebuild` or first in another command.
 */
async function unfinishedRebuild(wh: Warehouse, current: string): Promise<boolean> {
  const [last] = await wh.all<{ status: string }>(
    `SELECT status FROM run_stages WHERE stage = 'rebuild' AND run_id <> $1 ORDER BY started_at DESC LIMIT 1`, [current]);
  return last !== undefined && last.status !== 'ok';
}

/**
 * A work copy left by an earlier run means that run never published it, whatever its rows say: a run records
 * its publish as done just before the rename, and may have died or failed right there. The runs the published
 * file does not know are therefore set right: their publish, and the run, `interrupted`.
 */
async function reconcileUnpublished(wh: Warehouse, publishedPath: string, currentRun: string, log: Logger): Promise<void> {
  let published: string[] = [];
  if (existsSync(publishedPath)) {
    const pub = await Warehouse.open(publishedPath, { readOnly: true }).catch(() => undefined);
    if (pub) {
      try {
        published = (await pub.all<{ run_id: string }>('SELECT run_id FROM runs')).map((r) => r.run_id);
      } catch {
        published = [];
      } finally {
        await pub.close();
      }
    }
  }
  const known = new Set(published);
  const ids = (await wh.all<{ run_id: string }>('SELECT run_id FROM runs WHERE run_id <> $1', [currentRun])).map((r) => r.run_id).filter((id) => !known.has(id));
  if (ids.length === 0) return;
  const list = 'list_contains(from_json($1::JSON, \'["VARCHAR"]\'), run_id)';
  const fixedStages = await wh.run(`UPDATE run_stages SET status = 'interrupted', error_code = 'RUN_NOT_PUBLISHED',
      error_message = 'the run ended before its work copy was published; a later run carried it on'
    WHERE stage = 'publish' AND status = 'ok' AND ${list}`, [ids]);
  const fixedRuns = await wh.run(`UPDATE runs SET status = 'interrupted', finished_at = coalesce(finished_at, current_timestamp)
    WHERE ${list} AND run_id IN (SELECT run_id FROM run_stages WHERE error_code = 'RUN_NOT_PUBLISHED')`, [ids]);
  if (fixedStages + fixedRuns > 0) log.warn({ runs: ids.slice(0, 10), fixed_stages: fixedStages, fixed_runs: fixedRuns }, 'earlier runs that did not publish are now recorded as interrupted');
}
