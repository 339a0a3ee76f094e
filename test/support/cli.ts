import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// Helpers for tests that drive the compiled CLI (dist/, built by `npm test`) as separate processes, the way
// a container or an operator does, so that SIGKILL and SIGTERM hit a real process.

export const CLI = 'dist/cli/main.js';

export interface SandboxProcess { url: string; child: ChildProcess; stop(): Promise<void> }

/** How long a sandbox child may take to print its address, and to exit once told to. */
const SANDBOX_START_MS = 30_000;
const SANDBOX_STOP_MS = 10_000;

/**
 * `lawsuit-etl sandbox` in a child process; resolves with its base address (its first stdout line). Nothing here
 * waits without a deadline: a sandbox that prints nothing within 30 s is killed and the start fails; one that
 * does not exit within 10 s of SIGTERM is killed.
 */
export function sandboxProcess(args: string[] = []): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--court-delay-ms', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const late = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`the sandbox printed no address within ${SANDBOX_START_MS} ms`)); }, SANDBOX_START_MS);
    child.once('error', (e) => { clearTimeout(late); reject(e); });
    child.once('exit', (code) => { clearTimeout(late); reject(new Error(`sandbox exited early (${code})`)); });
    child.stdout!.once('data', (d: Buffer) => {
      clearTimeout(late);
      child.removeAllListeners('exit');
      resolve({
        url: d.toString().split('\n')[0].trim(),
        child,
        // a sandbox that already exited has no 'exit' left to wait for
        stop: () => new Promise((r) => {
          if (child.exitCode !== null || child.signalCode !== null) return r();
          const kill = setTimeout(() => child.kill('SIGKILL'), SANDBOX_STOP_MS);
          child.once('exit', () => { clearTimeout(kill); r(); });
          child.kill('SIGTERM');
        }),
      });
    });
  });
}

export function apiEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn',
    LAWSUIT_DOCUMENTS: 'config/documents.example.csv',
    LAWSUIT_API_KEY: 'sandbox-key', LAWSUIT_REQUESTS_URL: url, LAWSUIT_TRACKING_URL: url, LAWSUIT_LAWSUITS_URL: url, LAWSUIT_TRANSFER_URL: url,
    ...extra,
  };
}

export function runCli(args: string[], env: Record<string, string>, timeoutMs = 240_000) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: timeoutMs, env });
}

/**
 * The CLI in a child process without blocking this one: for a test whose upstream (a sandbox, a stub) runs in
 * this very process, which runCli's spawnSync would stop from answering.
 */
export function runCliAsync(args: string[], env: Record<string, string>, nodeFlags: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeFlags, CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Where the run called `name` keeps its warehouse, exports, staging and reports: side by side in `dir`. */
export function runFiles(dir: string, name: string) {
  return {
    LAWSUIT_WAREHOUSE: join(dir, `${name}.duckdb`), LAWSUIT_EXPORT_DIR: join(dir, `${name}-exports`),
    LAWSUIT_STAGING_DIR: join(dir, `${name}-staging`), LAWSUIT_REPORTS_DIR: join(dir, `${name}-reports`),
  };
}

/**
 * `run` killed with SIGKILL at the failpoint `point`, then started again to the end, against a sandbox of its
 * own (no other run's requests in its listing), stopped whatever happens: one left running by a failed
 * assertion would keep vitest from exiting. Gives the runs' environment, the resumed run's output and the
 * searches the sandbox sold across both.
 */
export async function killedAndResumed(point: string, files: Record<string, string>) {
  const own = await sandboxProcess(['--rate-limit', '100000']);
  try {
    const env = apiEnv(own.url, files);
    const killed = runCli(['run'], { ...env, LAWSUIT_FAILPOINTS: point });
    expect(killed.signal, `${point} should have killed the run: ${killed.stderr}`).toBe('SIGKILL');
    const resumed = runCli(['run'], env);
    expect(resumed.status, `${point}: ${resumed.stderr}`).toBe(0);
    const searches = await bought(own.url);
    return { env, resumed, searches };
  } finally {
    await own.stop();
  }
}

/** Searches the sandbox sold: POST /requests answered with a success (200 in the spec's dialect, 201 or 202 in the documented one). */
export async function bought(url: string): Promise<number> {
  const by = (await counters(url)).by_endpoint['POST /requests'] ?? {};
  return (by['200'] ?? 0) + (by['201'] ?? 0) + (by['202'] ?? 0);
}

export async function counters(url: string): Promise<{ total: number; by_endpoint: Record<string, Record<string, number>> }> {
  const res = await fetch(`${url}/_sandbox/counters`, { signal: AbortSignal.timeout(10_000) });
  return res.json() as Promise<{ total: number; by_endpoint: Record<string, Record<string, number>> }>;
}

/**
 * What a warehouse recorded buying: the list's searches, and the lawsuit-level reads the nights chose (requests with
 * a basis), in all and by number (a number read twice while its first read still stood would be a read paid twice).
 */
export async function purchases(path: string): Promise<{ searches: number; reads: number; readNumbers: number }> {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    const [r] = await wh.all<{ searches: number; reads: number; readNumbers: number }>(`SELECT
        count(*) FILTER (WHERE basis IS NULL AND coalesce(status, '') <> 'cancelled')::INTEGER AS searches,
        count(*) FILTER (WHERE basis IS NOT NULL AND coalesce(status, '') <> 'cancelled')::INTEGER AS reads,
        count(DISTINCT search_key) FILTER (WHERE basis IS NOT NULL)::INTEGER AS "readNumbers"
      FROM requests`);
    return r;
  } finally {
    await wh.close();
  }
}

/** What two warehouses must agree on: every lawsuit and its flattened rows, and which search found what. */
export async function warehouseFingerprint(path: string): Promise<Record<string, unknown>> {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    const q = async (sql: string) => (await wh.all<{ v: string }>(sql)).map((r) => r.v);
    return {
      lawsuits: await q(`SELECT code || '#' || instance || '#' || coalesce(status, '') || '#' || coalesce(phase, '') || '#' || coalesce(amount::VARCHAR, '') AS v FROM lawsuits ORDER BY 1`),
      parties: await q(`SELECT code || '#' || instance || '#' || party_index || '#' || coalesce(name, '') AS v FROM parties ORDER BY 1`),
      lawyers: await q(`SELECT count(*)::VARCHAR AS v FROM lawyers`),
      steps: await q(`SELECT count(*)::VARCHAR || '/' || count(DISTINCT code || instance || step_id)::VARCHAR AS v FROM steps`),
      subjects: await q(`SELECT count(*)::VARCHAR AS v FROM subjects`),
      hits: await q(`SELECT DISTINCT r.search_type || ':' || r.search_key || ':' || h.code || '#' || h.instance AS v
        FROM search_hits h JOIN requests r USING (request_id) ORDER BY 1`),
      rejected: await q(`SELECT DISTINCT line::VARCHAR AS v FROM rejected_inputs ORDER BY 1`),
    };
  } finally {
    await wh.close();
  }
}
