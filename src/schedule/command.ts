import type { Logger } from 'pino';
import { LOCK_FILE_VAR, readConfiguration, type Config } from '../shared/config.js';
import { ConfigError, EtlError } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { readArgv } from '../shared/options/argv.js';
import { flagOptions } from '../shared/options/docs.js';
import type { Flags } from '../shared/options/read.js';
import { childRunner, type JobRunner } from './child-runner.js';
import { loadJobs, type JobSpec } from './job-loader.js';
import { startScheduleService, type ScheduleService } from './service.js';
import { openIntake } from '../intake/serve.js';

// `lawsuit-etl schedule`: its settings and every job's configuration checked at once, then the jobs served until
// SIGTERM or SIGINT. Its flags are the option table's (`flagOf: schedule`), read here because the scheduler also
// starts from its own entry in the tests.

interface ScheduleCliDeps {
  /** Replaces the child-process runner (tests). */
  runner?: JobRunner;
  /** The CLI script a job's child process runs. Default dist/cli/main.js. */
  cliPath?: string;
  /** After forwarding SIGTERM to a running child, wait this long before SIGKILL. Default the grace period and 5 s. */
  killAfterMs?: number;
  log?: Logger;
  env?: NodeJS.ProcessEnv;
  /**
   * The configuration each enabled job's command will run with (the CLI reads each job's arguments as the
   * command will), throwing a ConfigError that lists every problem: a container whose every job would exit 2 must
   * stop at once, not stay "Up". The scheduler looks at each job's own run lock through it.
   */
  configure?: (jobs: readonly JobSpec[], env: NodeJS.ProcessEnv) => ReadonlyMap<string, Config>;
}

/**
 * `lawsuit-etl schedule [flags]` (argv after the command name). Resolves once stopped by SIGTERM/SIGINT; throws a
 * usage error (bad flags, job files, configuration) before anything starts, or what went wrong while stopping.
 */
export async function runScheduleCli(argv: string[], deps: ScheduleCliDeps = {}): Promise<void> {
  const flags = scheduleFlags(argv);
  // `--lock` is the run lock of the scheduler and of every command it starts: they are given it as the variable.
  const env = typeof flags.lock === 'string' ? { ...(deps.env ?? process.env), [LOCK_FILE_VAR]: flags.lock } : deps.env ?? process.env;
  const log = deps.log ?? logger();
  const { cfg, jobs } = checkConfiguration(env, flags, deps.configure);
  // The webhook intake beside the jobs (LAWSUIT_CALLBACK_PORT): listening before any job starts, so that the
  // night a catch-up starts at once already has its deliveries written.
  const intake = cfg.callback.port === undefined ? undefined : await openIntake(cfg.callback, log);
  const service = await startScheduleService({
    jobsDir: cfg.jobsDir,
    statePath: cfg.statePath,
    lockPath: cfg.lockFile,
    // Where each job's own command will lock: beside the warehouse it names, or of the configuration.
    lockOf: jobs && ((job) => jobs.get(job.name)?.lockFile ?? cfg.lockFile),
    // The command has its grace period to publish and exit (Config.shutdownGraceMs); 5 s more, then SIGKILL.
    runner: deps.runner ?? childRunner({ cliPath: deps.cliPath, killAfterMs: deps.killAfterMs ?? cfg.shutdownGraceMs + 5_000, env }),
    log,
    metricsPort: cfg.metricsPort,
    metricsHost: cfg.metricsHost,
    healthMaxFailures: cfg.healthMaxFailures,
  }).catch(async (e: unknown) => { await intake?.stop(); throw e; });
  try {
    await untilSignalled(service, log);
  } finally {
    await intake?.stop();
  }
}

/** The schedule's flags by long name, as the configuration reads them. */
function scheduleFlags(argv: readonly string[]): Flags {
  const items = readArgv(argv, Object.fromEntries(flagOptions('schedule')));
  const problems = items.flatMap((i) => ('problem' in i ? [i.problem] : []));
  if (problems.length) throw new EtlError('CLI_USAGE', `schedule: ${problems.join('; ')} (lawsuit-etl schedule --help lists the flags)`, { usage: true });
  return Object.fromEntries(items.flatMap((i) => ('flag' in i ? [[i.flag.slice(2), i.value]] : [])));
}

/**
 * The scheduler's own settings and the jobs' configuration, checked together: every problem of both at once
 * (a job-level problem that is the scheduler's too is listed once, with its jobs).
 */
function checkConfiguration(env: NodeJS.ProcessEnv, flags: Flags, configure: ScheduleCliDeps['configure']): { cfg: Config; jobs?: ReadonlyMap<string, Config> } {
  const { cfg, problems } = readConfiguration({ env, flags, command: 'schedule' });
  let jobs: ReadonlyMap<string, Config> | undefined;
  try {
    jobs = configure?.(loadJobs(cfg.jobsDir).filter((j) => j.enabled), env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const mine = problems.splice(0);
    problems.push(...mine.filter((p) => !e.problems.some((q) => q.startsWith(`${p} (jobs: `))), ...e.problems);
  }
  if (problems.length) throw new ConfigError(problems);
  return { cfg, jobs };
}

/** Serves until SIGTERM or SIGINT, then stops; a second signal meanwhile tells the running command again. */
function untilSignalled(service: ScheduleService, log: Logger): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let stopping = false;
    const off = (): void => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    };
    function onSignal(sig: NodeJS.Signals): void {
      if (stopping) {
        log.warn({ event: 'schedule.signal', signal: sig }, `${sig} again: the running command is told again and ends at once`);
        service.scheduler.hurry();
        return;
      }
      stopping = true;
      log.info({ event: 'schedule.signal', signal: sig }, `${sig}: stopping`);
      service.stop().then(
        () => { off(); resolve(); },
        (e: unknown) => { log.error({ err: e }, 'error while stopping'); off(); reject(e); },
      );
    }
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
