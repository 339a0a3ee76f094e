import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { query, scratch } from '../support/pipeline.js';
import { apiEnv, CLI } from '../support/cli.js';
import { startTrickleProxy, startTrickleServer, type Trickler } from '../support/trickle.js';

// Through the real CLI, in its own process. SIGTERM while a call trickles: before, the run logged "stopping",
// wrote its reports and stayed alive until SIGKILL (222 s), so no exit code ever reached the scheduler; now the
// call is cut off, what is loaded is published, and the process exits 4 within its grace period. And a night
// where nothing reaches the upstream (the API unreachable, or answering 503 to everything): before, it said
// search "ok" with every document failed and published an empty night with exit 4; now the stage is failed,
// nothing is published, and the run exits 75, try later.

describe('SIGTERM while a call trickles', () => {
  let sb: Sandbox;
  let proxy: Trickler;
  const tmp = scratch();
  beforeAll(async () => {
    sb = await startSandbox({ seed: 4, courtDelayMs: 0 });
    proxy = await startTrickleProxy(sb.url, (m, p) => m === 'GET' && p === '/responses');
  });
  afterAll(async () => { await proxy.close(); await sb.close(); tmp.cleanup(); });

  it('ends the process within the grace period, exit 4, the lock released and the night published', async () => {
    const env = apiEnv(proxy.url, {
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'), LAWSUIT_STAGING_DIR: join(tmp.dir, 'staging'),
      LAWSUIT_SKIP_EXPORT: 'true', LAWSUIT_SKIP_TRANSFER: 'true',
      // deadlines far beyond the test: only SIGTERM can end this call
      LAWSUIT_BODY_TIMEOUT_SECONDS: '3600', LAWSUIT_SHUTDOWN_GRACE_SECONDS: '5',
      // the dialect pinned: no probe of GET /responses before the searches, so the trickle meets the night's reading
      LAWSUIT_PAGE_SIZE: '100', LAWSUIT_SWEEP_PARAMS: 'order_by=order_by:created_at,order=order:asc',
    });
    const child = spawn(process.execPath, [CLI, 'run'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      await proxy.whenTrickled(1);
      const t0 = Date.now();
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise<'alive'>((r) => setTimeout(() => r('alive'), 30_000))]);
      const seconds = (Date.now() - t0) / 1000;
      expect(code, 'the process ended after SIGTERM').toBe(4);
      expect(seconds).toBeLessThan(5 + 3);
      expect(stdout).toMatch(/: interrupted in/);
      expect(existsSync(join(tmp.dir, 'w.duckdb.lock'))).toBe(false);
      const stages = await query<{ stage: string; status: string }>(env.LAWSUIT_WAREHOUSE, 'SELECT stage, status FROM run_stages ORDER BY position');
      expect(stages.find((s) => s.stage === 'search')?.status).toBe('interrupted');
      expect(stages.find((s) => s.stage === 'publish')?.status).toBe('ok');
      const [run] = await query<{ status: string }>(env.LAWSUIT_WAREHOUSE, 'SELECT status FROM runs');
      expect(run.status).toBe('interrupted');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('a night where nothing reaches the upstream', () => {
  const tmp = scratch();
  const closers: Array<() => Promise<void>> = [];
  let list: string;
  beforeAll(() => {
    list = join(tmp.dir, 'documents.csv');
    writeFileSync(list, 'search_key\n529.982.247-25\n111.444.777-35\n11.222.333/0001-81\n');
  });
  afterAll(async () => { for (const c of closers) await c(); tmp.cleanup(); });

  /** The CLI in a child process, waited for without blocking this one (its upstreams answer from here). */
  const runAsync = (args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> => new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (status) => { clearTimeout(guard); resolve({ status, stdout, stderr }); });
  });
  /** A port nothing listens on: taken from the system, then let go. */
  const closedPort = async (): Promise<string> => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { port } = s.address() as AddressInfo;
    await new Promise<void>((r) => s.close(() => r()));
    return `http://127.0.0.1:${port}`;
  };
  /** Every call answered 503, at once. */
  const failing = async (): Promise<string> => {
    const s = createServer((req, res) => { req.resume(); res.writeHead(503, { 'content-type': 'application/json' }); res.end('{"error":"down"}'); });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); }));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  /** Every answer trickled: headers, then nothing that ends. */
  const trickling = async (): Promise<string> => {
    const t = await startTrickleServer();
    closers.push(() => t.close());
    return t.url;
  };

  it.concurrent.each([
    { upstream: 'unreachable', url: closedPort },
    { upstream: 'answering 503 to everything', url: failing },
    { upstream: 'trickling every answer', url: trickling },
  ])('$upstream: search and transfer failed, nothing published, exit 75', async ({ upstream, url }) => {
    const name = upstream.replace(/[^a-z0-9]+/g, '-');
    const env = apiEnv(await url(), {
      LAWSUIT_DOCUMENTS: list, LAWSUIT_WAREHOUSE: join(tmp.dir, `${name}.duckdb`), LAWSUIT_REPORTS_DIR: join(tmp.dir, `${name}-reports`),
      LAWSUIT_STAGING_DIR: join(tmp.dir, `${name}-staging`), LAWSUIT_EXPORT_DIR: join(tmp.dir, `${name}-exports`),
      LAWSUIT_MAX_WAIT_MINUTES: '0.05', LAWSUIT_BODY_TIMEOUT_SECONDS: '0.5', LOG_LEVEL: 'error',
    });
    const res = await runAsync(['run'], env);
    expect(res.status, res.stdout + res.stderr).toBe(75);
    expect(res.stdout).toMatch(/\(run\): unreachable in/);
    expect(res.stdout).toMatch(/search\s+failed/);
    expect(res.stdout).toMatch(/transfer\s+failed/);
    expect(res.stdout).toMatch(/publish\s+skipped\s+.*nothing reached the upstream/);
    // nothing published; the work copy, with the night's record, waits for the next run
    expect(existsSync(env.LAWSUIT_WAREHOUSE)).toBe(false);
    const [run] = await query<{ status: string }>(`${env.LAWSUIT_WAREHOUSE}.work`, 'SELECT status FROM runs');
    expect(run.status).toBe('unreachable');
    const stages = await query<{ stage: string; status: string; error_code: string | null }>(`${env.LAWSUIT_WAREHOUSE}.work`,
      'SELECT stage, status, error_code FROM run_stages ORDER BY position');
    expect(stages.map((s) => [s.stage, s.status])).toEqual([
      // the lawsuit level had nothing to read: no header ever arrived
      ['documents', 'ok'], ['search', 'failed'], ['lawsuits', 'ok'], ['transfer', 'failed'], ['changes', 'skipped'], ['exports', 'skipped'], ['publish', 'skipped'],
    ]);
    expect(stages.find((s) => s.stage === 'publish')?.error_code).toBe('RUN_UNREACHABLE');
    expect(res.stderr).toMatch(/lawsuit-etl: unreachable/);
  }, 90_000);
});
