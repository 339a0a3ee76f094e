import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, scratch } from '../support/pipeline.js';
import { apiEnv, bought, counters, runCli, sandboxProcess, type SandboxProcess } from '../support/cli.js';
import { cpfs } from '../support/documents.js';

// Through the real CLI against a sandbox in its own process: a wrong key fails fast (one wave of calls, exit 3),
// and a request stuck past the wait budget does not hold the night back.

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
      // the documents' wave is the subject (the lawsuits wave waits the same way, through the same code)
      LAWSUIT_DETAIL: 'header',
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
    const sold = await bought(sb.url);

    // the provider's clock moves past the long pending time: the next run only collects
    await fetch(`${sb.url}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_days: 0.02 }) });
    const second = runCli(['run'], env);
    expect(second.status, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(new RegExp(`documents\\s+ok\\s+.* 0 searched, ${stuck} resumed`));
    expect(await bought(sb.url)).toBe(sold);
    const [left] = await query<{ n: number }>(env.LAWSUIT_WAREHOUSE, `SELECT count(*)::INTEGER AS n FROM requests WHERE status NOT IN ('completed')`);
    expect(left.n).toBe(0);
  });
});
