import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/pipeline/summary.js';
import type { JobRunner } from '../../src/schedule/child-runner.js';
import { runScheduleCli } from '../../src/schedule/command.js';
import { ConfigError } from '../../src/shared/errors.js';
import { exitCodeOfError } from '../support/exit.js';
import { startScheduleService, type ScheduleService } from '../../src/schedule/service.js';
import { captureLog, releasedAfterEach, runSummary, type Workspace } from './fixtures.js';
import { parsePrometheusText, sampleValue, type Family } from './prometheus-text.js';

// `schedule` with a metrics port, in-process: the jobs run through a fake runner that leaves a run summary
// where the real command would, so every figure the metrics show can be traced to it.

const held = releasedAfterEach<ScheduleService>();

const hoursAgo = (h: number): string => new Date(Date.now() - h * 3_600_000).toISOString();

function setup(state?: Record<string, object>): Workspace {
  const ws = held.workspace({ nightly: { cron: '0 2 * * *', period_hours: 24 } });
  if (state) {
    mkdirSync(dirname(ws.statePath), { recursive: true });
    writeFileSync(ws.statePath, JSON.stringify({ version: 1, jobs: state }));
  }
  return ws;
}

/** A runner that waits for `release()`, writes `summary` where the scheduler asked, and exits with `code`. */
function gatedRunner(code: number, summary?: RunSummary): { runner: JobRunner; started: Promise<void>; release(): void } {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const startedP = new Promise<void>((r) => { started = r; });
  const runner: JobRunner = async (_job, ctx) => {
    started();
    await gate;
    if (summary) writeFileSync(ctx.summaryPath, JSON.stringify(summary));
    return { code };
  };
  return { runner, started: startedP, release };
}

async function start(ws: Workspace, runner: JobRunner, maxFailures = 3): Promise<ScheduleService> {
  const { log } = captureLog();
  held.running = await startScheduleService({ ...ws, runner, log, metricsPort: 0, metricsHost: '127.0.0.1', healthMaxFailures: maxFailures });
  return held.running;
}

async function get(path: string, init?: RequestInit): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${held.running!.server!.url}${path}`, init);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function scrape(): Promise<Map<string, Family>> {
  const r = await get('/metrics');
  expect(r.status).toBe(200);
  expect(r.type).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(r.text);
}

describe('schedule with a metrics port', () => {
  it('listens on 127.0.0.1 on a port the system picked, and serves /livez, /healthz and /metrics only', async () => {
    const ws = setup({ nightly: { last_success_started_at: hoursAgo(1) } });
    await start(ws, gatedRunner(0).runner);
    expect(held.running!.server!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(held.running!.server!.port).toBeGreaterThan(0);
    expect(await get('/livez')).toMatchObject({ status: 200, text: 'alive\n' });
    const health = await get('/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok', problems: [], jobs: [{ job: 'nightly', healthy: true, consecutive_failures: 0, stale_after_hours: 48 }] });
    expect((await get('/elsewhere')).status).toBe(404);
    expect((await get('/metrics', { method: 'POST' })).status).toBe(405);
    const m = await scrape();
    expect(m.get('lawsuit_etl_job_runs_total')).toMatchObject({ type: 'counter' });
    for (const outcome of ['ok', 'partial', 'failed', 'skipped-locked']) expect(sampleValue(m, 'lawsuit_etl_job_runs_total', { job: 'nightly', outcome })).toBe(0);
    expect(sampleValue(m, 'lawsuit_etl_scheduler_healthy')).toBe(1);
    expect(sampleValue(m, 'lawsuit_etl_job_last_success_timestamp_seconds', { job: 'nightly' })).toBeCloseTo(Date.parse(hoursAgo(1)) / 1000, -1);
    expect(m.has('process_resident_memory_bytes')).toBe(true);
  });

  it('counters move after a run, by the figures of its summary', async () => {
    const ws = setup();
    const summary = runSummary();
    const gated = gatedRunner(0, summary);
    await start(ws, gated.runner);
    await gated.started; // the catch-up of a job never run
    const before = await scrape();
    expect(sampleValue(before, 'lawsuit_etl_job_running', { job: 'nightly' })).toBe(1);
    expect(sampleValue(before, 'lawsuit_etl_job_runs_total', { job: 'nightly', outcome: 'ok' })).toBe(0);
    expect(before.get('lawsuit_etl_api_calls_total')?.samples ?? []).toEqual([]);
    gated.release();
    await held.running!.scheduler.whenIdle();

    const m = await scrape();
    const v = (name: string, labels: Record<string, string> = {}) => sampleValue(m, name, labels);
    expect(v('lawsuit_etl_job_running', { job: 'nightly' })).toBe(0);
    expect(v('lawsuit_etl_job_runs_total', { job: 'nightly', outcome: 'ok' })).toBe(1);
    expect(v('lawsuit_etl_job_last_exit_code', { job: 'nightly' })).toBe(0);
    expect(v('lawsuit_etl_job_last_success_timestamp_seconds', { job: 'nightly' })).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(v('lawsuit_etl_api_calls_total', { job: 'nightly', method: 'POST', route: '/requests', status: '200' })).toBe(46);
    expect(v('lawsuit_etl_api_calls_total', { job: 'nightly', method: 'POST', route: '/requests', status: '429' })).toBe(2);
    expect(v('lawsuit_etl_api_calls_total', { job: 'nightly', method: 'GET', route: '/requests/:id', status: 'network' })).toBe(8);
    const calls = m.get('lawsuit_etl_api_calls_total')!.samples.reduce((n, s) => n + s.value, 0);
    expect(calls).toBe(Object.values(summary.api.byRouteStatus!).reduce((a, b) => a + b, 0));
    expect(v('lawsuit_etl_api_rate_limit_remaining_min', { job: 'nightly' })).toBe(12);
    expect(v('lawsuit_etl_api_rate_limit', { job: 'nightly' })).toBe(180);
    expect(v('lawsuit_etl_stage_duration_seconds', { job: 'nightly', stage: 'search' })).toBe(480);
    expect(v('lawsuit_etl_stage_runs_total', { job: 'nightly', stage: 'transfer', status: 'refused' })).toBe(1);
    expect(v('lawsuit_etl_stage_count', { job: 'nightly', stage: 'search', count: 'pages' })).toBe(53);
    expect(v('lawsuit_etl_lawsuits_loaded_total', { job: 'nightly' })).toBe(1113);
    expect(v('lawsuit_etl_warehouse_rows', { table: 'steps' })).toBe(90000);
    expect(v('lawsuit_etl_warehouse_rows', { table: 'lawsuits' })).toBe(5000);
    expect(v('lawsuit_etl_run_failed_items', { job: 'nightly' })).toBe(1);
    expect(m.get('lawsuit_etl_stage_duration_seconds')).toMatchObject({ type: 'gauge' });
    expect(m.get('lawsuit_etl_api_calls_total')?.help).toMatch(/endpoint and HTTP status/);
  });

  it('a summary it cannot make sense of leaves the figures out, never the run', async () => {
    const ws = setup();
    const odd = { stages: 3, api: { byRouteStatus: { weird: 'x', 'GET /a 200': -5 }, timeline: 'no' }, warehouse: { lawsuitsThisRun: 'many' }, failures: {} };
    const gated = gatedRunner(0, odd as unknown as RunSummary);
    await start(ws, gated.runner);
    gated.release();
    await held.running!.scheduler.whenIdle();
    const m = await scrape();
    expect(sampleValue(m, 'lawsuit_etl_job_runs_total', { job: 'nightly', outcome: 'ok' })).toBe(1);
    expect(m.get('lawsuit_etl_api_calls_total')?.samples ?? []).toEqual([]);
    expect(JSON.parse(readFileSync(ws.statePath, 'utf8')).jobs.nightly.last_outcome).toBe('ok');
  });

  it('/healthz answers 503 once a job has failed the configured number of times in a row, counted across restarts', async () => {
    const ws = setup({ nightly: { last_success_started_at: hoursAgo(30), consecutive_failures: 2, last_exit_code: 1 } });
    const gated = gatedRunner(1);
    await start(ws, gated.runner);
    await gated.started;
    expect((await get('/healthz')).status).toBe(200); // two so far
    gated.release();
    await held.running!.scheduler.whenIdle();
    const health = await get('/healthz');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'unhealthy', problems: ['nightly: the last 3 runs failed (last exit code 1)'] });
    const m = await scrape();
    expect(sampleValue(m, 'lawsuit_etl_scheduler_healthy')).toBe(0);
    expect(sampleValue(m, 'lawsuit_etl_job_consecutive_failures', { job: 'nightly' })).toBe(3);
    expect(sampleValue(m, 'lawsuit_etl_job_runs_total', { job: 'nightly', outcome: 'failed' })).toBe(1);
    expect(JSON.parse(readFileSync(ws.statePath, 'utf8')).jobs.nightly).toMatchObject({ consecutive_failures: 3, last_outcome: 'failed' });
  });

  it('/healthz answers 503 while the last success is older than twice the period, and 200 once a run succeeds', async () => {
    const ws = setup({ nightly: { last_success_started_at: hoursAgo(50) } });
    const gated = gatedRunner(4, runSummary({ status: 'partial', exitCode: 4 }));
    await start(ws, gated.runner);
    await gated.started;
    const stale = await get('/healthz');
    expect(stale.status).toBe(503);
    expect(JSON.parse(stale.text).problems[0]).toMatch(/^nightly: the last successful run started 50\.0 h ago, more than twice its period of 24 h$/);
    gated.release();
    await held.running!.scheduler.whenIdle();
    expect((await get('/healthz')).status).toBe(200); // a partial run (exit 4) is a success
  });

  it('a port that cannot be had stops the scheduler before any job runs (exit 2)', async () => {
    const ws = setup();
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as { port: number }).port;
    let ran = 0;
    try {
      const { log } = captureLog();
      const refused = await startScheduleService({ ...ws, runner: async () => { ran++; return { code: 0 }; }, log, metricsPort: port, metricsHost: '127.0.0.1', healthMaxFailures: 3 })
        .then(() => undefined, (e: unknown) => e);
      expect(refused).toMatchObject({ code: 'SCHEDULE_METRICS_LISTEN', message: expect.stringMatching(/EADDRINUSE.*LAWSUIT_METRICS_PORT/) });
      expect(exitCodeOfError(refused)).toBe(2);
    } finally {
      taken.close();
    }
    expect(ran).toBe(0);
  });

  it('a bad port or failure count is a configuration error listed with the jobs\' problems', async () => {
    const ws = setup();
    const { log } = captureLog();
    const env = { LAWSUIT_HEALTH_MAX_FAILURES: '0', LAWSUIT_SCHEDULE_STATE: ws.statePath };
    const refused = await runScheduleCli(['--jobs', ws.jobsDir, '--metrics-port', '70000'], { env, log, configure: () => { throw new ConfigError(['LAWSUIT_API_KEY is missing (jobs: nightly)']); } })
      .then(() => undefined, (e: unknown) => e);
    expect(exitCodeOfError(refused)).toBe(2);
    expect(refused).toMatchObject({
      problems: [
        '--metrics-port / LAWSUIT_METRICS_PORT="70000" must be a whole number from 0 to 65535',
        'LAWSUIT_HEALTH_MAX_FAILURES="0" must be a whole number from 1 to 1000',
        'LAWSUIT_API_KEY is missing (jobs: nightly)',
      ],
    });
  });
});

describe('the strict reader of the exposition format', () => {
  it('refuses what Prometheus would refuse', () => {
    const bad = [
      'a 1', // no final line feed
      'a{b=c} 1\n',
      'a{b="c\\x"} 1\n',
      '# TYPE a counter\na -1\n',
      'a 1\nb 1\na{x="1"} 2\n',
      'a{x="1"} 1\na{x="1"} 2\n',
      'a 1\n# TYPE a gauge\n',
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\nh_sum 1\n',
      'a one\n',
    ];
    for (const text of bad) expect(() => parsePrometheusText(text), JSON.stringify(text)).toThrow();
    const ok = parsePrometheusText('# HELP a The a\\nthing.\n# TYPE a counter\na{x="q\\"\\\\"} 3 1700000000000\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 3\nh_count 2\n');
    expect(ok.get('a')).toMatchObject({ type: 'counter', help: 'The a\nthing.', samples: [{ labels: { x: 'q"\\' }, value: 3 }] });
    expect(ok.get('h')!.samples).toHaveLength(4);
  });
});
