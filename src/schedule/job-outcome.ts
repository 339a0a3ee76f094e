import type { CommandStatus } from '../pipeline/command-end.js';
import type { JobOutcome, JobState } from './state.js';

// What a job's run was, from what its command said of its end and its exit status (pure). The command says it
// (CommandEnd, through the file the scheduler hands it): the exit status alone cannot tell "another run holds the
// lock" from "nothing reached the upstream", and looking at the lock afterwards raced its next holder.

/**
 * `ok`: the command exited 0. `partial`: it finished with some failures, or was stopped by SIGTERM after
 * publishing what it loaded. `skipped-locked`: another run held the lock, nothing was tried. `failed`: anything
 * else: it failed, nothing reached the upstream, it died without saying, or the scheduler stopped it.
 */
export function jobOutcomeOf(exitStatus: number, said: CommandStatus | string | undefined, stoppedByScheduler: boolean): JobOutcome {
  if (exitStatus === 0) return 'ok';
  if (stoppedByScheduler) return 'failed';
  if (said === 'partial' || said === 'interrupted') return 'partial';
  if (said === 'locked') return 'skipped-locked';
  return 'failed';
}

/** What the state keeps of a job after an attempt ended (pure). `exitStatus` undefined: no command was started. */
export function stateAfter(prev: JobState, end: { outcome: JobOutcome; exitStatus?: number; started: Date; ended: Date }): JobState {
  // A partial run did run: its failed documents are retried by the next occurrence, not by a catch-up.
  const success = end.outcome === 'ok' || end.outcome === 'partial';
  // A run skipped because another held the lock changes nothing of the count.
  const failures = success ? 0 : (prev.consecutive_failures ?? 0) + (end.outcome === 'failed' ? 1 : 0);
  return {
    ...prev,
    ...(success ? { last_success_started_at: end.started.toISOString(), last_success_ended_at: end.ended.toISOString() } : {}),
    // An occurrence skipped before its command started has no exit status: the last command's stays, as in the metric.
    last_ended_at: end.ended.toISOString(), last_exit_code: end.exitStatus ?? prev.last_exit_code, last_outcome: end.outcome,
    consecutive_failures: failures,
  };
}
