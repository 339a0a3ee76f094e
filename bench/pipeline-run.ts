import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './cli-path.js';
import { cpuSeconds, peakRss } from './peak-rss.js';
import { sandboxChild } from './sandbox-child.js';

// A real `lawsuit-etl run` in a child process against a sandbox in another child process, so that the
// run's peak memory (VmHWM, read from /proc while it runs) is its own and not the benchmark's.

export interface RunFigures extends MeasuredRun { lawsuits: number; calls: number; polls: number; requests: number; documents: number }

/** The environment of a measured command against a sandbox at `url`, its files under `dir`, exports off. */
export function sandboxRunEnv(url: string, dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env, LOG_LEVEL: 'warn', LAWSUIT_API_KEY: 'sandbox-key',
    LAWSUIT_REQUESTS_URL: url, LAWSUIT_TRACKING_URL: url, LAWSUIT_LAWSUITS_URL: url, LAWSUIT_TRANSFER_URL: url,
    LAWSUIT_WAREHOUSE: join(dir, 'w.duckdb'), LAWSUIT_STAGING_DIR: join(dir, 'staging'), LAWSUIT_REPORTS_DIR: join(dir, 'reports'),
    LAWSUIT_SKIP_EXPORT: 'true',
    // The document level, as these figures were set for (calls against the floor, memory and CPU with volume, the
    // tracked portfolio): a night of 50 ordinary documents finds 49,000 lawsuits, each read whole at the lawsuit
    // level by default, which is another measure (docs/two-levels.md). BENCH_DETAIL=whole measures that.
    LAWSUIT_DETAIL: process.env.BENCH_DETAIL ?? 'header',
  };
}

/**
 * Whether a measured command ran to its end: all done (0), or done but for items that failed (4, partial: a
 * lawsuit_cnj search of a secret lawsuit is refused 403 in the documented dialect, and the night goes on).
 */
export const ranToItsEnd = (exitCode: number | null): boolean => exitCode === 0 || exitCode === 4;

export interface MeasuredRun {
  exitCode: number | null; ms: number; peakRssMb: number; stdout: string;
  /** CPU seconds the command's process used (user and system, all threads), as last sampled before it exited. */
  cpuS: number;
}

/** One `lawsuit-etl <args>` in a child process under the production memory budget, with its peak RSS. */
export async function measuredRun(args: string[], env: NodeJS.ProcessEnv): Promise<MeasuredRun> {
  const t0 = Date.now();
  // the same memory budget as the container (Dockerfile) and `npm start`
  const flags = (process.env.BENCH_NODE_FLAGS ?? '--max-old-space-size=128 --max-semi-space-size=4').split(' ');
  const child = spawn(process.execPath, [...flags, CLI, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  let peak = 0;
  let cpuS = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, peakRss(child.pid!));
    cpuS = cpuSeconds(child.pid!) ?? cpuS;
  }, 100);
  const trace = process.env.RSS_TRACE ? setInterval(() => { try { const st = readFileSync(`/proc/${child.pid}/status`, 'utf8'); process.stderr.write(`rss ${Math.round((Date.now() - t0) / 1000)}s ${/VmRSS:\s+(\d+)/.exec(st)?.[1]} kB\n`); } catch { /* gone */ } }, Number(process.env.RSS_TRACE_MS ?? 5000)) : undefined;
  // The longest measured run (100k lawsuits) takes minutes; one still going after two hours is stopped as an
  // operator would (SIGTERM: it publishes what it loaded), then killed, so that the benchmark always ends.
  const stop = setTimeout(() => {
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
  }, 2 * 3_600_000);
  const exitCode = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  clearTimeout(stop);
  clearInterval(timer);
  if (trace) clearInterval(trace);
  return { exitCode, ms: Date.now() - t0, peakRssMb: Math.round(peak), stdout, cpuS: Math.round(cpuS * 10) / 10 };
}

export async function pipelineRun<T = undefined>(opts: {
  csv: string; sandboxArgs: string[]; env?: Record<string, string>;
  /** Reads what it needs from the run's warehouse (its path) before the run's folder goes. */
  inspect?: (warehouse: string) => Promise<T>;
}): Promise<RunFigures & { inspected?: T }> {
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-run-'));
  const sb = await sandboxChild(opts.sandboxArgs);
  try {
    writeFileSync(join(dir, 'documents.csv'), opts.csv);
    const env = { ...sandboxRunEnv(sb.url, dir), LAWSUIT_DOCUMENTS: join(dir, 'documents.csv'), LAWSUIT_SKIP_TRANSFER: 'true', ...opts.env };
    const run = await measuredRun(['run'], env);
    const num = (re: RegExp) => Number(re.exec(run.stdout)?.[1] ?? NaN);
    return {
      ...run,
      lawsuits: num(/(\d+) lawsuits seen tonight/), calls: num(/api calls\s+(\d+)/), polls: num(/(\d+) polling calls/),
      requests: num(/(\d+) submitted/), documents: num(/(\d+) valid/),
      inspected: opts.inspect ? await opts.inspect(join(dir, 'w.duckdb')) : undefined,
    };
  } finally {
    sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
