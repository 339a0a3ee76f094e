import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SUMMARY_FILE_VAR } from '../shared/config.js';
import type { JobSpec } from './job-loader.js';

// Each job runs as its own `lawsuit-etl <command>` process: a crash, a leak or a stuck DuckDB handle in one run
// cannot outlive it, and the child takes the run lock itself, exactly as a manual run would.

interface RunContext {
  /** Aborted when the scheduler is stopping: the run should end as soon as it safely can. */
  signal: AbortSignal;
  /** Aborted at the scheduler's second SIGTERM: the run is told again, and ends at once. */
  hurry?: AbortSignal;
  /**
   * The run's own deadline, in ms from its start: a run still going then is stopped as SIGTERM stops it (the
   * next occurrence carries on). Default none.
   */
  deadlineMs?: number;
  /**
   * Where the command should write its run summary (JSON), for the metrics: the child gets it as
   * LAWSUIT_SUMMARY_FILE. A run that writes none still counts, by its exit code.
   */
  summaryPath: string;
}

interface RunResult {
  /** Process exit code; 128 + signal number when the child was killed by a signal. */
  code: number;
}

/** Runs one job to its end. The default spawns the CLI; tests inject their own. */
export type JobRunner = (job: JobSpec, ctx: RunContext) => Promise<RunResult>;

interface ChildRunnerOptions {
  /** The CLI entry script. Default `../cli/main.js` next to this compiled file (dist/cli/main.js). */
  cliPath?: string;
  /** Node binary. Default `process.execPath`. */
  nodePath?: string;
  /**
   * After SIGTERM, wait this long before SIGKILL: the command's own grace period (Config.shutdownGraceMs) and
   * time to exit. Default 15 000 ms (the default grace of 10 s, and 5 s).
   */
  killAfterMs?: number;
  /** Environment of the child. Default `process.env` (the key file, addresses and paths pass through). */
  env?: NodeJS.ProcessEnv;
}

function defaultCliPath(): string {
  return fileURLToPath(new URL('../cli/main.js', import.meta.url));
}

export function childRunner(opts: ChildRunnerOptions = {}): JobRunner {
  const cliPath = opts.cliPath ?? defaultCliPath();
  const killAfterMs = opts.killAfterMs ?? 15_000;
  return (job, ctx) => new Promise<RunResult>((resolve, reject) => {
    const child = spawn(opts.nodePath ?? process.execPath, [cliPath, job.command, ...job.args], {
      env: { ...(opts.env ?? process.env), [SUMMARY_FILE_VAR]: ctx.summaryPath },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    let killTimer: NodeJS.Timeout | undefined;
    // Stopping: SIGTERM (the command publishes what it loaded within its grace period), SIGKILL once that is over.
    const stop = (): void => {
      if (killTimer) return;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    };
    const hurry = (): void => { child.kill('SIGTERM'); };
    const deadline = ctx.deadlineMs === undefined ? undefined : setTimeout(stop, ctx.deadlineMs);
    if (ctx.signal.aborted) stop();
    else ctx.signal.addEventListener('abort', stop, { once: true });
    ctx.hurry?.addEventListener('abort', hurry, { once: true });
    const done = (): void => {
      ctx.signal.removeEventListener('abort', stop);
      ctx.hurry?.removeEventListener('abort', hurry);
      clearTimeout(deadline);
      clearTimeout(killTimer);
    };
    child.once('error', (e) => {
      done();
      reject(e);
    });
    child.once('exit', (code, sig) => {
      done();
      resolve({ code: code ?? 128 + (sig ? constants.signals[sig] ?? 0 : 0) });
    });
  });
}
