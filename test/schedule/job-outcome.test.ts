import { describe, expect, it } from 'vitest';
import { jobOutcomeOf, stateAfter } from '../../src/schedule/job-outcome.js';

// What a job's run was, from its exit status and what its command said of its end (the file the scheduler hands
// it): the exit status alone cannot tell "another run holds the lock" (75, nothing tried) from "nothing reached
// the upstream" (75, a night that failed), and the lock looked at after the run may have a new holder.

describe('the outcome of a job run', () => {
  it.each([
    // exit, said, stopped by the scheduler, outcome
    [0, 'ok', false, 'ok'],
    [0, undefined, false, 'ok'],
    [4, 'partial', false, 'partial'],
    [4, 'interrupted', false, 'partial'],
    [75, 'locked', false, 'skipped-locked'],
    [75, 'unreachable', false, 'failed'],
    [75, undefined, false, 'failed'],
    [2, 'usage', false, 'failed'],
    [2, 'usage-error', false, 'failed'],
    // an end file of a command from before the run status usage-error had a name of its own
    [2, 'failed', false, 'failed'],
    [3, 'refused', false, 'failed'],
    [1, 'unexpected', false, 'failed'],
    // a run the scheduler stopped (its period over, or the scheduler stopping) did not do its night
    [4, 'interrupted', true, 'failed'],
    [0, 'ok', true, 'ok'],
  ] as const)('exit %s, said %s, stopped %s: %s', (exit, said, stopped, outcome) => {
    expect(jobOutcomeOf(exit, said, stopped)).toBe(outcome);
  });
});

describe('the state a job keeps after a run', () => {
  const started = new Date('2026-11-25T02:00:00Z');
  const ended = new Date('2026-11-25T02:30:00Z');
  const prev = { last_success_started_at: '2026-11-24T02:00:00Z', last_exit_code: 1, consecutive_failures: 2 };

  it.each([
    ['ok', 0, { last_success_started_at: started.toISOString(), last_success_ended_at: ended.toISOString(), last_exit_code: 0, consecutive_failures: 0 }],
    ['partial', 4, { last_success_started_at: started.toISOString(), last_exit_code: 4, consecutive_failures: 0 }],
    ['failed', 75, { last_success_started_at: prev.last_success_started_at, last_exit_code: 75, consecutive_failures: 3 }],
    // Skipped before its command started: no exit status of its own, the count of failures unchanged.
    ['skipped-locked', undefined, { last_success_started_at: prev.last_success_started_at, last_exit_code: 1, consecutive_failures: 2 }],
  ] as const)('%s (exit %s)', (outcome, exitStatus, expected) => {
    const s = stateAfter(prev, { outcome, exitStatus, started, ended });
    expect(s).toMatchObject({ ...expected, last_outcome: outcome, last_ended_at: ended.toISOString() });
  });
});
