import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTransferTestServer } from '../test/support/transfer-test-server.js';
import { measuredRun, sandboxRunEnv } from './pipeline-run.js';

// `lawsuit-etl transfer` on one big CSV transfer file, in a child process under the production memory budget:
// the file is streamed to staging and loaded by DuckDB, never held, so the peak stays flat in the file's size.

export interface TransferFigures { exitCode: number | null; ms: number; peakRssMb: number; fileMb: number; rows: number; loadedRows: number }

export async function transferRun(fileMb: number): Promise<TransferFigures> {
  const MB = 1024 * 1024;
  const server = await startTransferTestServer({ seed: 5, catalogue: { count: 0, errorCount: 0, extra: [{ bytes: fileMb * MB, fileType: 'csv', kind: 'steps' }] } });
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-transfer-'));
  try {
    const info = await server.ctx.content.info(server.ctx.store.files[0]);
    const run = await measuredRun(['transfer'], sandboxRunEnv(server.baseUrl, dir));
    return { ...run, fileMb: Math.round(info.bytes / MB), rows: info.rows, loadedRows: Number(/loaded \((\d+) rows\)/.exec(run.stdout)?.[1] ?? NaN) };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
