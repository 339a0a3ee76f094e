import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catchUpReason } from '../../src/schedule/catch-up.js';
import { startScheduler, type Scheduler } from '../../src/schedule/scheduler.js';
import { captureLog, recordingRunner, releasedAfterEach } from './fixtures.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const hoursAgo = (h: number): string => new Date(NOW.getTime() - h * 3_600_000).toISOString();

const held = releasedAfterEach<Scheduler>();

function seed(statePath: string, jobs: Record<string, object>): void {
  mkdirSync(dirname(statePath), { recursive: true });
  writeFileSync(statePath, JSON.stringify({ version: 1, jobs }));
}

describe('catch-up rule', () => {
  const job = { period_hours: 24 };
  it('runs a job never run, or whose last success started a period or more ago', () => {
    expect(catchUpReason(job, undefined, NOW)).toBe('never-run');
    expect(catchUpReason(job, { last_success_started_at: hoursAgo(24) }, NOW)).toBe('older-than-period');
    expect(catchUpReason(job, { last_success_started_at: hoursAgo(23.9) }, NOW)).toBeUndefined();
  });
  it('after a missed occurrence, runs a job whose last success started before that occurrence', () => {
    const last = { last_success_started_at: hoursAgo(10) };
    expect(catchUpReason(job, last, NOW, new Date(NOW.getTime() - 2 * 3_600_000))).toBe('missed-occurrence');
    expect(catchUpReason(job, last, NOW, new Date(NOW.getTime() - 11 * 3_600_000))).toBeUndefined();
  });
});

describe('catch-up when the scheduler starts', () => {
  it('runs at once the jobs whose last success is older than their period, and records the new success', async () => {
    const ws = held.workspace({
      nightly: { cron: '0 2 * * *', period_hours: 24 },
      hourly: { cron: '15 * * * *', period_hours: 1, command: 'transfer' },
      weekly: { cron: '0 6 * * 1', period_hours: 168, command: 'query', args: ['--kind', 'count'] },
    });
    seed(ws.statePath, {
      nightly: { last_success_started_at: hoursAgo(30) },
      hourly: { last_success_started_at: hoursAgo(0.5) },
      weekly: { last_success_started_at: hoursAgo(100) },
    });
    const { runner, runs } = recordingRunner(5);
    const { log, lines } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log, now: () => NOW });
    await held.running.whenIdle();
    expect(runs.map((r) => r.job)).toEqual(['nightly']);
    const start = lines().find((l) => l.event === 'job.start');
    expect(start).toMatchObject({ job: 'nightly', command: 'run', reason: 'catch-up:older-than-period' });
    const end = lines().find((l) => l.event === 'job.end');
    expect(end).toMatchObject({ job: 'nightly', code: 0, outcome: 'ok' });
    expect(typeof end!.duration_ms).toBe('number');
    const state = JSON.parse(readFileSync(ws.statePath, 'utf8'));
    expect(state.jobs.nightly).toMatchObject({ last_success_started_at: NOW.toISOString(), last_outcome: 'ok', last_exit_code: 0 });
    expect(state.jobs.hourly.last_success_started_at).toBe(hoursAgo(0.5));
  });

  it('runs nothing at start when every job is fresh', async () => {
    const ws = held.workspace({ nightly: { cron: '0 2 * * *', period_hours: 24 } });
    seed(ws.statePath, { nightly: { last_success_started_at: hoursAgo(1) } });
    const { runner, runs } = recordingRunner(5);
    const { log, lines } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log, now: () => NOW });
    await held.running.whenIdle();
    expect(runs).toHaveLength(0);
    expect(lines().find((l) => l.event === 'schedule.start')).toMatchObject({ jobs: [{ name: 'nightly', cron: '0 2 * * *', timezone: 'America/Sao_Paulo' }] });
  });

  it('treats a missing or corrupt state file as never run, with a warning for the corrupt one', async () => {
    const ws = held.workspace({ nightly: { cron: '0 2 * * *', period_hours: 24 } });
    mkdirSync(dirname(ws.statePath), { recursive: true });
    writeFileSync(ws.statePath, '{"half');
    const { runner, runs } = recordingRunner(5);
    const { log, lines } = captureLog();
    held.running = await startScheduler({ ...ws, runner, log, now: () => NOW });
    await held.running.whenIdle();
    expect(runs.map((r) => r.job)).toEqual(['nightly']);
    expect(lines().find((l) => l.event === 'schedule.state_unreadable')).toMatchObject({ level: 40 });
    expect(JSON.parse(readFileSync(ws.statePath, 'utf8')).jobs.nightly.last_outcome).toBe('ok');
  });
});
