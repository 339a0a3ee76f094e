// Child of big-file-memory.test.ts: downloads and loads the sandbox's huge file in a process of its own and
// writes its peak resident memory to TRANSFER_MEM_OUT. Not a test file on its own (no .test.ts suffix).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { pino } from 'pino';
import { runTransfer } from '../../src/pipeline/transfer.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadConfig } from '../../src/shared/config.js';
import { clientFor } from './helpers.js';

test.runIf(process.env.TRANSFER_MEM_OUT)('download and load the huge file', async () => {
  const dir = process.env.TRANSFER_MEM_DIR!;
  const { api } = clientFor(process.env.TRANSFER_BASE_URL!);
  // the warehouse as a run opens it (LAWSUIT_DUCKDB_MEMORY_LIMIT and LAWSUIT_DUCKDB_THREADS at their defaults)
  const cfg = loadConfig({ env: {}, flags: { sandbox: true } });
  const wh = await Warehouse.open(join(dir, 'wh.duckdb'), { memoryLimit: cfg.duckdbMemoryLimit, threads: cfg.duckdbThreads });
  const baselineKb = process.resourceUsage().maxRSS;
  const t0 = Date.now();
  let afterDownloadKb = 0;
  const download: typeof api.download = async (u, d, o) => {
    const r = await api.download(u, d, o);
    afterDownloadKb = process.resourceUsage().maxRSS;
    return r;
  };
  const summary = await runTransfer({ api: { walk: (q) => api.walk(q), get: (id) => api.get(id), patch: (id, st, m) => api.patch(id, st, m), download }, wh, stagingDir: join(dir, 'staging'), runId: 'mem', log: pino({ level: 'silent' }), retries: 0 });
  const ms = Date.now() - t0;
  await wh.close();
  await api.close();
  writeFileSync(process.env.TRANSFER_MEM_OUT!, JSON.stringify({ summary, ms, baselineKb, afterDownloadKb, maxRssKb: process.resourceUsage().maxRSS }));
});
