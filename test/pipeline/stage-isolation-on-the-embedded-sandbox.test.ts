import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { query, scratch } from '../support/pipeline.js';
import { firstEvent } from '../support/json-events.js';
import { CLI, runCli, runFiles } from '../support/cli.js';

// Through `run --sandbox`: a plan without transfer files, one without trackings, a restarted upstream that forgot the requests, request
// ids that never repeat across boots, a listing that never reports completion.

describe('the embedded sandbox: a plan without transfer files, a restarted upstream, a listing that never reports completion', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());
  const envOf = (name: string, extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn',
    // the embedded sandbox's plan, memory and listing are the subject, not the lawsuit level: the searches' headers
    // only (the example list's 380 lawsuit-level reads would triple each night), the provider's rate not waited on
    LAWSUIT_DETAIL: 'header', LAWSUIT_SANDBOX_RATE_LIMIT: '100000',
    ...runFiles(tmp.dir, name), ...extra,
  });

  it('a key without transfer files in its plan: the night is published, exit 4, transfer refused; the next run with a full key loads the files once', async () => {
    const env = envOf('no-transfer');
    const first = runCli(['run', '--sandbox'], { ...env, LAWSUIT_SANDBOX_FORBID: 'transfer' });
    expect(first.status, first.stdout + first.stderr).toBe(4);
    expect(first.stdout).toMatch(/search\s+ok\s+46 submitted, 46 completed/);
    // The listing is the stage's own call: its first 403 ends the stage, refused.
    expect(first.stdout).toMatch(/transfer\s+refused\s+\[API_FORBIDDEN_ONE\] GET \/transfer-file refused with 403/);
    expect(first.stdout).toMatch(/changes\s+ok/);
    expect(first.stdout).toMatch(/exports\s+ok/);
    expect(first.stdout).toMatch(/publish\s+ok/);
    expect(first.stderr).toMatch(/partial: transfer refused/);
    const stages = await query<{ stage: string; status: string; error_code: string | null }>(env.LAWSUIT_WAREHOUSE,
      'SELECT stage, status, error_code FROM run_stages ORDER BY position');
    expect(stages).toEqual([
      { stage: 'documents', status: 'ok', error_code: null }, { stage: 'search', status: 'ok', error_code: null },
      { stage: 'lawsuits', status: 'skipped', error_code: 'STAGE_LEFT_OUT' }, { stage: 'attachments', status: 'skipped', error_code: 'STAGE_LEFT_OUT' }, { stage: 'transfer', status: 'refused', error_code: 'API_FORBIDDEN_ONE' }, { stage: 'changes', status: 'ok', error_code: null },
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

  it('a key without trackings in its plan: a trackings night is refused at its first listing, buys nothing, and is published (exit 4)', async () => {
    const env = envOf('no-tracking', { LAWSUIT_SOURCE: 'trackings', LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SANDBOX_FORBID: 'tracking' });
    const night = runCli(['run', '--sandbox'], env);
    expect(night.status, night.stdout + night.stderr).toBe(4);
    const stages = await query<{ stage: string; status: string; error_code: string | null }>(env.LAWSUIT_WAREHOUSE,
      'SELECT stage, status, error_code FROM run_stages ORDER BY position');
    const of = (stage: string) => stages.find((s) => s.stage === stage);
    // the listing of trackings is the stage's first call: its 403 refuses the stage; what needs it is not run
    expect(of('trackings')).toEqual({ stage: 'trackings', status: 'refused', error_code: 'API_FORBIDDEN_ONE' });
    expect(of('search')).toEqual({ stage: 'search', status: 'skipped', error_code: 'STAGE_NEEDS' });
    expect(of('lawsuit-trackings')).toEqual({ stage: 'lawsuit-trackings', status: 'skipped', error_code: 'STAGE_NEEDS' });
    expect(of('publish')).toEqual({ stage: 'publish', status: 'ok', error_code: null });
    const [r] = await query<{ requests: number; trackings: number; calls: number }>(env.LAWSUIT_WAREHOUSE, `SELECT
      (SELECT count(*) FROM requests)::INTEGER AS requests, (SELECT count(*) FROM trackings)::INTEGER AS trackings,
      (SELECT calls FROM runs ORDER BY started_at DESC LIMIT 1)::INTEGER AS calls`);
    expect(r).toEqual({ requests: 0, trackings: 0, calls: 1 });
  });

  it('interrupted by SIGTERM and started again on a fresh sandbox: each forgotten request is submitted again once, recorded, and the run ends', async () => {
    const env = envOf('restart', { LAWSUIT_SANDBOX_COURT_DELAY_MS: '30000', LAWSUIT_SKIP_TRANSFER: 'true', LOG_LEVEL: 'debug' });
    const child = spawn(process.execPath, [CLI, 'run', '--sandbox'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    // SIGTERM once searches are submitted and running: a POST /requests answered (the client's 'api call' event),
    // while no court answers for 30 s. A fixed 4 s from the start was sometimes over before the search began on a
    // loaded machine, and then nothing was outstanding.
    await firstEvent(child.stderr, (e) => e.route === 'POST /requests' && typeof e.status === 'number' && e.status >= 200 && e.status <= 202, 60_000);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(4);
    // outstanding: not fully loaded (requests.loaded_at, the one definition), in the night published at SIGTERM
    const [{ outstanding }] = await query<{ outstanding: number }>(env.LAWSUIT_WAREHOUSE,
      `SELECT count(*)::INTEGER AS outstanding FROM requests
       WHERE loaded_at IS NULL`);
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

  it('run --force --sandbox twice loads the night twice (request ids never repeat across boots)', async () => {
    const env = envOf('twice', { LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' });
    for (let i = 0; i < 2; i++) {
      const res = runCli(['run', '--force', '--sandbox'], env);
      expect(res.status, res.stderr).toBe(0);
    }
    // Responses, not pages: the sweep reads across requests, so how many pages a night takes depends on timing. The
    // list's searches only: the second night finds every lawsuit whole already and reads none at the lawsuit level.
    const perRun = await query<{ n: number }>(env.LAWSUIT_WAREHOUSE!,
      `SELECT count(*)::INTEGER AS n FROM responses_raw WHERE request_id IN (SELECT request_id FROM requests WHERE basis IS NULL) GROUP BY run_id ORDER BY min(loaded_at)`);
    expect(perRun).toHaveLength(2);
    expect(perRun[0].n).toBeGreaterThan(0);
    // search by search, so that a night that read one response less says which search, its request and items
    const perSearch = await query<{ search: string; first: string; second: string }>(env.LAWSUIT_WAREHOUSE!, `
      WITH read AS (SELECT request_id, count(*) AS n FROM responses_raw GROUP BY request_id),
      n AS (SELECT q.search_type || ' ' || q.search_key || ' ' || coalesce(q.on_demand, false) || ' ' || coalesce(q.lawsuit_instance, -1) AS search, q.run_id,
                   q.request_id || ' ' || q.status || ' ' || coalesce(q.strategy, '?') || ' ' || coalesce(q.items_total, -1) || ' read ' || coalesce(r.n, 0) AS v
            FROM requests q LEFT JOIN read r USING (request_id) WHERE q.basis IS NULL)
      SELECT search, min(v) FILTER (WHERE run_id = (SELECT min(run_id) FROM n)) AS first, min(v) FILTER (WHERE run_id = (SELECT max(run_id) FROM n)) AS second
      FROM n GROUP BY search ORDER BY search`);
    const differ = perSearch.filter((s) => s.first?.split(' read ')[1] !== s.second?.split(' read ')[1]);
    expect(differ, JSON.stringify(differ)).toEqual([]);
    expect(perRun[1].n).toBe(perRun[0].n);
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
