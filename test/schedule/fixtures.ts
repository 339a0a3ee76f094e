import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import type { JobRunner } from '../../src/schedule/child-runner.js';
import type { JobSpec } from '../../src/schedule/job-loader.js';

export interface JobFile { cron: string; period_hours: number; command?: string; args?: string[]; timezone?: string }

/** A temporary folder with `jobs/<name>.json` for each entry; returns the folder and its jobs/ and state paths. */
export function workspace(jobs: Record<string, JobFile>): { root: string; jobsDir: string; statePath: string; lockPath: string } {
  const root = mkdtempSync(join(tmpdir(), 'etl-sched-'));
  const jobsDir = join(root, 'jobs');
  mkdirSync(jobsDir, { recursive: true });
  for (const [name, j] of Object.entries(jobs)) {
    writeFileSync(join(jobsDir, `${name}.json`), JSON.stringify({ name, command: 'run', args: [], ...j }));
  }
  return { root, jobsDir, statePath: join(root, 'data', 'schedule-state.json'), lockPath: join(root, 'data', 'run.lock') };
}

export function captureLog(): { log: Logger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const sink = new Writable({ write(c, _e, cb) { chunks.push(String(c)); cb(); } });
  return { log: pino({ level: 'debug' }, sink), lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

export interface RunRecord { job: string; start: number; end: number }

/** A runner that records each run's interval, takes `ms` and exits with `code(job)`. */
export function recordingRunner(ms: number, code: (job: JobSpec) => number = () => 0): { runner: JobRunner; runs: RunRecord[] } {
  const runs: RunRecord[] = [];
  const runner: JobRunner = async (job) => {
    const start = performance.now();
    await new Promise((r) => setTimeout(r, ms));
    runs.push({ job: job.name, start, end: performance.now() });
    return { code: code(job) };
  };
  return { runner, runs };
}
