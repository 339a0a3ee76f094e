import type { JobSpec } from './job-loader.js';
import { lastSuccessMs, type ScheduleState } from './state.js';

// What `/healthz` answers, decided from the scheduler's own state: pure, so every rule is tested without a
// server or a clock. A job is unhealthy when its runs keep failing or when it has not succeeded for twice its
// period (one missed occurrence is a late night; two are an outage someone should look at).

interface HealthOptions {
  /** This many failed runs in a row make a job unhealthy. */
  maxFailures: number;
  /** When the scheduler started: a job that never succeeded is measured from here. */
  startedAt: Date;
}

interface JobHealth {
  job: string;
  healthy: boolean;
  /** Why not, in words. */
  problem?: string;
  last_success_started_at: string | null;
  consecutive_failures: number;
  /** After how long without a success the job counts as stale, in hours (twice its period). */
  stale_after_hours: number;
}

export interface HealthReport {
  status: 'ok' | 'unhealthy';
  /** One line per unhealthy job. */
  problems: string[];
  jobs: JobHealth[];
}

export function healthOf(jobs: readonly JobSpec[], state: ScheduleState, now: Date, opts: HealthOptions): HealthReport {
  const report: HealthReport = { status: 'ok', problems: [], jobs: [] };
  for (const job of jobs) {
    const s = state.jobs[job.name] ?? {};
    const failures = s.consecutive_failures ?? 0;
    const staleAfterMs = 2 * job.period_hours * 3_600_000;
    const last = lastSuccessMs(s);
    const since = last ?? opts.startedAt.getTime();
    let problem: string | undefined;
    if (failures >= opts.maxFailures) {
      problem = `${job.name}: the last ${failures} runs failed (last exit code ${s.last_exit_code ?? 'unknown'})`;
    } else if (now.getTime() - since > staleAfterMs) {
      problem = last === undefined
        ? `${job.name}: no successful run since the scheduler started ${hours(now.getTime() - since)} ago (more than twice its period of ${job.period_hours} h)`
        : `${job.name}: the last successful run started ${hours(now.getTime() - since)} ago, more than twice its period of ${job.period_hours} h`;
    }
    report.jobs.push({
      job: job.name, healthy: problem === undefined, ...(problem ? { problem } : {}),
      last_success_started_at: s.last_success_started_at ?? null, consecutive_failures: failures, stale_after_hours: staleAfterMs / 3_600_000,
    });
    if (problem) report.problems.push(problem);
  }
  if (report.problems.length) report.status = 'unhealthy';
  return report;
}

function hours(ms: number): string {
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
