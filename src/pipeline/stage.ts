import type { DocumentsList } from '../input/documents.js';
import type { ChangeRow } from '../warehouse/changes.js';
import type { RunContext } from './context.js';
import type { SpoolReading } from './delivered/spool-reading.js';

// A run is a list of stages. Each stage declares what it needs, does its work, and reports its counts and
// the items (documents, files, requests) that failed; the runner (runner.ts) times it, records it in
// `run_stages`, and decides from the results alone what the night was (outcome.ts). A stage that fails does
// not take the others with it: the stages that do not need it still run, and the night is published with
// everything that succeeded.

export const STAGE_NAMES = ['rebuild', 'documents', 'trackings', 'search', 'lawsuits', 'lawsuit-trackings', 'trackings-cursor', 'attachments', 'transfer', 'changes', 'query', 'track', 'exports', 'publish'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/**
 * `ok`: the stage did its work (some of its items may still have failed: see `failures`). `failed`: it could
 * not go on (an unexpected error, the warehouse or the disk), or every item it tried failed. `refused`: the provider refused its resource
 * (403), or the key (401). `skipped`: it did not run (a stage it needs did not end ok, a flag left it out, the
 * key was refused, the run was stopped). `interrupted`: SIGTERM arrived while it ran.
 */
const STAGE_STATUSES = ['ok', 'failed', 'refused', 'skipped', 'interrupted'] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];

/** One document, file or request that failed inside a stage that went on. */
export interface ItemFailure {
  what: 'document' | 'lawsuit' | 'transfer file' | 'request' | 'stage';
  /** Where to look: `line 12 (cpf)`, `name.csv (id)`, ... */
  where: string;
  code: string;
  reason: string;
}

/** What a stage's work returns. */
export interface StageReport {
  /** The stage's figures (documents listed, pages read, rows exported, ...), each a count. */
  counts: Record<string, number>;
  failures?: ItemFailure[];
  /** The stage stopped early on SIGTERM; what it left undone is the next run's. */
  interrupted?: boolean;
  /**
   * Items the stage finished tonight (requests loaded, files loaded, queries answered). A stage with failed
   * items and none finished is `failed`, not `ok`: it did none of its work.
   */
  finished?: number;
  /**
   * The stage ended on a refusal or failure it handled itself (e.g. every submission answered 403), with the
   * error that ended it; `reach: 'run'` when nothing more can be sent by anyone (the key itself refused).
   */
  ended?: { status: 'failed' | 'refused'; code: string; message: string; reach: 'stage' | 'run' };
}

export interface StageResult {
  name: StageName;
  status: StageStatus;
  startedAt: Date;
  finishedAt: Date;
  counts: Record<string, number>;
  failures: ItemFailure[];
  /** Why it failed, was refused or skipped. */
  error?: { code: string; message: string };
  /** The failure reaches the whole run: the key was refused. */
  runWide?: boolean;
  /** It ended on a usage or configuration error (exit 2): e.g. a folder the configuration names cannot be written. */
  usageError?: boolean;
  /**
   * A stage that calls the API: its calls, and those answered (a whole answer, status below 500). Calls with none
   * answered, all night, mean nothing reached the upstream (outcome.ts: exit 75).
   */
  api?: { calls: number; answered: number };
}

/**
 * What the whole night shares, filled in as it runs: the list read before it, and what the summary and the publish
 * gather from every stage (notes, the spool's reading, what to do once published). What one stage hands another is
 * a typed value of its own instead (stage-hand-off.ts).
 */
export interface NightData {
  /** The documents list, read before the run opened anything (a list that cannot be read is a usage error). */
  list?: DocumentsList;
  /** The changes stage's most telling changes, for the summary and the report. */
  changes?: { counts: Record<string, number>; top: ChangeRow[] };
  /** Where the exports stage wrote. */
  exportDir?: string;
  /** What the operator should know beyond the stages' figures (shown in the summary and the report). */
  notes?: string[];
  /** The night's reading of the webhook intake's spool, once a stage opened it (delivered/night-spool.ts). */
  spool?: SpoolReading;
  /** What to do once the night is published (the spool's segments it holds whole deleted), each failure only logged. */
  published?: Array<() => Promise<void>>;
}

export interface Stage {
  name: StageName;
  /** Stages that must have ended `ok` for this one to run; otherwise it is skipped, naming them. */
  needs: readonly StageName[];
  /** It sends API calls: skipped once the key is refused. */
  callsApi: boolean;
  /**
   * It has a dry path, so a dry run keeps it: it plans from what it can read and writes nothing, changes nothing and
   * buys nothing. `offline`: from the list and the warehouse alone (the documents stage, the lawsuits stage's known
   * levels); `reads`: with a listing the provider does not bill besides (a trackings night lists the key's trackings).
   */
  plansDry?: 'offline' | 'reads';
  /**
   * It closes the warehouse (publish): its row is recorded as ended `ok` before it runs, since nothing can be
   * written after it; a run that dies while publishing is found out by the next one (runner.ts).
   */
  closesWarehouse?: boolean;
  /**
   * It writes what analysts read (the exports, publish): on a night nothing reached the upstream there is nothing
   * new to show, and it is skipped, the work copy kept for the next run.
   */
  publishes?: boolean;
  /** Why the configuration (`--skip-transfer`) or the night's list leaves it out tonight, or undefined. */
  skipReason?(ctx: RunContext, night: NightData): string | undefined;
  run(ctx: RunContext, night: NightData): Promise<StageReport>;
}
