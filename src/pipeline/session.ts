import type { Logger } from 'pino';
import { LawsuitApi } from '../api/client.js';
import type { Config } from '../shared/config.js';
import { createProgress, type Progress } from '../shared/progress.js';
import { Warehouse } from '../warehouse/warehouse.js';
import { openWorkCopy } from '../warehouse/publish.js';
import { existsSync } from 'node:fs';
import { startRun } from '../warehouse/ledger.js';
import type { RunContext } from './context.js';

export interface Session {
  ctx: RunContext;
  /** Closes everything; with `publish`, the work copy replaces the published warehouse (readers never see a half run). */
  close(opts?: { publish?: boolean }): Promise<void>;
}

/** Opens the warehouse (migrating it), the API client and a `runs` row: everything a command's steps share. */
export async function openSession(cfg: Config, opts: { command: string; log: Logger; signal: AbortSignal; apiKey: string }): Promise<Session> {
  // Writers load into a work copy and publish it whole at the end (src/warehouse/publish.ts), so an analyst
  // holding the published file open never blocks a run and never sees a half-loaded one. A dry run only reads.
  const work = cfg.dryRun ? undefined : await openWorkCopy(cfg.warehouse, { memoryLimit: cfg.duckdbMemoryLimit, threads: cfg.duckdbThreads, log: opts.log });
  const wh = work?.wh ?? (existsSync(cfg.warehouse)
    ? await Warehouse.open(cfg.warehouse, { readOnly: true })
    : await Warehouse.open(':memory:', { memoryLimit: cfg.duckdbMemoryLimit }));
  if (work?.resumed) opts.log.warn({ work: work.workPath }, 'resuming the work copy of an earlier run that did not finish');
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
    async close(closeOpts = {}) {
      for (const b of bars.values()) b.done();
      await api.close().catch(() => undefined);
      if (!work) await wh.close();
      else if (closeOpts.publish) await work.publish();
      else await work.close();
    },
  };
}
