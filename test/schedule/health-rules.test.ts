import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { healthOf } from '../../src/schedule/health.js';
import type { JobSpec } from '../../src/schedule/job-loader.js';
import { startScheduler, type Scheduler } from '../../src/schedule/scheduler.js';
import { captureLog, recordingRunner, releasedAfterEach } from './fixtures.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const hoursAgo = (h: number): string => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const job = (name: string, period_hours: number): JobSpec => ({
  name, period_hours, description: '', cron: '0 2 * * *', timezone: 'America/Sao_Paulo', command: 'run', args: [], enabled: true, file: `${name}.json`,
});
const nightly = job('nightly', 24);
const hourly = job('hourly', 1);
const opts = { maxFailures: 3, startedAt: new Date(NOW.getTime() - 600_000) };

describe('health rules', () => {
  it('is healthy with recent successes and fewer failures in a row than the limit', () => {
    const h = healthOf([nightly, hourly], { version: 1, jobs: {
      nightly: { last_success_started_at: hoursAgo(47.9), consecutive_failures: 2 },
      hourly: { last_success_started_at: hoursAgo(1.5) },
    } }, NOW, opts);
    expect(h).toMatchObject({ status: 'ok', problems: [] });
    expect(h.jobs.map((j) => [j.job, j.healthy, j.stale_after_hours])).toEqual([['nightly', true, 48], ['hourly', true, 2]]);
  });

  it('is unhealthy when a job failed the limit in a row, or has not succeeded for twice its period', () => {
    const h = healthOf([nightly, hourly], { version: 1, jobs: {
      nightly: { last_success_started_at: hoursAgo(1), consecutive_failures: 3, last_exit_code: 3 },
      hourly: { last_success_started_at: hoursAgo(2.1) },
    } }, NOW, opts);
    expect(h.status).toBe('unhealthy');
    expect(h.problems).toEqual([
      'nightly: the last 3 runs failed (last exit code 3)',
      'hourly: the last successful run started 2.1 h ago, more than twice its period of 1 h',
    ]);
    expect(healthOf([nightly], { version: 1, jobs: { nightly: { consecutive_failures: 1 } } }, NOW, { ...opts, maxFailures: 1 }).status).toBe('unhealthy');
  });

  it('measures a job never run from the scheduler\'s start', () => {
    expect(healthOf([hourly], { version: 1, jobs: {} }, NOW, opts).status).toBe('ok');
    const late = healthOf([hourly], { version: 1, jobs: {} }, NOW, { ...opts, startedAt: new Date(NOW.getTime() - 3 * 3_600_000) });
    expect(late.problems).toEqual(['hourly: no successful run since the scheduler started 3.0 h ago (more than twice its period of 1 h)']);
  });
});

describe('failures in a row, as the scheduler records them', () => {
  const held = releasedAfterEach<Scheduler>();

  async function runOnce(code: number, seed: object, lockHeld = false): Promise<Record<string, unknown>> {
    const ws = held.workspace({ nightly: { cron: '0 2 * * *', period_hours: 24 } });
    mkdirSync(`${ws.root}/data`, { recursive: true });
    writeFileSync(ws.statePath, JSON.stringify({ version: 1, jobs: { nightly: seed } }));
    if (lockHeld) writeFileSync(ws.lockPath, JSON.stringify({ pid: process.ppid, hostname: hostname(), command: 'run', started_at: new Date().toISOString() }));
    const { runner } = recordingRunner(1, () => code);
    held.running = await startScheduler({ ...ws, runner, log: captureLog().log });
    await held.running.whenIdle();
    await held.running.stop();
    held.running = undefined;
    return JSON.parse(readFileSync(ws.statePath, 'utf8')).jobs.nightly;
  }

  it('counts a failure, resets on a success or a partial run, and leaves the count alone when the lock was held', async () => {
    expect(await runOnce(1, { consecutive_failures: 1 })).toMatchObject({ consecutive_failures: 2, last_outcome: 'failed' });
    expect(await runOnce(0, { consecutive_failures: 5 })).toMatchObject({ consecutive_failures: 0, last_outcome: 'ok' });
    expect(await runOnce(4, { consecutive_failures: 5 })).toMatchObject({ consecutive_failures: 0, last_outcome: 'partial' });
    expect(await runOnce(0, { consecutive_failures: 2 }, true)).toMatchObject({ consecutive_failures: 2, last_outcome: 'skipped-locked' });
  });
});
