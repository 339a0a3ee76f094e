import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SUMMARY_FILE_VAR } from '../shared/config.js';
import type { JobSpec } from './job-loader.js';

// Each job runs as its own `lawsuit-etl <command>` process: a crash, a leak or a stuck DuckDB handle in one run
// cannot outlive it, and the child takes the run lock itself, exactly as a manual run would.

export interface RunContext {
  /** Aborted when the scheduler is stopping: the run should end as soon as it safely can. */
  signal: AbortSignal;
  /**
   * Where the command should write its run summary (JSON), for the metrics: the child gets it as
   * LAWSUIT_SUMMARY_FILE. A run that writes none still counts, by its exit code.
   */
  summaryPath: string;
}

export interface RunResult {
  /** Process exit code; 128 + signal number when the child was killed by a signal. */
  code: number;
}

/** Runs one job to its end. The default spawns the CLI; tests inject their own. */
export type JobRunner = (job: JobSpec, ctx: RunContext) => Promise<RunResult>;

export interface ChildRunnerOptions {
  /** The CLI entry script. Default `../cli/main.js` next to this compiled file (dist/cli/main.js). */
  cliPath?: string;
  /** Node binary. Default `process.execPath`. */
  nodePath?: string;
  /** After SIGTERM on abort, wait this long before SIGKILL. Default 300 000 ms (5 min). */
  killAfterMs?: number;
  /** Environment of the child. Default `process.env` (the key file, addresses and paths pass through). */
  env?: NodeJS.ProcessEnv;
}

export function defaultCliPath(): string {
  return fileURLToPath(new URL('../cli/main.js', import.meta.url));
}

export function childRunner(opts: ChildRunnerOptions = {}): JobRunner {
  const cliPath = opts.cliPath ?? defaultCliPath();
  const killAfterMs = opts.killAfterMs ?? 300_000;
  return (job, ctx) => new Promise<RunResult>((resolve, reject) => {
    const child = spawn(opts.nodePath ?? process.execPath, [cliPath, job.command, ...job.args], {
      env: { ...(opts.env ?? process.env), [SUMMARY_FILE_VAR]: ctx.summaryPath },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (e) => {
      ctx.signal.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.once('exit', (code, sig) => {
      ctx.signal.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      resolve({ code: code ?? 128 + (sig ? constants.signals[sig] ?? 0 : 0) });
    });
  });
}
