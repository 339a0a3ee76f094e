import type { Logger } from 'pino';
import { loadConfig, type Config, type ConfiguredCommand } from '../shared/config.js';
import { EtlError, isEtlError } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { printable } from '../shared/printable.js';
import type { CommandEnd } from '../pipeline/command-end.js';
import { runCommand as runPipelineCommand, type CommandResult } from '../pipeline/runner.js';
import { formatSummary } from '../pipeline/summary.js';
import { writeRunReports } from '../report/run-reports.js';
import { queryKindOf, type QueryKind } from '../pipeline/sync.js';
import { runSandboxCli } from './sandbox-args.js';
import { runScheduleCli } from '../schedule/command.js';
import { doctorLines, runDoctor } from '../pipeline/doctor.js';
import { EXIT, exitCodeOf, troubleOf, type ExitCode } from './exit-codes.js';
import { handOff } from './hand-off.js';
import { runReporter } from './run-reporter.js';
import { configureJobs } from './job-configs.js';
import type { Parsed } from './program.js';
import { prepareEnvironment } from './environment.js';
import { gracefulShutdown } from './shutdown.js';

// argv -> command -> exit code: parse, configure, hand the command to the pipeline's runner, print what it
// returns, map how it ended to the exit code (exit-codes.ts), and tell a scheduler that started it how it ended
// (hand-off.ts). Nothing else happens here.

export async function runCommand(args: Parsed): Promise<ExitCode> {
  const command = args.command;
  if (command === 'sandbox') {
    try {
      await runSandboxCli(args.rest);
    } catch (e) {
      if (e instanceof RangeError) throw new EtlError('CLI_BAD_FLAGS', `sandbox: ${e.message}`, { usage: true });
      throw e;
    }
    return EXIT.ok;
  }
  if (command === 'schedule') {
    await runScheduleCli(args.rest, { configure: configureJobs });
    return EXIT.ok;
  }
  if (command === 'receive') return (await import('./receive.js')).receiveCommand(args);
  const cfg = loadConfig({ flags: args.flags, command });
  const log = logger();
  log.level = cfg.logLevel;
  try {
    const end = await dispatch(command, args, cfg, log);
    handOff(cfg.summaryFile, end, log);
    return exitCodeOf(end.status);
  } catch (e) {
    handOff(cfg.summaryFile, { command, status: troubleOf(e), ...(isEtlError(e) ? { code: e.code } : {}) }, log);
    throw e;
  }
}

async function dispatch(command: Exclude<ConfiguredCommand, 'schedule' | 'receive'>, args: Parsed, cfg: Config, log: Logger): Promise<CommandEnd> {
  if (command === 'report') return writeReportsAgain(args, cfg);
  if (command === 'doctor') return doctor(cfg, log);
  // commander has checked --kind against its choices already
  const kind = command === 'query' ? queryKindOf(String(args.flags.kind)) : undefined;
  const graceful = gracefulShutdown({ graceMs: cfg.shutdownGraceMs, log, exit: (code) => endAtOnce(cfg, command, code, log) });
  let result: CommandResult;
  try {
    result = await runPipelineCommand({
      command, cfg, kind, log, signal: graceful.signal, environment: prepareEnvironment, exitCodeOf, reporter: runReporter(cfg.reportsDir),
    });
  } finally {
    graceful.dispose();
  }
  process.stdout.write(`${printed(result, kind)}\n`);
  if (result.exitCode !== EXIT.ok) process.stderr.write(`lawsuit-etl: ${verdict(result)}\n`);
  return result.summary;
}

/** A run that did not end within its grace period, or was told twice: the scheduler still learns it was stopped. */
function endAtOnce(cfg: Config, command: string, code: number, log: Logger): void {
  handOff(cfg.summaryFile, { command, status: 'interrupted' }, log);
  process.exit(code);
}

/** `doctor`: what the upstream accepts, in plain lines on a terminal and one JSON object otherwise. */
async function doctor(cfg: Config, log: Logger): Promise<CommandEnd> {
  const env = await prepareEnvironment(cfg);
  const graceful = gracefulShutdown({ graceMs: cfg.shutdownGraceMs, log });
  try {
    const report = await runDoctor(env.cfg, { apiKey: env.apiKey, log, signal: graceful.signal });
    process.stdout.write(`${process.stdout.isTTY ? doctorLines(report) : JSON.stringify(report)}\n`);
    return { command: 'doctor', status: 'ok' };
  } finally {
    graceful.dispose();
    await env.close();
  }
}

/** `report [--run ID]`: a run's reports (Markdown and HTML) written again from what the warehouse kept of it. */
async function writeReportsAgain(args: Parsed, cfg: Config): Promise<CommandEnd> {
  const r = await writeRunReports({ warehouse: cfg.warehouse, reportsDir: cfg.reportsDir, runId: typeof args.flags.run === 'string' ? args.flags.run : undefined });
  process.stdout.write(`${r.markdown}\n${r.html}\n`);
  return { command: 'report', status: 'ok' };
}

function printed(r: CommandResult, kind: QueryKind | undefined): string {
  const s = r.summary;
  if (s.status === 'dry-run' && s.command !== 'run') {
    const d = s.stages.find((x) => x.name === 'documents')?.counts ?? {};
    const cost = s.command === 'track' ? `${d.valid ?? 0} creations at most, after listing the trackings`
      : s.command === 'query' ? `${d.valid ?? 0} calls` : 'a listing, then a record, a download and a mark per file not yet loaded';
    return `${s.command}${kind ? ` --kind ${kind}` : ''} --dry-run: nothing was sent; ${d.valid ?? 0} documents, ${d.rejected ?? 0} rejected; would cost ${cost}`;
  }
  return formatSummary(s);
}

/** One line for standard error when the exit code is not 0: what went wrong, where to look. */
function verdict(r: CommandResult): string {
  const o = r.outcome;
  if (o.status === 'refused') {
    const stage = r.summary.stages.find((s) => s.status === 'refused' && s.error);
    return `${printable(stage?.error?.message ?? 'the API key was refused', 500)} [${stage?.error?.code ?? 'API_UNAUTHORIZED'}]`;
  }
  const items = o.failures.filter((f) => f.what !== 'stage').length;
  const parts = [...o.troubled, ...(items ? [`${items} ${items === 1 ? 'item' : 'items'} failed`] : [])];
  return `${o.status}: ${parts.join(', ') || 'see the summary'} (the summary above and the runs / run_stages tables list them)`;
}
