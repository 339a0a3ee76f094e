import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { EtlError, EXIT } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { defaultLockPath } from '../shared/lock.js';
import { childRunner, type JobRunner } from './child-runner.js';
import { loadJobs, type JobSpec } from './job-loader.js';
import { startScheduler } from './scheduler.js';

export const SCHEDULE_HELP = `usage: lawsuit-etl schedule [--jobs DIR] [--state FILE] [--lock FILE]

Runs the jobs under jobs/ on their cron expressions until SIGTERM or SIGINT, one run at a time.
  --jobs DIR     job files                 env LAWSUIT_JOBS_DIR, default jobs/ of the installation
  --state FILE   last success of each job  env LAWSUIT_SCHEDULE_STATE, default data/schedule-state.json
  --lock FILE    the run lock              env LAWSUIT_LOCK_FILE, default <warehouse>.lock
On start, and after an occurrence missed while the process was paused, a job whose last success is older
than its period_hours runs at once. On SIGTERM the running command gets SIGTERM and is waited for
(SIGKILL after 5 minutes); the scheduler then exits 0.`;

export interface ScheduleCliDeps {
  /** Replaces the child-process runner (tests). */
  runner?: JobRunner;
  /** The CLI script a job's child process runs. Default dist/cli/main.js. */
  cliPath?: string;
  /** After forwarding SIGTERM to a running child, wait this long before SIGKILL. Default 300 000 ms. */
  killAfterMs?: number;
  log?: Logger;
  env?: NodeJS.ProcessEnv;
  /**
   * Checks the configuration each enabled job's command will run with, throwing a ConfigError (exit 2) that
   * lists every problem: a container whose every job would exit 2 must stop at once, not stay "Up".
   */
  validate?: (jobs: JobSpec[]) => void;
}

/**
 * `lawsuit-etl schedule [flags]` (argv after the command name). Resolves with the exit code once stopped by
 * SIGTERM/SIGINT (0), or throws an EtlError (bad flags: exit 2; bad job files: ConfigError, exit 2).
 */
export async function runScheduleCli(argv: string[], deps: ScheduleCliDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  let values: { jobs?: string; state?: string; lock?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { jobs: { type: 'string' }, state: { type: 'string' }, lock: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true, allowPositionals: false,
    }));
  } catch (e) {
    throw new EtlError('CLI_USAGE', `schedule: ${(e as Error).message}\n${SCHEDULE_HELP}`, { exitCode: EXIT.usage });
  }
  if (values.help) {
    process.stdout.write(SCHEDULE_HELP + '\n');
    return EXIT.ok;
  }
  const log = deps.log ?? logger();
  const jobsDir = values.jobs ?? env.LAWSUIT_JOBS_DIR ?? fileURLToPath(new URL('../../jobs', import.meta.url));
  deps.validate?.(loadJobs(jobsDir).filter((j) => j.enabled));
  const scheduler = await startScheduler({
    jobsDir,
    statePath: values.state ?? env.LAWSUIT_SCHEDULE_STATE ?? 'data/schedule-state.json',
    lockPath: values.lock ?? defaultLockPath(env),
    runner: deps.runner ?? childRunner({ cliPath: deps.cliPath, killAfterMs: deps.killAfterMs }),
    log,
  });

  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (sig: NodeJS.Signals): void => {
      if (stopping) {
        log.warn({ event: 'schedule.signal', signal: sig }, `${sig} again: still waiting for the running command to end`);
        return;
      }
      stopping = true;
      log.info({ event: 'schedule.signal', signal: sig }, `${sig}: stopping`);
      scheduler.stop().then(
        () => { off(); resolve(EXIT.ok); },
        (e: unknown) => { log.error({ err: e }, 'error while stopping'); off(); resolve(EXIT.unexpected); },
      );
    };
    const off = (): void => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
