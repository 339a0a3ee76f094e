import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScheduler, type Scheduler } from '../../src/schedule/scheduler.js';
import { captureLog, workspace } from './fixtures.js';
import type { JobRunner } from '../../src/schedule/child-runner.js';

// A container paused overnight: node-cron's timer fires hours late, node-cron only reports the occurrence as
// missed, and the scheduler must run the job itself. Fake timers jump the clock as the pause would.

let stopMe: Scheduler | undefined;
let root: string | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await stopMe?.stop();
  stopMe = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
});

async function pausedOver(fromIso: string, lastSuccessIso: string, pauseHours: number, nextOccurrenceIso: string) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date(fromIso) });
  const ws = workspace({ nightly: { cron: '0 2 * * *', period_hours: 24 } });
  root = ws.root;
  mkdirSync(dirname(ws.statePath), { recursive: true });
  writeFileSync(ws.statePath, JSON.stringify({ version: 1, jobs: { nightly: { last_success_started_at: lastSuccessIso } } }));
  const ran: Date[] = [];
  const runner: JobRunner = async () => { ran.push(new Date()); return { code: 0 }; };
  const { log, lines } = captureLog();
  stopMe = await startScheduler({ ...ws, runner, log });
  expect(ran).toHaveLength(0); // fresh at start
  // The pause: wall time jumps while no timer runs. Fake timers keep pending timers relative to the jump, so
  // advancing by the original wait makes node-cron's timer fire `pauseHours` late, as after a real pause.
  vi.setSystemTime(new Date(new Date(fromIso).getTime() + pauseHours * 3_600_000));
  await vi.advanceTimersByTimeAsync(Date.parse(nextOccurrenceIso) - Date.parse(fromIso) + 1_000);
  vi.useRealTimers();
  await stopMe.whenIdle();
  return { ran, lines: lines() };
}

describe('an occurrence missed while the process was paused', () => {
  it('is logged and the job runs at once when its last success predates the occurrence', async () => {
    // 01:30 in São Paulo (UTC-3) on the 20th; last success at 02:00 on the 19th; paused until 03:30.
    const { ran, lines } = await pausedOver('2026-11-20T04:30:00.000Z', '2026-11-19T05:00:10.000Z', 2, '2026-11-20T05:00:00.000Z');
    const missed = lines.find((l) => l.event === 'job.missed');
    expect(missed).toMatchObject({ job: 'nightly', occurrence: '2026-11-20T05:00:00.000Z', level: 40 });
    expect(missed!.catch_up).not.toBeNull();
    expect(ran).toHaveLength(1);
    expect(lines.find((l) => l.event === 'job.start')!.reason).toMatch(/^catch-up:/);
  });

  it('runs once for several occurrences missed in one long pause', async () => {
    // Paused 26 h from 01:30 on the 20th: the 02:00 occurrences of the 20th and the 21st are both missed.
    const { ran, lines } = await pausedOver('2026-11-20T04:30:00.000Z', '2026-11-19T05:00:10.000Z', 26, '2026-11-20T05:00:00.000Z');
    expect(lines.filter((l) => l.event === 'job.missed').map((l) => l.occurrence)).toEqual(['2026-11-20T05:00:00.000Z', '2026-11-21T05:00:00.000Z']);
    expect(ran).toHaveLength(1);
  });
});
