import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { LawsuitApi } from '../api/client.js';
import type { Config } from '../shared/config.js';
import { EtlError } from '../shared/errors.js';
import { createProgress, type Progress } from '../shared/progress.js';
import { Warehouse } from '../warehouse/warehouse.js';
import { openWorkCopy, type WorkCopy } from '../warehouse/publish.js';
import { startRun } from '../warehouse/ledger.js';
import type { RunContext } from './context.js';

export interface Session {
  ctx: RunContext;
  /** True when the session writes (a work copy); false for a dry run or `export`, which only read. */
  writes: boolean;
  /** The work copy is an earlier run's that did not publish: this run carries it on. */
  resumed: boolean;
  /** What had to be done to open a work copy DuckDB refused (warehouse/publish.ts), for the summary. */
  recovery?: string;
  /** The work copy replaces the published warehouse (readers never see a half run); the warehouse is closed. */
  publish(): Promise<void>;
  /** Closes everything not yet closed; an unpublished work copy stays for the next run to resume. */
  close(): Promise<void>;
}

interface SessionOptions {
  command: string;
  log: Logger;
  signal: AbortSignal;
  apiKey: string;
  /** Open the published warehouse read-only and record nothing (a dry run, `export`). */
  readOnly?: boolean;
  /** What the API client may send (commands.ts CommandPlan.sends). Default: all a stage asks. */
  sends?: 'none' | 'reads' | 'all';
}

/**
 * Opens the warehouse (migrating it), the API client (on first use: commands that send nothing never make
 * one, and need no key) and a `runs` row: everything a command's stages share.
 */
export async function openSession(cfg: Config, opts: SessionOptions): Promise<Session> {
  const { wh, work } = await openWarehouse(cfg, opts);
  const runId = opts.readOnly ? `read-${Date.now()}` : await startRun(wh, { command: opts.command });
  let api: LawsuitApi | undefined;
  const bars = new Map<string, Progress>();
  const ctx: RunContext = {
    cfg, wh, runId, log: opts.log.child({ run_id: runId }), signal: opts.signal,
    get api(): LawsuitApi {
      api ??= apiClient(cfg, opts);
      return api;
    },
    progress: (what, event, n) => {
      let bar = bars.get(what);
      if (!bar) {
        bar = createProgress({ log: opts.log, label: what, unit: what === 'documents' ? 'docs' : what === 'responses' ? 'items' : what === 'lawsuits' ? 'reads' : what });
        bars.set(what, bar);
      }
      if (event === 'total') bar.setTotal(n);
      else bar.tick(n);
    },
  };
  ctx.endProgress = () => {
    for (const b of bars.values()) b.done();
    bars.clear();
  };
  let closed = false;
  const finishIo = async (): Promise<void> => {
    ctx.endProgress?.();
    await api?.close().catch(() => undefined);
  };
  const session: Session = {
    ctx,
    writes: work !== undefined,
    resumed: work?.resumed ?? false,
    recovery: work?.recovery ? `the work copy could not be opened as it was (${work.recovery.reason}); recovered: ${work.recovery.how}` : undefined,
    async publish() {
      if (!work) throw new EtlError('RUN_READ_ONLY', 'a read-only session has nothing to publish');
      await finishIo();
      closed = true;
      await work.publish();
    },
    async close() {
      await finishIo();
      if (closed) return;
      closed = true;
      if (work) await work.close();
      else await wh.close();
    },
  };
  if (work) ctx.publish = () => session.publish();
  return session;
}

/**
 * The warehouse a session works in. Writers load into a work copy and publish it whole at the end
 * (src/warehouse/publish.ts), so an analyst holding the published file open never blocks a run and never sees a
 * half-loaded one. Readers only read.
 */
async function openWarehouse(cfg: Config, opts: SessionOptions): Promise<{ wh: Warehouse; work?: WorkCopy }> {
  if (opts.readOnly) {
    const wh = existsSync(cfg.warehouse)
      ? await Warehouse.open(cfg.warehouse, { readOnly: true })
      : await Warehouse.open(':memory:', { memoryLimit: cfg.duckdbMemoryLimit });
    return { wh };
  }
  const work = await openWorkCopy(cfg.warehouse, { memoryLimit: cfg.duckdbMemoryLimit, threads: cfg.duckdbThreads, log: opts.log });
  if (work.resumed) opts.log.warn({ work: work.workPath }, 'resuming the work copy of an earlier run that did not finish');
  return { wh: work.wh, work };
}

/** The API client, made when a stage first asks for it: a command that sends nothing refuses to make one. */
function apiClient(cfg: Config, opts: SessionOptions): LawsuitApi {
  if (opts.sends === 'none') {
    throw new EtlError('RUN_SENDS_NOTHING', `${opts.command}${cfg.dryRun ? ' --dry-run' : ''} sends nothing, yet a stage asked for the API client`);
  }
  return new LawsuitApi({
    apiKey: opts.apiKey, urls: cfg.urls, maxConcurrency: cfg.maxConcurrency, deadlines: cfg.deadlines, logger: opts.log, signal: opts.signal,
    readsOnly: opts.sends === 'reads', callbackUrl: cfg.callback.url,
  });
}
