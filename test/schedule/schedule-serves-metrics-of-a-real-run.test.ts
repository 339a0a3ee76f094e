import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CLI, purchases } from '../support/cli.js';
import { scratch } from '../support/pipeline.js';
import { workspace } from './fixtures.js';
import { parsePrometheusText, sampleValue } from './prometheus-text.js';

// The whole path through real processes: `lawsuit-etl schedule` (the compiled CLI that `npm test` builds) with
// a metrics port, its nightly job a real `run --sandbox` as a child process, whose summary reaches /metrics.

const tmp = scratch('schedule-metrics-');
let proc: ChildProcess | undefined;
let wsRoot: string | undefined;
afterAll(() => {
  if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  tmp.cleanup();
  if (wsRoot) rmSync(wsRoot, { recursive: true, force: true });
});

it('schedule with a metrics port: /healthz 200, /metrics in Prometheus text, its counters moved by a real run', async () => {
  const ws = workspace({ nightly: { cron: '0 2 * * *', period_hours: 24, command: 'run', args: ['--sandbox', '--skip-transfer'] } });
  wsRoot = ws.root;
  const example = readFileSync('config/documents.example.csv', 'utf8').split('\n');
  writeFileSync(join(ws.root, 'documents.csv'), `${example.slice(0, 6).join('\n')}\n`);
  const env = {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', LOG_FORMAT: 'json',
    LAWSUIT_JOBS_DIR: ws.jobsDir, LAWSUIT_SCHEDULE_STATE: ws.statePath, LAWSUIT_LOCK_FILE: ws.lockPath,
    LAWSUIT_WAREHOUSE: join(tmp.dir, 'warehouse.duckdb'), LAWSUIT_DOCUMENTS: join(ws.root, 'documents.csv'),
    LAWSUIT_EXPORT_DIR: join(tmp.dir, 'exports'), LAWSUIT_STAGING_DIR: join(tmp.dir, 'staging'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'),
    LAWSUIT_METRICS_PORT: '0', LAWSUIT_METRICS_HOST: '127.0.0.1',
  };
  proc = spawn(process.execPath, [CLI, 'schedule'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const lines: Array<Record<string, unknown>> = [];
  let partial = '';
  proc.stderr!.on('data', (d) => {
    const text = partial + String(d);
    const all = text.split('\n');
    partial = all.pop()!;
    for (const l of all) if (l.startsWith('{')) lines.push(JSON.parse(l) as Record<string, unknown>);
  });
  const exited = new Promise<number | null>((r) => proc!.once('exit', (code) => r(code)));
  const until = async (what: string, cond: () => boolean, ms = 120_000) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end || proc!.exitCode !== null) throw new Error(`waiting for ${what}; log: ${JSON.stringify(lines.slice(-5))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await until('schedule.metrics', () => lines.some((l) => l.event === 'schedule.metrics'));
  const listening = lines.find((l) => l.event === 'schedule.metrics')!;
  expect(listening).toMatchObject({ host: '127.0.0.1', port: expect.any(Number) });
  const url = `http://127.0.0.1:${String(listening.port)}`;
  await until('job.end', () => lines.some((l) => l.event === 'job.end'));
  expect(lines.find((l) => l.event === 'job.end')).toMatchObject({ job: 'nightly', code: 0, outcome: 'ok', run_id: expect.any(String) });

  const health = await fetch(`${url}/healthz`);
  expect(health.status).toBe(200);
  const res = await fetch(`${url}/metrics`);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const m = parsePrometheusText(await res.text());
  const v = (name: string, labels: Record<string, string> = {}) => sampleValue(m, name, labels);
  expect(v('lawsuit_etl_job_runs_total', { job: 'nightly', outcome: 'ok' })).toBe(1);
  // the five documents' searches and the lawsuit-level reads of the lawsuits they found, as the warehouse recorded them
  const bought = await purchases(env.LAWSUIT_WAREHOUSE);
  expect(bought.searches).toBe(5);
  expect(bought.reads).toBeGreaterThan(0);
  expect(v('lawsuit_etl_api_calls_total', { job: 'nightly', method: 'POST', route: '/requests', status: '201' })).toBe(5 + bought.reads);
  // the sweep reads the five requests' responses across requests: one page or more, not one per request
  expect(v('lawsuit_etl_api_calls_total', { job: 'nightly', method: 'GET', route: '/responses', status: '200' })).toBeGreaterThanOrEqual(1);
  expect(v('lawsuit_etl_api_rate_limit', { job: 'nightly' })).toBe(180);
  expect(v('lawsuit_etl_api_rate_limit_remaining_min', { job: 'nightly' })).toBeLessThan(180);
  expect(v('lawsuit_etl_stage_duration_seconds', { job: 'nightly', stage: 'search' })).toBeGreaterThan(0);
  expect(v('lawsuit_etl_stage_duration_seconds', { job: 'nightly', stage: 'lawsuits' })).toBeGreaterThan(0);
  expect(v('lawsuit_etl_stage_runs_total', { job: 'nightly', stage: 'transfer', status: 'skipped' })).toBe(1);
  const lawsuits = v('lawsuit_etl_lawsuits_loaded_total', { job: 'nightly' })!;
  expect(lawsuits).toBeGreaterThan(0);
  expect(v('lawsuit_etl_warehouse_rows', { table: 'lawsuits' })).toBe(lawsuits);
  expect(v('lawsuit_etl_warehouse_rows', { table: 'steps' })).toBeGreaterThan(0);
  expect(v('lawsuit_etl_job_last_success_timestamp_seconds', { job: 'nightly' })).toBeGreaterThan(Date.now() / 1000 - 300);

  proc.kill('SIGTERM');
  expect(await exited).toBe(0);
}, 240_000);
