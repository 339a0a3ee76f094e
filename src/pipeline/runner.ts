import type { Logger } from 'pino';
import { readDocuments } from '../input/documents.js';
import type { Config } from '../shared/config.js';
import { acquireRunLock } from '../shared/lock.js';
import type { CommandStatus } from './command-end.js';
import { commandPlan, sourceOf, type CommandName } from './commands.js';
import { outcomeOf, type Outcome } from './outcome.js';
import { carryOn } from './resume.js';
import { asStored, recordRun, type RunRecord, type RunReporter, type WrittenReports } from './run-record.js';
import { openSession, type Session } from './session.js';
import type { NightData, StageResult } from './stage.js';
import { runStages } from './stage-runner.js';
import { summarise } from './summarise.js';
import type { RunSummary } from './summary.js';
import type { QueryKind } from './sync.js';

// A command from start to end, one step after the other: plan it, read the documents list, take the run lock,
// open the API and the warehouse, set right what earlier runs left, run the stages (the run's record written
// just before publish), derive the outcome once, write the reports, close. The summary, the `runs` row and the
// report come from the stage results (outcome.ts); the CLI prints the summary and exits with the code it chose.

/** Where the API is: the configured addresses and key, or an embedded sandbox (the CLI's to provide). */
export interface Environment { cfg: Config; apiKey: string; close(): Promise<void> }

interface CommandRequest {
  command: CommandName;
  cfg: Config;
  /** `query --kind K`. */
  kind?: QueryKind;
  log: Logger;
  /** Aborted on SIGTERM/SIGINT: stages stop taking new work, finish what is in hand, and the run ends. */
  signal: AbortSignal;
  /** Opens what the API calls go to; called only when the command sends something. */
  environment(cfg: Config): Promise<Environment>;
  /** The exit code of an end, recorded in the summary: the CLI's to decide (src/cli/exit-codes.ts). */
  exitCodeOf(status: CommandStatus): number;
  /** Writes the run's reports (src/report, the CLI's to hand in); none are written without one. */
  reporter?: RunReporter;
  /** Polling speeds (tests that drive the pipeline in-process). */
  pollTuning?: { minIntervalMs?: number; maxIntervalMs?: number };
  /** Lawsuit-level reads a part holds (tests that drive the pipeline in-process). */
  readsPerPart?: number;
}

export interface CommandResult {
  summary: RunSummary;
  outcome: Outcome;
  /** The summary's, as the CLI decided it. */
  exitCode: number;
  /** The run's Markdown and HTML reports, when they could be written. */
  reports?: WrittenReports;
}

export async function runCommand(req: CommandRequest): Promise<CommandResult> {
  const { cfg, log } = req;
  const started = new Date();
  const plan = commandPlan(req.command, { kind: req.kind, dryRun: cfg.dryRun, source: sourceOf(cfg) });
  const night: NightData = plan.readsList ? { list: await readDocuments(cfg.documents!) } : {};
  const lock = plan.locks ? await acquireRunLock(cfg.lockFile, { command: req.command }) : undefined;
  let env: Environment | undefined;
  let session: Session | undefined;
  try {
    env = plan.sends !== 'none' ? await req.environment(cfg) : undefined;
    session = await openSession(env?.cfg ?? cfg, { command: req.command, log, signal: req.signal, apiKey: env?.apiKey ?? '', readOnly: plan.readOnly, sends: plan.sends });
    const { ctx } = session;
    if (req.pollTuning) ctx.pollTuning = req.pollTuning;
    if (req.readsPerPart) ctx.readsPerPart = req.readsPerPart;
    const stages = await carryOn(session, plan.stages, { command: req.command, warehouse: cfg.warehouse, night, log });
    const run = {
      command: req.command, cfg, runId: ctx.runId, started, night, searches: plan.searches, exitCodeOf: req.exitCodeOf, wh: ctx.wh, log, reporter: req.reporter,
      apiStats: plan.sends !== 'none' ? () => ctx.api.stats() : undefined,
    };
    let record: Promise<RunRecord> | undefined;
    const results = await runStages(ctx, stages, night, {
      record: !plan.readOnly,
      beforeClosing: async (done, closing) => { await (record = recordRun(run, [...done, closing])); },
    });
    const recorded = plan.readOnly ? undefined : await (record ?? recordRun(run, results));
    const outcome = outcomeOf(results);
    const summary = summarise(run, results, outcome, recorded?.totals);
    const reports = recorded && req.reporter && await reportsOf(req.reporter, recorded, summary, results, log);
    return { summary, outcome, exitCode: summary.exitCode, reports };
  } finally {
    await session?.close();
    await env?.close();
    await lock?.release();
  }
}

/** The run's reports, made of its record as stored; when publish did not end ok as the record says, of the truth. */
async function reportsOf(reporter: RunReporter, record: RunRecord, summary: RunSummary, results: readonly StageResult[], log: Logger): Promise<WrittenReports | undefined> {
  const publishFailed = results.some((r) => r.name === 'publish' && r.status !== 'ok' && r.status !== 'skipped');
  const t0 = performance.now();
  const reports = await reporter.write(publishFailed ? asStored(summary) : record.stored, record.facts).catch((e: unknown) => {
    log.error({ err: e }, 'the run reports could not be written');
    return undefined;
  });
  if (reports) log.info({ report: reports.markdown, html: reports.html, ms: Math.round(performance.now() - t0) }, 'run reports written');
  return reports;
}

