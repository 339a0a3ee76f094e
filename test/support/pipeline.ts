import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig, type Config } from '../../src/shared/config.js';
import { runCommand, type CommandResult } from '../../src/pipeline/runner.js';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { runReporter } from '../../src/cli/run-reporter.js';
import type { RunSummary } from '../../src/pipeline/summary.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

/** A scratch folder for one test's warehouse, exports, staging and reports. */
export function scratch(prefix = 'lawsuit-etl-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function configFor(baseUrl: string, dir: string, env: Record<string, string> = {}, flags: Record<string, string | boolean> = {}): Config {
  return loadConfig({
    env: {
      LAWSUIT_API_KEY: 'sandbox-key',
      LAWSUIT_REQUESTS_URL: baseUrl, LAWSUIT_TRACKING_URL: baseUrl, LAWSUIT_LAWSUITS_URL: baseUrl, LAWSUIT_TRANSFER_URL: baseUrl,
      LAWSUIT_WAREHOUSE: join(dir, 'warehouse.duckdb'),
      LAWSUIT_DOCUMENTS: 'config/documents.example.csv',
      LAWSUIT_EXPORT_DIR: join(dir, 'exports'),
      LAWSUIT_STAGING_DIR: join(dir, 'staging'),
      LAWSUIT_REPORTS_DIR: join(dir, 'reports'),
      ...env,
    },
    flags,
  });
}

export const silent = pino({ level: 'silent' });

/** One nightly run in-process, as `lawsuit-etl run` does it, against whatever the config points at. */
export function nightRun(cfg: Config, opts: { signal?: AbortSignal; readsPerPart?: number } = {}): Promise<CommandResult> {
  return runCommand({
    readsPerPart: opts.readsPerPart,
    command: 'run', cfg, log: silent, signal: opts.signal ?? new AbortController().signal,
    environment: async (c) => ({ cfg: c, apiKey: c.apiKey ?? '', close: async () => undefined }),
    exitCodeOf,
    reporter: runReporter(cfg.reportsDir),
    pollTuning: { minIntervalMs: 20, maxIntervalMs: 200 },
  });
}

/** nightRun's summary. */
export async function nightly(cfg: Config, opts: { signal?: AbortSignal; readsPerPart?: number } = {}): Promise<RunSummary> {
  return (await nightRun(cfg, opts)).summary;
}

/** A stage's counts in a summary (0 for a figure it does not have). */
export function countOf(s: RunSummary, stage: string, figure: string): number {
  return s.stages.find((x) => x.name === stage)?.counts[figure] ?? 0;
}

export async function query<T = Record<string, unknown>>(path: string, sql: string): Promise<T[]> {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    return await wh.all<T>(sql);
  } finally {
    await wh.close();
  }
}
