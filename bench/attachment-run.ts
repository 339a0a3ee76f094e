import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/sandbox/server.js';
import { Warehouse } from '../src/warehouse/warehouse.js';
import { measuredRun, sandboxRunEnv } from './pipeline-run.js';

// `lawsuit-etl run` of one lawsuit whose attachment files are `fileMb` MB each (the sandbox's attachment_big
// switch), in a child process under the production memory budget: each body streams to the store, hashed as it
// comes, never held, so the peak stays flat in the file's size. Bytes per second are the attachments stage's own:
// the bytes it stored over its time in run_stages.

export interface AttachmentFigures { exitCode: number | null; peakRssMb: number; fileMb: number; files: number; bytes: number; stageMs: number }

export async function attachmentRun(fileMb: number): Promise<AttachmentFigures> {
  const MB = 1024 * 1024;
  const sb = await startSandbox({ seed: 7, rateLimit: 100_000, lawsuits: 2000, faults: `attachment_big=1:${fileMb * MB}` });
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-attachments-'));
  try {
    // one open lawsuit with a single file ready: one download of the size asked
    const now = sb.state.clock.now();
    let code: string | undefined;
    for (let i = 0; i < sb.universe.count && !code; i++) {
      const l = sb.universe.lawsuit(i, now, { onDemand: true, shape: 'full', withAttachments: true }) as { code: string; secrecy_level: number; attachments?: Array<{ status: string }> } | undefined;
      if (l && l.secrecy_level === 0 && sb.universe.lawsuitsOfCnj(l.code).length === 1 && l.attachments?.length === 1 && l.attachments[0].status === 'done') code = l.code;
    }
    if (!code) throw new Error('no lawsuit with one ready attachment in the sandbox');
    const csv = join(dir, 'documents.csv');
    writeFileSync(csv, `search_key,search_type\n${code},lawsuit_cnj\n`);
    const env = {
      ...sandboxRunEnv(sb.url, dir), LAWSUIT_DOCUMENTS: csv, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_WITH_ATTACHMENTS: 'true',
      LAWSUIT_ATTACHMENTS_DIR: join(dir, 'attachments'), LAWSUIT_ATTACHMENT_MAX_SIZE: `${2 * fileMb + 1}MiB`,
    };
    const run = await measuredRun(['run'], env);
    const wh = await Warehouse.open(join(dir, 'w.duckdb'), { readOnly: true });
    try {
      const [r] = await wh.all<{ files: number; bytes: number; ms: number }>(`SELECT
        (SELECT count(*) FROM attachment_files)::INTEGER AS files, (SELECT coalesce(sum(bytes), 0) FROM attachment_files)::DOUBLE AS bytes,
        (SELECT epoch_ms(finished_at) - epoch_ms(started_at) FROM run_stages WHERE stage = 'attachments')::DOUBLE AS ms`);
      return { exitCode: run.exitCode, peakRssMb: run.peakRssMb, fileMb, files: r.files, bytes: r.bytes, stageMs: r.ms };
    } finally {
      await wh.close();
    }
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
