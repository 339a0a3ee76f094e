import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { afterEach } from 'vitest';
import type { JobRunner } from '../../src/schedule/child-runner.js';
import type { RunSummary } from '../../src/pipeline/summary.js';
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
export type Workspace = ReturnType<typeof workspace>;

/**
 * What a test leaves running and on disk: after each test of the file (or describe block) that calls this,
 * `running` is stopped, then every workspace made through `workspace` removed, so that a failed assertion
 * leaves neither behind (a single `root` slot leaked the workspaces of a test that made several).
 */
export function releasedAfterEach<T extends { stop(): Promise<unknown> }>(): { running?: T; workspace: typeof workspace } {
  const roots: string[] = [];
  const held: { running?: T; workspace: typeof workspace } = {
    workspace: (jobs) => {
      const ws = workspace(jobs);
      roots.push(ws.root);
      return ws;
    },
  };
  afterEach(async () => {
    await held.running?.stop();
    held.running = undefined;
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  return held;
}

export interface CapturedLog {
  log: Logger;
  /** Every event logged so far. */
  lines: () => Array<Record<string, unknown>>;
  /** Resolves as soon as the events logged so far satisfy `cond` (checked on each new event); rejects after `ms`. */
  until: (cond: (lines: Array<Record<string, unknown>>) => boolean, ms: number) => Promise<void>;
}

export function captureLog(): CapturedLog {
  const chunks: string[] = [];
  const waiters = new Set<() => void>();
  const sink = new Writable({ write(c, _e, cb) { chunks.push(String(c)); for (const w of [...waiters]) w(); cb(); } });
  const lines = () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const until = (cond: (l: Array<Record<string, unknown>>) => boolean, ms: number) => new Promise<void>((resolve, reject) => {
    const check = () => { if (cond(lines())) { clearTimeout(late); waiters.delete(check); resolve(); } };
    const late = setTimeout(() => { waiters.delete(check); reject(new Error(`the log did not reach the condition within ${ms} ms`)); }, ms);
    waiters.add(check);
    check();
  });
  return { log: pino({ level: 'debug' }, sink), lines, until };
}

export interface RunRecord { job: string; start: number; end: number }

/** How a command that exits with a code says it ended, as the real one tells the scheduler (src/cli/hand-off.ts). */
const SAID: Record<number, string> = { 0: 'ok', 2: 'usage', 3: 'refused', 4: 'partial', 75: 'unreachable' };

/** A runner that records each run's interval, takes `ms`, says how it ended and exits with `code(job)`. */
export function recordingRunner(ms: number, code: (job: JobSpec) => number = () => 0): { runner: JobRunner; runs: RunRecord[] } {
  const runs: RunRecord[] = [];
  const runner: JobRunner = async (job, ctx) => {
    const start = performance.now();
    await new Promise((r) => setTimeout(r, ms));
    runs.push({ job: job.name, start, end: performance.now() });
    const c = code(job);
    writeFileSync(ctx.summaryPath, JSON.stringify({ command: job.command, status: SAID[c] ?? 'unexpected' }));
    return { code: c };
  };
  return { runner, runs };
}

/** A run summary as `run` hands it to the scheduler (src/pipeline/summary.ts), with figures easy to follow. */
export function runSummary(over: Partial<RunSummary> = {}): RunSummary {
  return {
    runId: '20261120T050000000Z-abcdef01', command: 'run', status: 'ok', exitCode: 0,
    startedAt: '2026-11-20T05:00:00.000Z', finishedAt: '2026-11-20T05:10:00.000Z', durationMs: 600_000,
    stages: [
      { name: 'documents', status: 'ok', ms: 120, counts: { listed: 51, valid: 46, rejected: 4 } },
      { name: 'search', status: 'ok', ms: 480_000, counts: { submitted: 46, completed: 45, pages: 53 } },
      { name: 'transfer', status: 'refused', ms: 900, counts: {}, error: { code: 'API_FORBIDDEN', message: 'not in the plan' } },
      { name: 'exports', status: 'ok', ms: 2_500, counts: { tables: 13, rows: 31576 } },
    ],
    warehouse: { lawsuitsThisRun: 1113, lawsuits: 5000, parties: 12000, lawyers: 11000, steps: 90000, responses: 1121 },
    api: {
      calls: 112, byStatus: { 200: 110, 429: 2 }, retries: 2,
      byRouteStatus: { 'POST /requests 200': 46, 'POST /requests 429': 2, 'GET /requests 200': 2, 'GET /responses 200': 53, 'GET /transfer-file 403': 1, 'GET /requests/:id network': 8 },
      timeline: [{ at: 0, calls: 60, limited: 2, limit: 180, remaining: 40 }, { at: 10_000, calls: 52, limited: 0, limit: 180, remaining: 12 }, { at: 20_000, calls: 0, limited: 0 }],
    },
    failures: [{ stage: 'search', what: 'document', where: 'line 12 (cpf)', code: 'API_VALIDATION', reason: 'x' }],
    ...over,
  };
}
