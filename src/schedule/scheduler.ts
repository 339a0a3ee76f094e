import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { logger } from '../shared/logger.js';
import { catchUpReason } from './catch-up.js';
import { childRunner, type JobRunner } from './child-runner.js';
import { cronTasks } from './cron-tasks.js';
import { loadJobs, type JobSpec } from './job-loader.js';
import { JobQueue } from './job-queue.js';
import { jobRun } from './job-run.js';
import type { RunEnd } from './metrics.js';
import { readState, type JobState, type ScheduleState } from './state.js';

// The scheduler: the enabled jobs, their cron tasks and catch-up, one queue that runs one occurrence at a time
// (job-queue.ts), each occurrence run to its record (job-run.ts). What a run was is its command's to say
// (job-outcome.ts).

export interface SchedulerOptions {
  /** Folder of `*.json` job files. */
  jobsDir: string;
  /** Where the last success of each job is kept across restarts. */
  statePath: string;
  /** The run lock the child commands take, looked at before one is started. Default none. */
  lockPath?: string;
  /** Each job's own run lock, when its command takes another than `lockPath` (its own --warehouse). */
  lockOf?: (job: JobSpec) => string | undefined;
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

interface SchedulerObserver {
  /** The enabled jobs and their saved state, once loaded. */
  jobsLoaded(jobs: readonly JobSpec[], state: Record<string, JobState>): void;
  runStarted(job: string): void;
  runEnded(job: string, end: RunEnd): void;
}

interface SchedulerStatus {
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

export async function startScheduler(opts: SchedulerOptions): Promise<Scheduler> {
  const log = (opts.log ?? logger()).child({ component: 'schedule' });
  const now = opts.now ?? (() => new Date());
  const jobs = loadJobs(opts.jobsDir).filter((j) => j.enabled);
  const state: ScheduleState = await readState(opts.statePath, (msg) => log.warn({ event: 'schedule.state_unreadable' }, msg));
  const startedAt = now();
  // Each run's command writes how it ended here (RunContext.summaryPath); the folder is this process's own.
  const endsDir = await mkdtemp(join(tmpdir(), 'lawsuit-etl-summaries-'));
  const tell = toldSafely(opts.observer, log);
  tell.jobsLoaded(jobs, state.jobs);
  const stopping = new AbortController();
  const hurry = new AbortController();
  const queue = new JobQueue(jobRun({
    runner: opts.runner ?? childRunner(), log, now, lockOf: opts.lockOf ?? (() => opts.lockPath), endsDir,
    stopping: stopping.signal, hurry: hurry.signal, state, statePath: opts.statePath, tell,
  }), log);
  const tasks = cronTasks(jobs, { log, now, stateOf: (name) => state.jobs[name], missedToleranceMs: opts.missedToleranceMs ?? 60_000, enqueue: (j, r) => queue.enqueue(j, r) });
  log.info({ event: 'schedule.start', jobs: jobs.map((j, i) => ({ name: j.name, cron: j.cron, timezone: j.timezone, next: tasks[i].getNextRun()?.toISOString() ?? null })) }, `scheduler started with ${jobs.length} job(s)`);
  for (const job of jobs) {
    const why = catchUpReason(job, state.jobs[job.name], now());
    if (why) queue.enqueue(job, `catch-up:${why}`);
  }
  return {
    async stop() {
      if (!stopping.signal.aborted) {
        const dropped = queue.close();
        if (dropped.length) log.info({ event: 'schedule.dropped', jobs: dropped }, 'queued runs dropped on stop');
        stopping.abort();
        for (const t of tasks) await t.destroy();
      }
      await queue.onIdle();
      await rm(endsDir, { recursive: true, force: true });
      log.info({ event: 'schedule.stop' }, 'scheduler stopped');
    },
    hurry: () => hurry.abort(),
    whenIdle: () => queue.onIdle(),
    status: () => ({ jobs, state, startedAt }),
  };
}

/** The observer, each call guarded: the metrics watch the jobs, and a fault of theirs must never stop a job or its state. */
function toldSafely(observer: SchedulerObserver | undefined, log: Logger): SchedulerObserver {
  const safely = (what: string, fn: (o: SchedulerObserver) => void): void => {
    if (!observer) return;
    try {
      fn(observer);
    } catch (e) {
      log.warn({ event: 'schedule.metrics_failed', err: e }, `the metrics could not take ${what}`);
    }
  };
  return {
    jobsLoaded: (jobs, st) => safely('the jobs', (o) => o.jobsLoaded(jobs, st)),
    runStarted: (job) => safely(`${job}'s start`, (o) => o.runStarted(job)),
    runEnded: (job, end) => safely(`${job}'s end`, (o) => o.runEnded(job, end)),
  };
}
