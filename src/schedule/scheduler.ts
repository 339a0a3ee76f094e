import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import cron, { type ScheduledTask, type TaskContext } from 'node-cron';
import type { Logger } from 'pino';
import type { RunSummary } from '../pipeline/summary.js';
import { EXIT } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { readLiveHolder, RUN_LOCKED_EXIT } from '../shared/lock.js';
import { catchUpReason } from './catch-up.js';
import { childRunner, type JobRunner } from './child-runner.js';
import { loadJobs, type JobSpec } from './job-loader.js';
import type { RunEnd } from './metrics.js';
import { readState, writeState, type JobOutcome, type JobState, type ScheduleState } from './state.js';

// The jobs share one warehouse and one API key's rate budget, so they never run at the same time: every
// occurrence goes through one in-process queue, and the run lock (taken by each child) covers other processes.

export interface SchedulerOptions {
  /** Folder of `*.json` job files. */
  jobsDir: string;
  /** Where the last success of each job is kept across restarts. */
  statePath: string;
  /** The run lock the child commands take; used to tell "another run holds the lock" from a failure. Default none. */
  lockPath?: string;
  /** Runs one job to its end. Default: spawn `node dist/cli/main.js <command> <args>` (see child-runner.ts). */
  runner?: JobRunner;
  /** Default the root logger. */
  log?: Logger;
  /** Clock for catch-up decisions and state times. Default `() => new Date()`. */
  now?: () => Date;
  /**
   * An occurrence that fires later than this is reported missed by node-cron instead of run (then the catch-up
   * rule decides). Default 60 000 ms: a minute of timer lateness still counts as on time.
   */
  missedToleranceMs?: number;
  /** Told when a job starts and ends (the metrics). Default none. */
  observer?: SchedulerObserver;
}

export interface SchedulerObserver {
  /** The enabled jobs and their saved state, once loaded. */
  jobsLoaded(jobs: readonly JobSpec[], state: Record<string, JobState>): void;
  runStarted(job: string): void;
  runEnded(job: string, end: RunEnd): void;
}

export interface SchedulerStatus {
  /** The enabled jobs. */
  jobs: readonly JobSpec[];
  state: ScheduleState;
  startedAt: Date;
}

export interface Scheduler {
  /** Stop the cron tasks, drop queued runs, abort the running one and wait for it to end. */
  stop(): Promise<void>;
  /** A second SIGTERM while stopping: the running command is told again and ends at once. */
  hurry(): void;
  /** Resolves when nothing is running or queued (for tests and one-shot use). */
  whenIdle(): Promise<void>;
  /** The jobs and their state now (for /healthz). */
  status(): SchedulerStatus;
}

type Reason = 'scheduled' | `catch-up:${string}`;

export async function startScheduler(opts: SchedulerOptions): Promise<Scheduler> {
  const log = (opts.log ?? logger()).child({ component: 'schedule' });
  const now = opts.now ?? (() => new Date());
  const runner = opts.runner ?? childRunner();
  const jobs = loadJobs(opts.jobsDir).filter((j) => j.enabled);
  const state: ScheduleState = await readState(opts.statePath, (msg) => log.warn({ event: 'schedule.state_unreadable' }, msg));
  const startedAt = now();
  // Each run's command writes its summary here (RunContext.summaryPath); the folder is this process's own.
  const summaries = await mkdtemp(join(tmpdir(), 'lawsuit-etl-summaries-'));
  let runSeq = 0;
  // The metrics watch the jobs; a fault of theirs (a summary they cannot read) must never stop a job or its state.
  const tell = (what: string, fn: (o: SchedulerObserver) => void): void => {
    if (!opts.observer) return;
    try {
      fn(opts.observer);
    } catch (e) {
      log.warn({ event: 'schedule.metrics_failed', err: e }, `the metrics could not take ${what}`);
    }
  };
  tell('the jobs', (o) => o.jobsLoaded(jobs, state.jobs));

  const queue: Array<{ job: JobSpec; reason: Reason }> = [];
  const abort = new AbortController();
  const hurry = new AbortController();
  let current: { job: JobSpec; done: Promise<void> } | undefined;
  let stopping = false;
  let idleWaiters: Array<() => void> = [];

  const enqueue = (job: JobSpec, reason: Reason): void => {
    if (stopping) return;
    if (current?.job.name === job.name || queue.some((q) => q.job.name === job.name)) {
      log.info({ event: 'job.skipped', job: job.name, reason, why: current?.job.name === job.name ? 'already running' : 'already queued' }, `${job.name}: occurrence skipped, the job is already running or queued`);
      return;
    }
    if (current) log.info({ event: 'job.queued', job: job.name, reason, behind: current.job.name }, `${job.name}: waits for ${current.job.name} to end`);
    queue.push({ job, reason });
    pump();
  };

  const pump = (): void => {
    if (current || stopping) return;
    const next = queue.shift();
    if (!next) {
      const w = idleWaiters;
      idleWaiters = [];
      for (const f of w) f();
      return;
    }
    const done = runOne(next.job, next.reason).finally(() => {
      current = undefined;
      pump();
    });
    current = { job: next.job, done };
  };

  const runOne = async (job: JobSpec, reason: Reason): Promise<void> => {
    const started = now();
    const t0 = Date.now();
    if (opts.lockPath) {
      const holder = await readLiveHolder(opts.lockPath);
      if (holder) {
        log.warn({ event: 'job.end', job: job.name, reason, outcome: 'skipped-locked', holder }, `${job.name}: skipped, another run holds the lock (pid ${holder.pid}, ${holder.command})`);
        await record(job, started, 'skipped-locked', RUN_LOCKED_EXIT);
        return;
      }
    }
    log.info({ event: 'job.start', job: job.name, command: job.command, args: job.args, reason }, `${job.name}: start (${reason})`);
    tell(`${job.name}'s start`, (o) => o.runStarted(job.name));
    const summaryPath = join(summaries, `${job.name}-${++runSeq}.json`);
    let code: number;
    try {
      // A run still going after its job's period is stopped (the next occurrence carries on): a child that hangs
      // must not hold the queue, and every later night, for ever.
      code = (await runner(job, { signal: abort.signal, hurry: hurry.signal, summaryPath, deadlineMs: job.period_hours * 3_600_000 })).code;
    } catch (e) {
      log.error({ event: 'job.end', job: job.name, outcome: 'failed', err: e, duration_ms: Date.now() - t0 }, `${job.name}: could not run`);
      await record(job, started, 'failed', -1, Date.now() - t0);
      return;
    }
    const summary = await takeSummary(summaryPath);
    // 75 (try later) is either the lock taken between our look and the child's, or a night where nothing reached
    // the upstream: the holder tells which. The latter is a failure: the job's last success stays where it was.
    let outcome: JobOutcome = code === 0 ? 'ok' : code === EXIT.partial ? 'partial' : 'failed';
    if (code === RUN_LOCKED_EXIT && opts.lockPath && await readLiveHolder(opts.lockPath)) outcome = 'skipped-locked';
    if (abort.signal.aborted && code !== 0) outcome = 'failed';
    const line = { event: 'job.end', job: job.name, reason, code, outcome, duration_ms: Date.now() - t0, ...(summary ? { run_id: summary.runId } : {}) };
    const msg = `${job.name}: end, exit ${code} (${outcome})`;
    if (outcome === 'ok' || outcome === 'partial') log.info(line, msg);
    else log.warn(line, msg);
    await record(job, started, outcome, code, Date.now() - t0, summary);
  };

  const record = async (job: JobSpec, started: Date, outcome: JobOutcome, code: number, durationMs = 0, summary?: RunSummary): Promise<void> => {
    const ended = now().toISOString();
    const prev = state.jobs[job.name] ?? {};
    // A partial run (exit 4) did run: its failed documents are retried by the next occurrence, not by a catch-up.
    const success = outcome === 'ok' || outcome === 'partial';
    const failures = success ? 0 : (prev.consecutive_failures ?? 0) + (outcome === 'failed' ? 1 : 0);
    state.jobs[job.name] = {
      ...prev,
      ...(success ? { last_success_started_at: started.toISOString(), last_success_ended_at: ended } : {}),
      last_ended_at: ended, last_exit_code: code, last_outcome: outcome, consecutive_failures: failures,
    };
    tell(`${job.name}'s end`, (o) => o.runEnded(job.name, { outcome, code, durationMs, state: state.jobs[job.name], summary }));
    try {
      await writeState(opts.statePath, state);
    } catch (e) {
      log.error({ event: 'schedule.state_write_failed', err: e }, `cannot write ${opts.statePath}`);
    }
  };

  const cronLog = log.child({ component: 'node-cron' });
  const cronLogger = {
    info: (m: string) => cronLog.debug(m),
    warn: (m: string) => cronLog.warn(m),
    error: (m: string | Error, err?: Error) => cronLog.error({ err: err ?? m }, String(m)),
    debug: (m: string | Error) => cronLog.debug(String(m)),
  };
  const tasks: ScheduledTask[] = jobs.map((job) => {
    const task = cron.schedule(job.cron, () => enqueue(job, 'scheduled'), {
      name: job.name, timezone: job.timezone, missedExecutionTolerance: opts.missedToleranceMs ?? 60_000, logger: cronLogger,
    });
    task.on('execution:missed', (ctx: TaskContext) => {
      const why = catchUpReason(job, state.jobs[job.name], now(), ctx.date);
      log.warn({ event: 'job.missed', job: job.name, occurrence: ctx.date.toISOString(), catch_up: why ?? null }, `${job.name}: missed the occurrence of ${ctx.dateLocalIso}${why ? ', running it now' : ''}`);
      if (why) enqueue(job, `catch-up:${why}`);
    });
    return task;
  });
  log.info({ event: 'schedule.start', jobs: jobs.map((j) => ({ name: j.name, cron: j.cron, timezone: j.timezone, next: tasks[jobs.indexOf(j)].getNextRun()?.toISOString() ?? null })) }, `scheduler started with ${jobs.length} job(s)`);

  for (const job of jobs) {
    const why = catchUpReason(job, state.jobs[job.name], now());
    if (why) enqueue(job, `catch-up:${why}`);
  }

  return {
    async stop() {
      if (!stopping) {
        stopping = true;
        for (const t of tasks) await t.destroy();
        if (queue.length) log.info({ event: 'schedule.dropped', jobs: queue.map((q) => q.job.name) }, 'queued runs dropped on stop');
        queue.length = 0;
        abort.abort();
      }
      if (current) await current.done;
      await rm(summaries, { recursive: true, force: true });
      for (const f of idleWaiters.splice(0)) f();
      log.info({ event: 'schedule.stop' }, 'scheduler stopped');
    },
    hurry() {
      hurry.abort();
    },
    whenIdle() {
      if (!current && !queue.length) return Promise.resolve();
      return new Promise<void>((r) => idleWaiters.push(r));
    },
    status: () => ({ jobs, state, startedAt }),
  };
}

/** The summary a run's command left at `path` (then removed), or undefined: a command that died wrote none. */
async function takeSummary(path: string): Promise<RunSummary | undefined> {
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as RunSummary) : undefined;
  } catch {
    return undefined;
  } finally {
    await rm(path, { force: true });
  }
}
