import type { Logger } from 'pino';
import type { LawsuitApi } from '../api/client.js';
import type { Config } from '../shared/config.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** What every step of a run is handed: plain dependencies, no globals. */
export interface RunContext {
  cfg: Config;
  api: LawsuitApi;
  wh: Warehouse;
  runId: string;
  log: Logger;
  /** Aborted on SIGTERM: steps stop starting new work, finish what is in hand and return. */
  signal: AbortSignal;
  /** Publishes the work copy (the publish stage's one action); absent in read-only sessions. */
  publish?: () => Promise<void>;
  /** Polling speeds for tests that drive the pipeline in-process (default: poll.ts's own). */
  pollTuning?: { minIntervalMs?: number; maxIntervalMs?: number };
  /** Lawsuit-level reads a part of that wave holds, for tests that drive several parts on a small night (default 1,000). */
  readsPerPart?: number;
  /** Ends every progress display still open (a stage's bars end with the stage, before anything is printed after it). */
  endProgress?: () => void;
  /** Progress callbacks for long work (a bar on a terminal, log lines otherwise). */
  progress?: (what: 'documents' | 'lawsuits' | 'pages' | 'files' | 'responses', event: 'total' | 'tick', n: number) => void;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
