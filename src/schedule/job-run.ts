import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { readCommandEnd } from '../pipeline/command-end.js';
import type { RunSummary } from '../pipeline/summary.js';
import { readLiveHolder } from '../shared/lock.js';
import type { JobRunner } from './child-runner.js';
import type { JobSpec } from './job-loader.js';
import { jobOutcomeOf, stateAfter } from './job-outcome.js';
import type { Reason } from './job-queue.js';
import type { RunEnd } from './metrics.js';
import { writeState, type JobOutcome, type ScheduleState } from './state.js';

// One occurrence of a job, from its start to its record: look at its run lock, start its command, read how the
// command said it ended, decide the outcome (job-outcome.ts), keep it in the state and tell the metrics.

interface JobRunDeps {
  runner: JobRunner;
  log: Logger;
  now: () => Date;
  /** The run lock the job's command will take; undefined: none is looked at. */
  lockOf(job: JobSpec): string | undefined;
  /** A folder of this process's own, for the files the commands write their end to. */
  endsDir: string;
  /** Aborted when the scheduler stops: the running command is told to stop. */
  stopping: AbortSignal;
  /** Aborted at the scheduler's second SIGTERM: the running command is told again. */
  hurry: AbortSignal;
  /** The state, kept in memory (for /healthz) and written after each run. */
  state: ScheduleState;
  statePath: string;
  /** Told of each start and end; its faults are its own. */
  tell: { runStarted(job: string): void; runEnded(job: string, end: RunEnd): void };
}

/** The function that runs one occurrence of a job, with `deps`. */
export function jobRun(deps: JobRunDeps): (job: JobSpec, reason: Reason) => Promise<void> {
  let seq = 0;
  return async (job, reason) => {
    const started = deps.now();
    const t0 = Date.now();
    const lock = deps.lockOf(job);
    const holder = lock === undefined ? undefined : await readLiveHolder(lock);
    if (holder) {
      deps.log.warn({ event: 'job.end', job: job.name, reason, outcome: 'skipped-locked', holder }, `${job.name}: skipped, another run holds the lock (pid ${holder.pid}, ${holder.command})`);
      return record(deps, job, { outcome: 'skipped-locked', started, durationMs: 0 });
    }
    deps.log.info({ event: 'job.start', job: job.name, command: job.command, args: job.args, reason }, `${job.name}: start (${reason})`);
    deps.tell.runStarted(job.name);
    const endPath = join(deps.endsDir, `${job.name}-${++seq}.json`);
    let exitStatus: number;
    try {
      // A run still going after its job's period is stopped (the next occurrence carries on): a child that hangs
      // must not hold the queue, and every later night, for ever.
      exitStatus = (await deps.runner(job, { signal: deps.stopping, hurry: deps.hurry, summaryPath: endPath, deadlineMs: job.period_hours * 3_600_000 })).code;
    } catch (e) {
      deps.log.error({ event: 'job.end', job: job.name, outcome: 'failed', err: e, duration_ms: Date.now() - t0 }, `${job.name}: could not run`);
      return record(deps, job, { outcome: 'failed', exitStatus: -1, started, durationMs: Date.now() - t0 });
    }
    const said = await takeEnd(endPath);
    const outcome = jobOutcomeOf(exitStatus, said.status, deps.stopping.aborted);
    const line = { event: 'job.end', job: job.name, reason, code: exitStatus, outcome, duration_ms: Date.now() - t0, ...(said.summary?.runId ? { run_id: said.summary.runId } : {}) };
    const msg = `${job.name}: end, exit ${exitStatus} (${outcome})`;
    if (outcome === 'ok' || outcome === 'partial') deps.log.info(line, msg);
    else deps.log.warn(line, msg);
    return record(deps, job, { outcome, exitStatus, started, durationMs: Date.now() - t0, summary: said.summary });
  };
}

async function record(deps: JobRunDeps, job: JobSpec, end: { outcome: JobOutcome; exitStatus?: number; started: Date; durationMs: number; summary?: RunSummary }): Promise<void> {
  const state = stateAfter(deps.state.jobs[job.name] ?? {}, { ...end, ended: deps.now() });
  deps.state.jobs[job.name] = state;
  deps.tell.runEnded(job.name, { outcome: end.outcome, code: end.exitStatus, durationMs: end.durationMs, state, summary: end.summary });
  try {
    await writeState(deps.statePath, deps.state);
  } catch (e) {
    deps.log.error({ event: 'schedule.state_write_failed', err: e }, `cannot write ${deps.statePath}`);
  }
}

/** What the command left at `path` of its end (then removed); nothing when it wrote none (it died, or is not ours). */
async function takeEnd(path: string): Promise<ReturnType<typeof readCommandEnd>> {
  try {
    return readCommandEnd(JSON.parse(await readFile(path, 'utf8')) as unknown);
  } catch {
    return {};
  } finally {
    await rm(path, { force: true });
  }
}
