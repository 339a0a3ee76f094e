import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobRunner } from '../../src/schedule/child-runner.js';
import { startScheduler, type Scheduler } from '../../src/schedule/scheduler.js';
import { captureLog, recordingRunner, releasedAfterEach, type Workspace } from './fixtures.js';

const EARLIER = '2026-11-01T05:00:00.000Z';
const held = releasedAfterEach<Scheduler>();

function setup(): Workspace {
  const ws = held.workspace({ nightly: { cron: '0 2 * * *', period_hours: 24 } });
  mkdirSync(dirname(ws.statePath), { recursive: true });
  writeFileSync(ws.statePath, JSON.stringify({ version: 1, jobs: { nightly: { last_success_started_at: EARLIER } } }));
  return ws;
}
const stateOf = (p: string) => JSON.parse(readFileSync(p, 'utf8')).jobs.nightly;
// A live holder on this host that is not this process: the test runner's parent.
const liveHolder = () => JSON.stringify({ pid: process.ppid, hostname: hostname(), command: 'run', started_at: new Date().toISOString() });

describe('outcome of a run and the last success', () => {
  it('a failed run (exit 1) leaves the last success as it was', async () => {
    const ws = setup();
    const { runner, runs } = recordingRunner(5, () => 1);
    const { log, lines } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log });
    await held.running.whenIdle();
    expect(runs).toHaveLength(1);
    expect(stateOf(ws.statePath)).toMatchObject({ last_success_started_at: EARLIER, last_exit_code: 1, last_outcome: 'failed' });
    expect(lines().find((l) => l.event === 'job.end')).toMatchObject({ code: 1, outcome: 'failed', level: 40 });
  });

  it('a runner that cannot start the command is a failure too', async () => {
    const ws = setup();
    const { log } = captureLog();
    held.running = await startScheduler({ ...ws, runner: async () => { throw new Error('spawn ENOENT'); }, log });
    await held.running.whenIdle();
    expect(stateOf(ws.statePath)).toMatchObject({ last_success_started_at: EARLIER, last_outcome: 'failed' });
  });

  it('a partial run (exit 4) counts as run', async () => {
    const ws = setup();
    const { runner } = recordingRunner(5, () => 4);
    const { log } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log });
    await held.running.whenIdle();
    const s = stateOf(ws.statePath);
    expect(s.last_outcome).toBe('partial');
    expect(s.last_success_started_at).not.toBe(EARLIER);
  });

  it('does not start the command while another process holds the run lock, and does not count it as run', async () => {
    const ws = setup();
    writeFileSync(ws.lockPath, liveHolder());
    const { runner, runs } = recordingRunner(5);
    const { log, lines } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log });
    await held.running.whenIdle();
    expect(runs).toHaveLength(0);
    expect(stateOf(ws.statePath)).toMatchObject({ last_success_started_at: EARLIER, last_outcome: 'skipped-locked' });
    expect(lines().find((l) => l.event === 'job.end')).toMatchObject({ outcome: 'skipped-locked', holder: { pid: process.ppid } });
  });

  it('reads exit 75 as "skipped: another run holds the lock" when the command says so, the holder gone by the time it ended', async () => {
    const ws = setup();
    // The lock was taken by someone else between the scheduler's check and the command's own attempt, and that
    // run has ended since: the lock is free again when the command exits, and only the command can say it met it.
    const runner: JobRunner = async (job, ctx) => {
      writeFileSync(ctx.summaryPath, JSON.stringify({ command: job.command, status: 'locked', code: 'RUN_LOCKED' }));
      return { code: 75 };
    };
    const { log } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log });
    await held.running.whenIdle();
    expect(stateOf(ws.statePath)).toMatchObject({ last_success_started_at: EARLIER, last_exit_code: 75, last_outcome: 'skipped-locked', consecutive_failures: 0 });
  });

  it('reads exit 75 from a night where nothing reached the upstream as a failure, even while another run holds the lock when it ends', async () => {
    const ws = setup();
    // A run started by hand took the lock just after the scheduled one, which had found nothing reachable.
    const runner: JobRunner = async (job, ctx) => {
      writeFileSync(ws.lockPath, liveHolder());
      writeFileSync(ctx.summaryPath, JSON.stringify({ command: job.command, status: 'unreachable' }));
      return { code: 75 };
    };
    const { log } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log });
    await held.running.whenIdle();
    expect(stateOf(ws.statePath)).toMatchObject({ last_success_started_at: EARLIER, last_exit_code: 75, last_outcome: 'failed', consecutive_failures: 1 });
  });

  it('a command that died without saying how it ended is a failure, whatever its exit status', async () => {
    const ws = setup();
    const { log } = captureLog();
    held.running = await startScheduler({ ...ws, runner: async () => ({ code: 4 }), log });
    await held.running.whenIdle();
    expect(stateOf(ws.statePath)).toMatchObject({ last_success_started_at: EARLIER, last_exit_code: 4, last_outcome: 'failed', consecutive_failures: 1 });
  });

  it('reads exit 75 with no holder of the lock as a night where nothing reached the upstream: a failure, not a success', async () => {
    const ws = setup();
    const { runner } = recordingRunner(5, () => 75);
    const { log } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log });
    await held.running.whenIdle();
    expect(stateOf(ws.statePath)).toMatchObject({ last_success_started_at: EARLIER, last_exit_code: 75, last_outcome: 'failed', consecutive_failures: 1 });
  });
});
