import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { loadConfig, type Config } from '../shared/config.js';
import { ConfigError, EtlError, EXIT } from '../shared/errors.js';
import type { FlagSpec } from '../shared/flag-spec.js';
import { logger } from '../shared/logger.js';
import { defaultLockPath } from '../shared/lock.js';
import { childRunner, type JobRunner } from './child-runner.js';
import { loadJobs, type JobSpec } from './job-loader.js';
import { startScheduleService } from './service.js';

/** The flags of `schedule`, declared for the CLI's help; runScheduleCli reads exactly these. */
export const SCHEDULE_FLAGS: readonly FlagSpec[] = [
  { flag: '--jobs <dir>', help: 'the job files; env LAWSUIT_JOBS_DIR; default jobs/ of the installation' },
  { flag: '--state <file>', help: 'the last success of each job; env LAWSUIT_SCHEDULE_STATE; default data/schedule-state.json' },
  { flag: '--lock <file>', help: 'the run lock; env LAWSUIT_LOCK_FILE; default <warehouse>.lock' },
  { flag: '--metrics-port <n>', help: 'serve /healthz, /livez and Prometheus /metrics on port n (0: any free port); env LAWSUIT_METRICS_PORT; default off (LAWSUIT_METRICS_HOST: all interfaces)' },
];

export interface ScheduleCliDeps {
  /** Replaces the child-process runner (tests). */
  runner?: JobRunner;
  /** The CLI script a job's child process runs. Default dist/cli/main.js. */
  cliPath?: string;
  /** After forwarding SIGTERM to a running child, wait this long before SIGKILL. Default the grace period and 5 s. */
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
  let values: { jobs?: string; state?: string; lock?: string; 'metrics-port'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        jobs: { type: 'string' }, state: { type: 'string' }, lock: { type: 'string' }, 'metrics-port': { type: 'string' }, help: { type: 'boolean', short: 'h' },
      },
      strict: true, allowPositionals: false,
    }));
  } catch (e) {
    throw new EtlError('CLI_USAGE', `schedule: ${(e as Error).message} (lawsuit-etl schedule --help lists the flags)`, { exitCode: EXIT.usage });
  }
  // The command line reaches here through commander, which answers --help itself (src/cli/program.ts).
  if (values.help) throw new EtlError('CLI_USAGE', 'schedule: its help is lawsuit-etl schedule --help', { exitCode: EXIT.usage });
  const log = deps.log ?? logger();
  const jobsDir = values.jobs ?? env.LAWSUIT_JOBS_DIR ?? fileURLToPath(new URL('../../jobs', import.meta.url));
  const cfg = checkConfiguration(env, values['metrics-port'], jobsDir, deps.validate);
  const service = await startScheduleService({
    jobsDir,
    statePath: values.state ?? env.LAWSUIT_SCHEDULE_STATE ?? 'data/schedule-state.json',
    lockPath: values.lock ?? defaultLockPath(env),
    // The command has its grace period to publish and exit (Config.shutdownGraceMs); 5 s more, then SIGKILL.
    runner: deps.runner ?? childRunner({ cliPath: deps.cliPath, killAfterMs: deps.killAfterMs ?? cfg.shutdownGraceMs + 5_000 }),
    log,
    metricsPort: cfg.metricsPort,
    metricsHost: cfg.metricsHost,
    healthMaxFailures: cfg.healthMaxFailures,
  });

  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (sig: NodeJS.Signals): void => {
      if (stopping) {
        log.warn({ event: 'schedule.signal', signal: sig }, `${sig} again: the running command is told again and ends at once`);
        service.scheduler.hurry();
        return;
      }
      stopping = true;
      log.info({ event: 'schedule.signal', signal: sig }, `${sig}: stopping`);
      service.stop().then(
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

/**
 * The scheduler's own settings and the jobs' configuration, checked together: every problem of both at once
 * (a job-level problem that is the scheduler's too is listed once, with its jobs).
 */
function checkConfiguration(env: NodeJS.ProcessEnv, metricsPort: string | undefined, jobsDir: string, validate: ScheduleCliDeps['validate']): Config {
  const problems: string[] = [];
  let cfg: Config | undefined;
  try {
    cfg = loadConfig({ env, flags: { 'metrics-port': metricsPort }, command: 'schedule' });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    problems.push(...e.problems);
  }
  try {
    validate?.(loadJobs(jobsDir).filter((j) => j.enabled));
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const mine = problems.splice(0);
    problems.push(...mine.filter((p) => !e.problems.some((q) => q.startsWith(`${p} (jobs: `))), ...e.problems);
  }
  if (problems.length || !cfg) throw new ConfigError(problems);
  return cfg;
}
