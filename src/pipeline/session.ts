import type { Logger } from 'pino';
import { LawsuitApi } from '../api/client.js';
import type { Config } from '../shared/config.js';
import { createProgress, type Progress } from '../shared/progress.js';
import { Warehouse } from '../warehouse/warehouse.js';
import { startRun } from '../warehouse/ledger.js';
import type { RunContext } from './context.js';

export interface Session { ctx: RunContext; close(): Promise<void> }

/** Opens the warehouse (migrating it), the API client and a `runs` row: everything a command's steps share. */
export async function openSession(cfg: Config, opts: { command: string; log: Logger; signal: AbortSignal; apiKey: string }): Promise<Session> {
  const wh = await Warehouse.open(cfg.warehouse);
  const api = new LawsuitApi({ apiKey: opts.apiKey, urls: cfg.urls, maxConcurrency: cfg.maxConcurrency, logger: opts.log });
  const runId = cfg.dryRun ? `dry-run-${Date.now()}` : await startRun(wh, { command: opts.command });
  const bars = new Map<string, Progress>();
  const ctx: RunContext = {
    cfg, api, wh, runId, log: opts.log.child({ run_id: runId }), signal: opts.signal,
    progress: (what, event, n) => {
      let bar = bars.get(what);
      if (!bar) {
        bar = createProgress({ log: opts.log, label: what, unit: what === 'documents' ? 'docs' : what });
        bars.set(what, bar);
      }
      if (event === 'total') bar.setTotal(n);
      else bar.tick(n);
    },
  };
  return {
    ctx,
    async close() {
      for (const b of bars.values()) b.done();
      await api.close().catch(() => undefined);
      await wh.close();
    },
  };
}
