// The failure policy: the one place that decides, for every error the tool meets, whether a retry can help,
// whether a call that may have been acted on must be looked up before it is sent again, and how far the
// failure reaches (one document or file, a whole stage, or the whole run). Every caller asks here — the HTTP
// client, the download, the transfer, polling, submission and the stage runner — so that a decision is made
// once and the same error is never retried by one layer and given up on by another.
//
// Errors carry facts (a constant `code`, the HTTP status, whether the call surely was not processed); this
// module turns facts into decisions. It imports no error class, so that anything with a `code` can be asked.

/** How far a failure reaches once no retry helps. Ordered: a wider reach wins. */
export type Reach = 'item' | 'stage' | 'run';

export interface FailureRule {
  /** A retry (after a backoff) may succeed: the cause is passing (429, 5xx, network, an expired address). */
  transient: boolean;
  /**
   * The least the failure reaches. `item`: one document, page or file fails, its siblings go on. `stage`: the
   * stage cannot go on (its resource refused, the warehouse or the disk failing). `run`: nothing more can be
   * sent (the key itself refused).
   */
  reach: Reach;
  /** The provider said no (401/403): the stage is `refused`, not `failed`. */
  refused?: boolean;
}

/**
 * Every error code the tool raises or meets, and its rule. A code not listed is an unexpected failure: not
 * retried, and it ends its stage (never silently an item, since nobody has looked at what it means).
 */
export const FAILURE_RULES: Readonly<Record<string, FailureRule>> = {
  // The provider refuses the key (401): every call would meet it, so the run stops sending at once.
  API_UNAUTHORIZED: { transient: false, reach: 'run', refused: true },
  // The key is fine but this resource is not in its plan, or over quota (403 after 403, api/http.ts): that
  // resource's stage only.
  API_FORBIDDEN: { transient: false, reach: 'stage', refused: true },
  // One call refused (403) among others answered: a secret lawsuit without a credential, a feature the plan
  // leaves out for that search. Its document fails; the others go on.
  API_FORBIDDEN_ONE: { transient: false, reach: 'item', refused: true },
  API_RATE_LIMITED: { transient: true, reach: 'item' },
  API_SERVER: { transient: true, reach: 'item' },
  API_NETWORK: { transient: true, reach: 'item' },
  // A call cut off at its connect, headers or whole-body deadline (Config.deadlines): retried as any time-out.
  API_TIMEOUT: { transient: true, reach: 'item' },
  // Not sent: the stage's wait budget is spent and the upstream was failing; what it would have done is the next
  // run's, as a request still running is.
  API_OUT_OF_TIME: { transient: false, reach: 'item' },
  API_BAD_RESPONSE: { transient: false, reach: 'item' },
  API_TOO_LARGE: { transient: false, reach: 'item' },
  // The HTTP stack refused to build the call (a key or address it cannot send): every call would meet it.
  API_INVALID_CALL: { transient: false, reach: 'run' },
  API_VALIDATION: { transient: false, reach: 'item' },
  API_NOT_FOUND: { transient: false, reach: 'item' },
  API_CONFLICT: { transient: false, reach: 'item' },
  API_HTTP: { transient: false, reach: 'item' },
  // The client was closed (the run is stopping): what was not sent belongs to the next run.
  API_CLOSED: { transient: false, reach: 'stage' },
  // A pre-signed address expired or was altered: a fresh one is fetched, which is a retry.
  API_DOWNLOAD_EXPIRED: { transient: true, reach: 'item' },
  API_DOWNLOAD_SIZE: { transient: true, reach: 'item' },
  API_DOWNLOAD_FAILED: { transient: true, reach: 'item' },
  API_DOWNLOAD_REFUSED: { transient: false, reach: 'item' },
  // The local disk refused the download: every other file would meet it too.
  API_DOWNLOAD_DISK: { transient: false, reach: 'stage' },
  TRANSFER_NO_ADDRESS: { transient: false, reach: 'item' },
  TRANSFER_UNSAFE_NAME: { transient: false, reach: 'item' },
  TRANSFER_FILE_SHAPE: { transient: false, reach: 'item' },
  TRANSFER_FILE_READ: { transient: true, reach: 'item' },
  REQUEST_CANCELLED: { transient: false, reach: 'item' },
  REQUEST_LOST: { transient: false, reach: 'item' },
  REQUEST_STILL_RUNNING: { transient: false, reach: 'item' },
  REQUEST_NOT_SUBMITTED: { transient: false, reach: 'item' },
  // Whether an unanswered submission reached the provider could not be told: the search waits for the next run's
  // look-up rather than risk buying it twice.
  REQUEST_LOOKUP_UNPROVEN: { transient: false, reach: 'item' },
  WAREHOUSE_SQL: { transient: false, reach: 'stage' },
  WAREHOUSE_OPEN: { transient: false, reach: 'run' },
  WAREHOUSE_WORK_COPY: { transient: false, reach: 'stage' },
  WAREHOUSE_PUBLISH: { transient: false, reach: 'stage' },
  WAREHOUSE_EXPORT: { transient: false, reach: 'stage' },
  // DuckDB ran out of its memory limit: the stage cannot go on, the next run (or a higher limit) can.
  WAREHOUSE_MEMORY: { transient: false, reach: 'stage' },
  // The run lock's file cannot be read or written: nothing may run without it.
  RUN_LOCK_IO: { transient: false, reach: 'run' },
  // File-system errors of our own folders (exports, staging, reports): the stage writing there fails.
  FS_NO_SPACE: { transient: false, reach: 'stage' },
  FS_NOT_WRITABLE: { transient: false, reach: 'stage' },
  FS_ERROR: { transient: false, reach: 'stage' },
};

const UNEXPECTED: FailureRule = { transient: false, reach: 'stage' };

/** The facts of an error the policy reads; any error object may be given. */
interface Facts { code?: unknown; notProcessed?: unknown; ambiguous?: unknown }

function facts(e: unknown): Facts {
  return e !== null && typeof e === 'object' ? (e as Facts) : {};
}

/** The error's constant code, or `UNEXPECTED` when it has none this policy knows. */
export function codeOf(e: unknown): string {
  const c = facts(e).code;
  return typeof c === 'string' && c !== '' ? c : 'UNEXPECTED';
}

export function ruleFor(e: unknown): FailureRule {
  return FAILURE_RULES[codeOf(e)] ?? UNEXPECTED;
}

export function isTransient(e: unknown): boolean {
  return ruleFor(e).transient;
}

/** What to do with a failed call. */
export type Action =
  /** Send it again after a backoff: the cause is passing and sending twice is harmless or surely did not happen. */
  | 'retry'
  /** The call may have been acted on (an unsafe POST answered by a reset, a time-out or a 5xx): look for what it
   * created before ever sending it again. */
  | 'lookup'
  /** Give up on this call; `reach` says how far the failure goes. */
  | 'fail';

/** `unsafe`: a call that creates something that may be billed (POST /requests); `idempotent`: any other. */
export type Safety = 'idempotent' | 'unsafe';

export function decide(e: unknown, safety: Safety): Action {
  if (!ruleFor(e).transient) return 'fail';
  if (safety === 'idempotent' || facts(e).notProcessed === true) return 'retry';
  return 'lookup';
}

const ORDER: Record<Reach, number> = { item: 0, stage: 1, run: 2 };

/**
 * How far a failure reaches given the role of the call that failed: an item-level error on a call the whole
 * stage depends on (its listing, its warehouse) ends the stage; a stage- or run-wide error on one item's
 * call (a 403, a 401) still reaches its stage or the run.
 */
export function reachOf(e: unknown, role: 'item' | 'stage'): Reach {
  const r = ruleFor(e).reach;
  return ORDER[r] >= ORDER[role] ? r : role;
}

/** The status a stage ends with when this error ends it. */
export function stageStatusFor(e: unknown): 'failed' | 'refused' {
  return ruleFor(e).refused ? 'refused' : 'failed';
}

/** Node's file-system error codes mapped to the policy's, so a full disk reads as such in every summary. */
export function fsCodeOf(errno: string | undefined): 'FS_NO_SPACE' | 'FS_NOT_WRITABLE' | 'FS_ERROR' {
  if (errno === 'ENOSPC' || errno === 'EDQUOT') return 'FS_NO_SPACE';
  if (errno === 'EACCES' || errno === 'EPERM' || errno === 'EROFS') return 'FS_NOT_WRITABLE';
  return 'FS_ERROR';
}
