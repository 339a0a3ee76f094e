import cron, { type ScheduledTask, type TaskContext } from 'node-cron';
import type { Logger } from 'pino';
import { catchUpReason } from './catch-up.js';
import type { JobSpec } from './job-loader.js';
import type { Reason } from './job-queue.js';
import type { JobState } from './state.js';

// Each job's cron expression as a node-cron task that puts an occurrence in line; an occurrence node-cron
// reports missed (the process was paused past it) is put in line when the catch-up rules say so.

interface CronOptions {
  log: Logger;
  now: () => Date;
  /** The jobs' saved state, as it is when an occurrence is missed. */
  stateOf(job: string): JobState | undefined;
  /** An occurrence later than this is reported missed instead of run. */
  missedToleranceMs: number;
  enqueue(job: JobSpec, reason: Reason): void;
}

export function cronTasks(jobs: readonly JobSpec[], opts: CronOptions): ScheduledTask[] {
  const cronLog = opts.log.child({ component: 'node-cron' });
  const logger = {
    info: (m: string) => cronLog.debug(m),
    warn: (m: string) => cronLog.warn(m),
    error: (m: string | Error, err?: Error) => cronLog.error({ err: err ?? m }, String(m)),
    debug: (m: string | Error) => cronLog.debug(String(m)),
  };
  return jobs.map((job) => {
    const task = cron.schedule(job.cron, () => opts.enqueue(job, 'scheduled'), {
      name: job.name, timezone: job.timezone, missedExecutionTolerance: opts.missedToleranceMs, logger,
    });
    task.on('execution:missed', (ctx: TaskContext) => {
      const why = catchUpReason(job, opts.stateOf(job.name), opts.now(), ctx.date);
      opts.log.warn({ event: 'job.missed', job: job.name, occurrence: ctx.date.toISOString(), catch_up: why ?? null },
        `${job.name}: missed the occurrence of ${ctx.dateLocalIso}${why ? ', running it now' : ''}`);
      if (why) opts.enqueue(job, `catch-up:${why}`);
    });
    return task;
  });
}
