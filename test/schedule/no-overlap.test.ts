import { describe, expect, it } from 'vitest';
import { startScheduler, type Scheduler } from '../../src/schedule/scheduler.js';
import { captureLog, recordingRunner, releasedAfterEach, type RunRecord } from './fixtures.js';

const held = releasedAfterEach<Scheduler>();

function expectSerial(runs: RunRecord[]): void {
  const sorted = [...runs].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) expect(sorted[i].start).toBeGreaterThanOrEqual(sorted[i - 1].end);
}

describe('never two runs at once in one scheduler', () => {
  it('runs two jobs due at the same moment one after the other', async () => {
    const ws = held.workspace({ a: { cron: '0 2 * * *', period_hours: 24 }, b: { cron: '0 2 * * *', period_hours: 24, command: 'transfer' } });
    const { runner, runs } = recordingRunner(150);
    const { log, lines } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log });
    await held.running.whenIdle();
    expect(runs.map((r) => r.job).sort()).toEqual(['a', 'b']);
    expectSerial(runs);
    expect(lines().find((l) => l.event === 'job.queued')).toMatchObject({ behind: runs[0].job });
  });

  it('serialises real cron occurrences and skips an occurrence of a job still running', async () => {
    // Both jobs fire every second; each run takes 1.3 s, so occurrences pile up and must wait or be skipped.
    const ws = held.workspace({ a: { cron: '* * * * * *', period_hours: 24 }, b: { cron: '* * * * * *', period_hours: 24 } });
    const { runner, runs } = recordingRunner(1300);
    const { log, lines, until } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log });
    // until an occurrence was skipped and two runs ended, however long a loaded machine takes
    await until((ls) => ls.some((l) => l.event === 'job.skipped') && ls.filter((l) => l.event === 'job.end').length >= 2, 12_000);
    await held.running.stop();
    held.running = undefined;
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expectSerial(runs);
    expect(lines().some((l) => l.event === 'job.skipped')).toBe(true);
    const starts = lines().filter((l) => l.event === 'job.start').length;
    expect(starts).toBe(runs.length); // the stop waited for the run in progress
  }, 20_000);
});
