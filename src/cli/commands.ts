import { loadConfig } from '../shared/config.js';
import { ConfigError, EtlError, EXIT, isEtlError, type ExitCode } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { printable } from '../shared/printable.js';
import { runCommand as runPipelineCommand, type CommandResult } from '../pipeline/runner.js';
import { formatSummary } from '../pipeline/summary.js';
import { writeRunReports } from '../report/run-reports.js';
import { queryKindOf, type QueryKind } from '../pipeline/sync.js';
import { runSandboxCli } from '../sandbox/cli.js';
import { runScheduleCli } from '../schedule/command.js';
import type { JobSpec } from '../schedule/job-loader.js';
import { parseCommandLine, type Parsed } from './program.js';
import { prepareEnvironment } from './environment.js';
import { gracefulShutdown } from './shutdown.js';
import { doctorLines, runDoctor } from '../pipeline/doctor.js';

// argv -> command -> exit code: parse, configure, hand the command to the pipeline's runner, print what it
// returns, map its outcome to the exit code. Nothing else happens here.

export async function runCommand(args: Parsed): Promise<ExitCode> {
  const command = args.command;
  if (command === 'sandbox') {
    try {
      await runSandboxCli(args.rest);
    } catch (e) {
      if (e instanceof RangeError) throw new EtlError('CLI_BAD_FLAGS', `sandbox: ${e.message}`, { exitCode: EXIT.usage });
      throw e;
    }
    return EXIT.ok;
  }
  if (command === 'schedule') return (await runScheduleCli(args.rest, { validate: validateJobs })) as ExitCode;

  if (command === 'report') return writeReportsAgain(args);
  if (command === 'doctor') return doctor(args);
  // commander has checked --kind against its choices already
  const kind = command === 'query' ? queryKindOf(String(args.flags.kind)) : undefined;
  const cfg = loadConfig({ flags: args.flags, command });
  const log = logger();
  log.level = cfg.logLevel;

  const graceful = gracefulShutdown({ graceMs: cfg.shutdownGraceMs, log });
  let result: CommandResult;
  try {
    result = await runPipelineCommand({ command, cfg, kind, log, signal: graceful.signal, environment: prepareEnvironment });
  } finally {
    graceful.dispose();
  }
  process.stdout.write(`${printed(result, kind)}\n`);
  if (result.exitCode !== EXIT.ok) process.stderr.write(`lawsuit-etl: ${verdict(result)}\n`);
  return result.exitCode;
}

/** The configuration every job will run with, checked at once: all problems, each job named once per problem. */
function validateJobs(jobs: JobSpec[]): void {
  const problems = new Map<string, string[]>();
  for (const job of jobs) {
    const found: string[] = [];
    try {
      const parsed = parseCommandLine([job.command, ...job.args]);
      loadConfig({ flags: parsed.flags, command: job.command });
    } catch (e) {
      if (e instanceof ConfigError) found.push(...e.problems);
      else found.push(isEtlError(e) ? e.message : String(e));
    }
    for (const p of found) problems.set(p, [...(problems.get(p) ?? []), job.name]);
  }
  if (problems.size > 0) throw new ConfigError([...problems].map(([p, names]) => `${p} (jobs: ${names.join(', ')})`));
}

/** `doctor`: what the upstream accepts, in plain lines on a terminal and one JSON object otherwise. */
async function doctor(args: Parsed): Promise<ExitCode> {
  const cfg = loadConfig({ flags: args.flags, command: 'doctor' });
  const log = logger();
  log.level = cfg.logLevel;
  const env = await prepareEnvironment(cfg);
  const graceful = gracefulShutdown({ graceMs: cfg.shutdownGraceMs, log });
  try {
    const report = await runDoctor(env.cfg, { apiKey: env.apiKey, log, signal: graceful.signal });
    process.stdout.write(`${process.stdout.isTTY ? doctorLines(report) : JSON.stringify(report)}\n`);
    return EXIT.ok;
  } finally {
    graceful.dispose();
    await env.close();
  }
}

/** `report [--run ID]`: a run's reports (Markdown and HTML) written again from what the warehouse kept of it. */
async function writeReportsAgain(args: Parsed): Promise<ExitCode> {
  const cfg = loadConfig({ flags: args.flags, command: 'report' });
  const r = await writeRunReports({ warehouse: cfg.warehouse, reportsDir: cfg.reportsDir, runId: typeof args.flags.run === 'string' ? args.flags.run : undefined });
  process.stdout.write(`${r.markdown}\n${r.html}\n`);
  return EXIT.ok;
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
