import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, scratch } from '../support/pipeline.js';
import { apiEnv, CLI, counters, runCli, sandboxProcess, type SandboxProcess } from '../support/cli.js';

// The night is never all or nothing, through the real CLI against a sandbox in its own process: a wrong key
// fails fast, a request stuck past the wait budget does not hold the night back, and the commands that send
// nothing need no key.

/** `n` distinct CPFs with valid check digits (REFERENCE.md), so the list reader accepts every line. */
function cpfs(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const body = String(100_000_001 + i * 7919).padStart(9, '0').slice(0, 9).split('').map(Number);
    if (body.every((d) => d === body[0])) continue;
    const digit = (ds: number[], w0: number) => { const r = ds.reduce((s, d, k) => s + d * (w0 - k), 0) % 11; return r < 2 ? 0 : 11 - r; };
    const d1 = digit(body, 10);
    const d2 = digit([...body, d1], 11);
    out.push([...body, d1, d2].join(''));
  }
  return out;
}

describe('a night against an upstream that refuses, stalls or is absent', () => {
  let sb: SandboxProcess;
  const tmp = scratch();
  beforeAll(async () => { sb = await sandboxProcess(['--faults', 'pending_long=0.25:600000']); });
  afterAll(async () => { await sb.stop(); tmp.cleanup(); });

  it('a wrong key with 400 documents: one wave of calls answered 401, exit 3 at once, one error line', async () => {
    const list = join(tmp.dir, 'four-hundred.csv');
    writeFileSync(list, `search_key\n${cpfs(400).join('\n')}\n`);
    await fetch(`${sb.url}/_sandbox/counters/reset`, { method: 'POST' });
    const t0 = Date.now();
    const res = runCli(['run'], apiEnv(sb.url, {
      LAWSUIT_API_KEY: 'not-the-key', LAWSUIT_DOCUMENTS: list, LAWSUIT_MAX_CONCURRENCY: '8', LOG_LEVEL: 'info',
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'wrong-key.duckdb'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'exports'),
    }));
    const seconds = (Date.now() - t0) / 1000;
    const c = await counters(sb.url);
    const refused = Object.values(c.by_endpoint).reduce((n, byStatus) => n + (byStatus['401'] ?? 0), 0);
    console.log(`wrong key, 400 documents: ${refused} calls answered 401, ${c.total} calls in all, exit ${res.status} after ${seconds.toFixed(1)} s`);
    expect(res.status, res.stderr).toBe(3);
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThanOrEqual(8);
    expect(c.total).toBe(refused);
    // generous against a loaded machine; before the fix it took 121 s and 390 calls
    expect(seconds).toBeLessThan(30);
    const errorLines = res.stderr.split('\n').filter((l) => /"level":(50|60)/.test(l));
    expect(errorLines, res.stderr).toHaveLength(1);
    expect(res.stdout).toMatch(/search\s+refused\s+.*API_UNAUTHORIZED/);
    expect(res.stdout).toMatch(/transfer\s+skipped\s+.*key was refused/);
    expect(res.stderr).not.toContain('not-the-key');
  });

  it('a request stuck past the wait budget: the night is published, exit 4 names it, the next run collects it without buying it again', async () => {
    const env = apiEnv(sb.url, {
      LAWSUIT_MAX_WAIT_MINUTES: '0.05', LAWSUIT_SKIP_TRANSFER: 'true',
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'stuck.duckdb'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'exports'),
    });
    await fetch(`${sb.url}/_sandbox/counters/reset`, { method: 'POST' });
    const first = runCli(['run'], env);
    expect(first.status, first.stdout + first.stderr).toBe(4);
    expect(existsSync(env.LAWSUIT_WAREHOUSE)).toBe(true);
    const stuck = (first.stdout.match(/REQUEST_STILL_RUNNING/g) ?? []).length;
    expect(stuck).toBeGreaterThan(0);
    expect(first.stdout).toMatch(/search\s+ok\s+.* still running/);
    expect(first.stdout).toMatch(/publish\s+ok/);
    const [pending] = await query<{ n: number }>(env.LAWSUIT_WAREHOUSE, `SELECT count(*)::INTEGER AS n FROM requests WHERE status NOT IN ('completed')`);
    expect(pending.n).toBe(stuck);
    const [stage] = await query<{ status: string; still: number }>(env.LAWSUIT_WAREHOUSE,
      `SELECT status, (counts->>'still_running')::INTEGER AS still FROM run_stages WHERE stage = 'search'`);
    expect(stage).toEqual({ status: 'ok', still: stuck });
    const bought = (await counters(sb.url)).by_endpoint['POST /requests']?.['200'] ?? 0;

    // the provider's clock moves past the long pending time: the next run only collects
    await fetch(`${sb.url}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_days: 0.02 }) });
    const second = runCli(['run'], env);
    expect(second.status, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(new RegExp(`documents\\s+ok\\s+.* 0 searched, ${stuck} resumed`));
    expect((await counters(sb.url)).by_endpoint['POST /requests']?.['200'] ?? 0).toBe(bought);
    const [left] = await query<{ n: number }>(env.LAWSUIT_WAREHOUSE, `SELECT count(*)::INTEGER AS n FROM requests WHERE status NOT IN ('completed')`);
    expect(left.n).toBe(0);
  });
});

describe('production safety: what needs a key, a list, or nothing at all', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());
  const bare = (extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn',
    LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'exports'), ...extra,
  });

  it('outside --sandbox there is no default documents list: run exits 2 saying so', () => {
    const res = runCli(['run'], bare({ LAWSUIT_API_KEY: 'k', LAWSUIT_REQUESTS_URL: 'http://127.0.0.1:9', LAWSUIT_TRACKING_URL: 'http://127.0.0.1:9', LAWSUIT_LAWSUITS_URL: 'http://127.0.0.1:9', LAWSUIT_TRANSFER_URL: 'http://127.0.0.1:9' }));
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/documents list is required: give --documents FILE or set LAWSUIT_DOCUMENTS/);
  });

  it('export and run --dry-run need no key and no addresses', () => {
    const exp = runCli(['export'], bare());
    expect(exp.status, exp.stderr).toBe(0);
    expect(exp.stdout).toMatch(/exports\s+ok/);
    const dry = runCli(['run', '--dry-run', '--documents', 'config/documents.example.csv'], bare());
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/dry run: nothing was sent/);
  });

  it('a folder the configuration names that cannot be written stops the run at start with exit 2, naming it', () => {
    const file = join(tmp.dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const res = runCli(['run', '--sandbox'], bare({ LAWSUIT_EXPORT_DIR: join(file, 'exports'), LAWSUIT_REPORTS_DIR: file }));
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr).toContain(`LAWSUIT_EXPORT_DIR: the folder ${join(file, 'exports')} cannot be created: ${file} is a file, not a folder`);
    expect(res.stderr).toContain(`LAWSUIT_REPORTS_DIR: the folder ${file} is a file, not a folder`);
    expect(res.stderr).not.toMatch(/unexpected failure/);
  });

  it('schedule with no key stops at start with exit 2, listing every problem of every job', () => {
    const res = spawnSync(process.execPath, [CLI, 'schedule', '--state', join(tmp.dir, 'state.json')], { encoding: 'utf8', timeout: 30_000, env: bare() });
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/LAWSUIT_API_KEY .*required.*\(jobs: .*nightly/);
    expect(res.stderr).toMatch(/documents list is required.*\(jobs: .*count-weekly/);
  });
});

describe('the embedded sandbox: a plan without transfer files, a restarted upstream, a listing that never reports completion', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());
  const envOf = (name: string, extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn',
    LAWSUIT_WAREHOUSE: join(tmp.dir, `${name}.duckdb`), LAWSUIT_EXPORT_DIR: join(tmp.dir, `${name}-exports`),
    LAWSUIT_STAGING_DIR: join(tmp.dir, `${name}-staging`), LAWSUIT_REPORTS_DIR: join(tmp.dir, `${name}-reports`), ...extra,
  });

  it('a key without transfer files in its plan: the night is published, exit 4, transfer refused; the next run with a full key loads the files once', async () => {
    const env = envOf('no-transfer');
    const first = runCli(['run', '--sandbox'], { ...env, LAWSUIT_SANDBOX_FORBID: 'transfer' });
    expect(first.status, first.stdout + first.stderr).toBe(4);
    expect(first.stdout).toMatch(/search\s+ok\s+46 submitted, 46 completed/);
    expect(first.stdout).toMatch(/transfer\s+refused\s+\[API_FORBIDDEN\] GET \/transfer-file refused with 403/);
    expect(first.stdout).toMatch(/changes\s+ok/);
    expect(first.stdout).toMatch(/exports\s+ok/);
    expect(first.stdout).toMatch(/publish\s+ok/);
    expect(first.stderr).toMatch(/partial: transfer refused/);
    const stages = await query<{ stage: string; status: string; error_code: string | null }>(env.LAWSUIT_WAREHOUSE,
      'SELECT stage, status, error_code FROM run_stages ORDER BY position');
    expect(stages).toEqual([
      { stage: 'documents', status: 'ok', error_code: null }, { stage: 'search', status: 'ok', error_code: null },
      { stage: 'transfer', status: 'refused', error_code: 'API_FORBIDDEN' }, { stage: 'changes', status: 'ok', error_code: null },
      { stage: 'exports', status: 'ok', error_code: null }, { stage: 'publish', status: 'ok', error_code: null }]);
    const [{ n: lawsuits }] = await query<{ n: number }>(env.LAWSUIT_WAREHOUSE, 'SELECT count(*)::INTEGER AS n FROM lawsuits');
    expect(lawsuits).toBeGreaterThan(100);

    const second = runCli(['run', '--sandbox'], env);
    expect(second.status, second.stderr).toBe(0);
    const loaded = /transfer\s+ok\s+(\d+) listed, (\d+) loaded/.exec(second.stdout)!;
    expect(Number(loaded[2])).toBe(Number(loaded[1]));
    expect(Number(loaded[1])).toBeGreaterThan(0);
    const third = runCli(['run', '--sandbox'], env);
    expect(third.stdout).toMatch(/transfer\s+ok\s+\d+ listed, 0 loaded \(0 rows\), \d+ already loaded/);
    const files = await query<{ n: number; d: number }>(env.LAWSUIT_WAREHOUSE, 'SELECT count(*)::INTEGER AS n, count(DISTINCT transfer_file_id)::INTEGER AS d FROM transfer_files');
    expect(files[0].n).toBe(Number(loaded[1]));
    expect(files[0].d).toBe(files[0].n);
  });

  it('interrupted by SIGTERM and started again on a fresh sandbox: each forgotten request is submitted again once, recorded, and the run ends', async () => {
    const env = envOf('restart', { LAWSUIT_SANDBOX_COURT_DELAY_MS: '4000', LAWSUIT_SKIP_TRANSFER: 'true', LOG_LEVEL: 'info' });
    const child = spawn(process.execPath, [CLI, 'run', '--sandbox'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += String(d); });
    // SIGTERM once the searches are submitted and running (each court takes 4 s to answer)
    const t0 = Date.now();
    while (!err.includes('"event":"poll.waiting"') && !err.includes('"label":"documents"') && Date.now() - t0 < 4_000) await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(4);
    // outstanding: not completed, or completed with pages not all loaded (history.ts's reading of the ledger)
    const [{ outstanding }] = await query<{ outstanding: number }>(`${env.LAWSUIT_WAREHOUSE}.work`,
      `SELECT count(*)::INTEGER AS outstanding FROM requests
       WHERE status <> 'completed' OR all_pages_count IS NULL OR pages_loaded < greatest(all_pages_count, 1)`);
    expect(outstanding, 'the SIGTERM came while requests were running').toBeGreaterThan(0);

    const t1 = Date.now();
    const again = runCli(['run', '--sandbox'], { ...env, LAWSUIT_SANDBOX_COURT_DELAY_MS: '0', LOG_LEVEL: 'warn' });
    const seconds = (Date.now() - t1) / 1000;
    expect(again.status, again.stdout + again.stderr).toBe(0);
    const lost = Number(/(\d+) resubmitted after the provider lost them/.exec(again.stdout)?.[1] ?? 0);
    console.log(`restarted upstream: ${outstanding} requests outstanding, ${lost} resubmitted once, run ended in ${seconds.toFixed(1)} s`);
    expect(lost).toBe(outstanding);
    const rows = await query<{ lost: number; searches: number; lost_searches: number }>(env.LAWSUIT_WAREHOUSE, `SELECT
        count(*) FILTER (WHERE status = 'lost')::INTEGER AS lost,
        count(DISTINCT search_type || search_key || on_demand || coalesce(lawsuit_instance, -1))::INTEGER AS searches,
        count(DISTINCT search_type || search_key || on_demand || coalesce(lawsuit_instance, -1)) FILTER (WHERE status = 'lost')::INTEGER AS lost_searches
      FROM requests`);
    expect(rows[0].lost).toBe(outstanding);
    expect(rows[0].lost_searches).toBe(outstanding); // each lost once, not twice
    const [{ reasons }] = await query<{ reasons: number }>(env.LAWSUIT_WAREHOUSE, `SELECT count(*)::INTEGER AS reasons FROM requests WHERE status = 'lost' AND error LIKE '%no longer knows this request (404)%'`);
    expect(reasons).toBe(outstanding);
  });

  it('run --force --sandbox twice loads the night twice (request ids never repeat across boots)', () => {
    const env = envOf('twice', { LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' });
    const pages: number[] = [];
    for (let i = 0; i < 2; i++) {
      const res = runCli(['run', '--force', '--sandbox'], env);
      expect(res.status, res.stderr).toBe(0);
      pages.push(Number(/(\d+) pages read/.exec(res.stdout)![1]));
    }
    expect(pages[0]).toBeGreaterThan(0);
    expect(pages[1]).toBe(pages[0]);
  });

  it('a listing that never reports completion: the run finishes through the single-request probe', () => {
    const env = envOf('stale', { LAWSUIT_SANDBOX_FAULTS: 'stale_listing=1', LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' });
    const res = runCli(['run', '--sandbox'], env);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toMatch(/46 completed, 0 still running/);
    const probes = Number(/\((\d+) single probes\)/.exec(res.stdout)?.[1] ?? 0);
    expect(probes).toBeGreaterThanOrEqual(46);
  });
});

describe('a list of a thousand bad lines and one good one', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());

  it('records the thousand rejections in bounded memory and searches the good one', async () => {
    const list = join(tmp.dir, 'list.csv');
    const bad = Array.from({ length: 1000 }, (_, i) => (i % 2 ? `=HYPERLINK("x${i}")` : `123.456.789-0${i % 10}`));
    writeFileSync(list, `search_key\n${bad.join('\n')}\n${cpfs(1)[0]}\n`);
    const env = {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', LAWSUIT_DOCUMENTS: list, LAWSUIT_SKIP_TRANSFER: 'true',
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'e'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'r'),
    };
    const res = runCli(['run', '--sandbox'], env);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/documents\s+ok\s+1001 listed, 1 valid, 1000 rejected/);
    expect(res.stdout).toMatch(/search\s+ok\s+1 submitted, 1 completed/);
    const [{ n }] = await query<{ n: number }>(env.LAWSUIT_WAREHOUSE, 'SELECT count(*)::INTEGER AS n FROM rejected_inputs');
    expect(n).toBe(1000);
  });
});

describe('SIGTERM while every call waits out a long Retry-After', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());

  it('ends within seconds, exit 4, with the summary, the work copy kept', async () => {
    const env = {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', LAWSUIT_SANDBOX_FAULTS: 'storm=1:120000',
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'e'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'r'),
      LAWSUIT_STAGING_DIR: join(tmp.dir, 's'),
    };
    const child = spawn(process.execPath, [CLI, 'run', '--sandbox'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += String(d); });
    await new Promise((r) => setTimeout(r, 3_000)); // every call answered 429 "retry in 120 s" by now
    const t0 = Date.now();
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    const seconds = (Date.now() - t0) / 1000;
    expect(code).toBe(4);
    expect(seconds).toBeLessThan(20);
    expect(out).toMatch(/\(run\): interrupted in/);
    expect(out).toMatch(/search\s+interrupted/);
    expect(existsSync(`${env.LAWSUIT_WAREHOUSE}.work`)).toBe(true);
    expect(existsSync(env.LAWSUIT_WAREHOUSE)).toBe(false);
  });
});
