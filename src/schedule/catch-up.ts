import type { JobSpec } from './job-loader.js';
import { lastSuccessMs, type JobState } from './state.js';

// node-cron 4 drops an occurrence that fires later than missedExecutionTolerance (a container paused overnight,
// a laptop asleep) and only reports it as missed. These rules decide, from the saved state, whether to run the
// job at once instead of waiting for the next occurrence.

type CatchUpReason = 'never-run' | 'older-than-period' | 'missed-occurrence';

/**
 * Why `job` is due now, or undefined when it is not. A never-run job is due; so is one whose last success started
 * more than `period_hours` ago. When `missedSlot` is given (an occurrence node-cron skipped), the job is also due
 * if its last success started before that occurrence: the occurrence was not served by any run.
 */
export function catchUpReason(job: Pick<JobSpec, 'period_hours'>, state: JobState | undefined, now: Date, missedSlot?: Date): CatchUpReason | undefined {
  const last = lastSuccessMs(state);
  if (last === undefined) return 'never-run';
  if (now.getTime() - last >= job.period_hours * 3_600_000) return 'older-than-period';
  if (missedSlot && last < missedSlot.getTime()) return 'missed-occurrence';
  return undefined;
}
