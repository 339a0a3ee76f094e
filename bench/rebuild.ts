import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectChanges } from '../src/warehouse/changes.js';
import { finishRun, startRun } from '../src/warehouse/ledger.js';
import { loadResponseItems } from '../src/warehouse/load.js';
import { Warehouse } from '../src/warehouse/warehouse.js';
import { asReceived, makeBenchItem } from './load.js';
import { measuredRun, sandboxRunEnv } from './pipeline-run.js';

// `lawsuit-etl rebuild` over a warehouse of N lawsuits, in a child process under the production memory budget
// (V8's 128 MB heap as in the Dockerfile, DuckDB's 128MB default limit): lawsuits/s of the whole command (the
// work copy, the replay of responses_raw through the loader, change detection at its instant, the publish) and
// its peak RSS. The warehouse is loaded here first, in process, the way a night loads it: one run whose items
// arrive in pages of 100 remembering their text, then that run's change detection.

export interface RebuildFigures {
  lawsuits: number;
  /** Building the warehouse: loadResponseItems in process, lawsuits/s (change detection not counted). */
  loadLawsuitsPerSec: number;
  exitCode: number | null;
  ms: number;
  lawsuitsPerSec: number;
  peakRssMb: number;
  /** The command's own line for the stage, e.g. "rebuild ok 100000 response items of 1 runs replayed". */
  stageLine: string;
}

const GENERATED_AT_ONCE = 1_000;

export async function rebuildRun(nLawsuits: number): Promise<RebuildFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-rebuild-'));
  try {
    const path = join(dir, 'w.duckdb');
    const loadMs = await buildWarehouse(path, nLawsuits);
    const nowhere = 'http://127.0.0.1:9';
    const run = await measuredRun(['rebuild'], { ...sandboxRunEnv(nowhere, dir), LAWSUIT_WAREHOUSE: path });
    if (run.exitCode !== 0) throw new Error(`lawsuit-etl rebuild exited ${run.exitCode}:\n${run.stdout}`);
    return {
      lawsuits: nLawsuits,
      loadLawsuitsPerSec: Math.round(nLawsuits / (loadMs / 1000)),
      exitCode: run.exitCode, ms: run.ms, peakRssMb: run.peakRssMb,
      lawsuitsPerSec: Math.round(nLawsuits / (run.ms / 1000)),
      stageLine: /^\s*rebuild\s+ok.*$/m.exec(run.stdout)?.[0].trim() ?? '',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One night's worth of makeBenchItem lawsuits in a fresh warehouse file; returns the load's ms. */
async function buildWarehouse(path: string, nLawsuits: number): Promise<number> {
  const wh = await Warehouse.open(path);
  try {
    const runId = await startRun(wh, { command: 'run' });
    let ms = 0;
    for (let from = 0; from < nLawsuits; from += GENERATED_AT_ONCE) {
      const lines: string[] = [];
      for (let i = from; i < Math.min(nLawsuits, from + GENERATED_AT_ONCE); i++) lines.push(JSON.stringify(makeBenchItem(i)));
      const items = asReceived(lines);
      const t = performance.now();
      await loadResponseItems(wh, items, { runId, batchSize: 1000 });
      ms += performance.now() - t;
    }
    await detectChanges(wh, runId, { now: new Date() });
    await finishRun(wh, runId, { status: 'ok', calls: 0, callsByStatus: {}, lawsuits: nLawsuits });
    await wh.run('CHECKPOINT');
    return ms;
  } finally {
    await wh.close();
  }
}
