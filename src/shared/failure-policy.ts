// The failure policy: the one place that decides, for every error the tool meets, what to do about it — send
// the call again after a backoff, wait for the rate limit, ask for a smaller page, send the plainer form of a
// call the provider refused, read a record that stands otherwise than asked, fetch a fresh download address,
// look for what an unanswered creation made before sending it again, submit a lost request's search again, or
// give up — and how far a failure reaches once given up on (one document or file, a whole stage, or the whole
// run). Its answer is a Resolution, the shape of Airbyte's ErrorResolution: an action and the kind of failure.
// One loop acts on the action (src/api/retry-loop.ts); callers that are no loop (the poller, the search stage,
// the readers of pages, the one-shot fallbacks) ask resolveFailure once per failure and act on its answer, so
// that the same error is never retried by one layer and given up on by another, and no caller compares error
// codes to choose a remedy of its own.
//
// Errors carry facts (a constant `code`, the HTTP status, whether the call surely was not processed, whether a
// loop already retried it as far as it would); this module turns facts into decisions. It imports no error
// class, so that anything with a `code` can be asked.

/** How far a failure reaches once no retry helps. Ordered: a wider reach wins. */
type Reach = 'item' | 'stage' | 'run';

interface FailureRule {
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
  /**
   * What heals it besides a plain retry, on a call that allows it (see CallRole): waiting for the rate limit, a
   * smaller page, the call's plainer form, reading the record as it stands, a fresh download address, submitting a
   * lost request's search again.
   */
  remedy?: Remedy;
  /**
   * Nothing failed for good: what the call would have done is left for the next run (the wait budget ran out on
   * a failing upstream, a look-up could not tell, a request still running). Not reported to the provider as an
   * error; the next run does it as it does anything not done.
   */
  deferred?: boolean;
  /**
   * The transferred file itself is bad: its size is not its record's (the API's only checksum), its content does
   * not read as its type says, or its name cannot be written. The one kind of a file's failure the provider is
   * told of (PATCH error: "analysed by the provider's technical team"), once every try of the night met it. Any
   * other (a time-out, a slow body, a full disk, an upstream failing) keeps the file for a later run.
   */
  fileAtFault?: boolean;
}

/** What heals a failure besides a plain retry after a backoff. */
type Remedy = Exclude<ResponseAction, 'retry' | 'lookup' | 'give-up'>;

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
  // A 403 the provider says is about secrecy (a secret lawsuit searched without a credential): that search's alone,
  // however many come in a row (a lawsuit-level read of many secret lawsuits must not refuse the resource).
  API_SECRET_LAWSUIT: { transient: false, reach: 'item', refused: true },
  // The key's window is full (429): every call waits for the limiter's pause, then this one is sent again.
  API_RATE_LIMITED: { transient: true, reach: 'item', remedy: 'wait-rate-limit' },
  API_SERVER: { transient: true, reach: 'item' },
  API_NETWORK: { transient: true, reach: 'item' },
  // A call cut off at its connect, headers or whole-body deadline (Config.deadlines): retried as any time-out.
  API_TIMEOUT: { transient: true, reach: 'item' },
  // Not sent: the stage's wait budget is spent and the upstream was failing; what it would have done is the next
  // run's, as a request still running is.
  API_OUT_OF_TIME: { transient: false, reach: 'item', deferred: true },
  API_BAD_RESPONSE: { transient: false, reach: 'item' },
  // An answer over the body limit: the same items fit in smaller pages, where the caller can ask for them so.
  API_TOO_LARGE: { transient: false, reach: 'item', remedy: 'shrink-page' },
  // The HTTP stack refused to build the call (a key or address it cannot send): every call would meet it.
  API_INVALID_CALL: { transient: false, reach: 'run' },
  // The provider refused the call's form (400/422): a caller that holds a plainer form (the spec's names alone, the
  // other status vocabulary, the spec's page size) sends that once; any other gives the call up.
  API_VALIDATION: { transient: false, reach: 'item', remedy: 'ask-plainer' },
  // On a call about a request we made (its status, its responses), the provider no longer knows it: its search
  // is submitted again (the search stage, at most once).
  API_NOT_FOUND: { transient: false, reach: 'item', remedy: 'resubmit' },
  // On a call that creates or changes a record the provider keeps (a tracking), the record already is, or can no
  // longer become, what was asked (409): it is read as it stands instead.
  API_CONFLICT: { transient: false, reach: 'item', remedy: 'read-record' },
  API_HTTP: { transient: false, reach: 'item' },
  // The client was closed (the run is stopping): what was not sent belongs to the next run.
  API_CLOSED: { transient: false, reach: 'stage' },
  // A pre-signed address expired or was altered: a fresh one is fetched, which is a retry.
  API_DOWNLOAD_EXPIRED: { transient: true, reach: 'item', remedy: 'refresh-address' },
  // A download whose size is not the record's: downloaded afresh, and the file's own fault if it stays so.
  API_DOWNLOAD_SIZE: { transient: true, reach: 'item', fileAtFault: true },
  API_DOWNLOAD_FAILED: { transient: true, reach: 'item' },
  API_DOWNLOAD_REFUSED: { transient: false, reach: 'item' },
  // The local disk refused the download: every other file would meet it too.
  API_DOWNLOAD_DISK: { transient: false, reach: 'stage' },
  TRANSFER_NO_ADDRESS: { transient: false, reach: 'item' },
  TRANSFER_UNSAFE_NAME: { transient: false, reach: 'item', fileAtFault: true },
  // A file whose content does not read as its type says (a parse error, no code and instance columns): downloaded
  // afresh in case the copy was damaged on the way, and the file's own fault if every try of the night meets it.
  TRANSFER_FILE_SHAPE: { transient: true, reach: 'item', fileAtFault: true },
  TRANSFER_FILE_READ: { transient: true, reach: 'item', fileAtFault: true },
  REQUEST_CANCELLED: { transient: false, reach: 'item' },
  REQUEST_LOST: { transient: false, reach: 'item' },
  REQUEST_STILL_RUNNING: { transient: false, reach: 'item', deferred: true },
  REQUEST_NOT_SUBMITTED: { transient: false, reach: 'item', deferred: true },
  // Whether an unanswered submission reached the provider could not be told: the search waits for the next run's
  // look-up rather than risk buying it twice.
  REQUEST_LOOKUP_UNPROVEN: { transient: false, reach: 'item', deferred: true },
  // A trackings night whose list would pause more than a tenth of the trackings (pipeline/tracking/reconcile-plan.ts):
  // the list is likely cut short, so nothing of the night goes on until a person looks (--allow-pause).
  TRACKING_PAUSE_GUARD: { transient: false, reach: 'run' },
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
interface Facts { code?: unknown; notProcessed?: unknown; ambiguous?: unknown; statusCode?: unknown; exhausted?: unknown }

function facts(e: unknown): Facts {
  return e !== null && typeof e === 'object' ? (e as Facts) : {};
}

/** The error's constant code, or `UNEXPECTED` when it has none this policy knows. */
export function codeOf(e: unknown): string {
  const c = facts(e).code;
  return typeof c === 'string' && c !== '' ? c : 'UNEXPECTED';
}

function ruleFor(e: unknown): FailureRule {
  return FAILURE_RULES[codeOf(e)] ?? UNEXPECTED;
}

export function isTransient(e: unknown): boolean {
  return ruleFor(e).transient;
}

/** `unsafe`: a call that creates something that may be billed (POST /requests); `idempotent`: any other. */
export type Safety = 'idempotent' | 'unsafe';

/** What to do about a failed call (Airbyte's ResponseAction). */
export type ResponseAction =
  /** Send it again after a backoff: the cause is passing and sending twice is harmless or surely did not happen. */
  | 'retry'
  /** Refused by the key's rate limit: send it again once the limiter's pause (the service's named time) is over. */
  | 'wait-rate-limit'
  /** The answer was too large: ask for the same items in smaller pages. */
  | 'shrink-page'
  /** The provider refused the call's form (400/422): send the plainer form the caller holds, once. */
  | 'ask-plainer'
  /** The record the call creates or changes already is, or can no longer become, what was asked (409): read it as it stands. */
  | 'read-record'
  /** A pre-signed address expired or was altered: fetch a fresh one, then download again. */
  | 'refresh-address'
  /** The call may have been acted on (an unsafe POST answered by a reset, a time-out or a 5xx): look for what it
   * created, and send it again only when nothing was. */
  | 'lookup'
  /** The provider lost the request this call was about (404): submit its search again. */
  | 'resubmit'
  /** Nothing heals it now; `reach` says how far the failure goes. */
  | 'give-up';

/** What the policy needs to know of the call that failed. */
export interface CallRole {
  /** Default `idempotent`. */
  safety?: Safety;
  /** `stage`: the stage cannot go on without this call (its listing); `item`: one document, page or file. Default `item`. */
  role?: 'item' | 'stage';
  /** The call reads a page whose size the caller can make smaller (a responses page). */
  pageSized?: boolean;
  /**
   * The caller holds a plainer form of the call to send should the provider refuse this one's (400/422): the spec's
   * names alone for documented ones (a probe: its next candidate, or none), the other status vocabulary, the spec's page
   * size for a larger one.
   */
  plainer?: boolean;
  /** The call creates or changes a record the provider keeps (a tracking): a 409 says how the record stands. */
  ofRecord?: boolean;
  /** The call is about a request the provider made for us (its status, its responses): a 404 means it lost it. */
  ofRequest?: boolean;
}

/** The policy's answer for one failure (Airbyte's ErrorResolution): the action, and the kind of failure. */
export interface Resolution {
  action: ResponseAction;
  /** How far the failure reaches once given up on, for the call's role (reachOf). */
  reach: Reach;
  /** The cause is passing: given up on now (a loop retried it as far as it would), a later call may succeed. */
  transient: boolean;
  /** The provider said no (401/403). */
  refused: boolean;
  /** Left for the next run, not failed (FailureRule.deferred). */
  deferred: boolean;
  /** The transferred file itself is bad (FailureRule.fileAtFault): the provider is told once every try met it. */
  fileAtFault: boolean;
}

/**
 * What to do about `e`, met by a call of `call`'s kind. A failure a loop already retried as far as it would
 * (`exhausted`) is given up on: an outer caller sending it again would multiply the sends (a transfer file's
 * address fetched 7 times by the client, 4 times over by the transfer step, was 28 sends).
 */
export function resolveFailure(e: unknown, call: CallRole = {}): Resolution {
  const rule = ruleFor(e);
  const kind = {
    reach: reachOf(e, call.role ?? 'item'), transient: rule.transient, refused: rule.refused === true, deferred: rule.deferred === true,
    fileAtFault: rule.fileAtFault === true,
  };
  return { action: actionFor(e, rule, call), ...kind };
}

/** The remedies only a call of some kind can take, and the CallRole flag that says a call is of that kind. */
const OFFERED_BY: Partial<Record<Remedy, 'pageSized' | 'plainer' | 'ofRecord' | 'ofRequest'>> = {
  'shrink-page': 'pageSized', 'ask-plainer': 'plainer', 'read-record': 'ofRecord', resubmit: 'ofRequest',
};

function actionFor(e: unknown, rule: FailureRule, call: CallRole): ResponseAction {
  const f = facts(e);
  if (f.exhausted === true) return 'give-up';
  const offeredBy = rule.remedy === undefined ? undefined : OFFERED_BY[rule.remedy];
  if (offeredBy !== undefined) return call[offeredBy] === true ? rule.remedy! : 'give-up';
  if (rule.remedy === 'refresh-address') return 'refresh-address';
  if (!rule.transient) return 'give-up';
  if ((call.safety ?? 'idempotent') === 'unsafe' && f.notProcessed !== true) return 'lookup';
  return rule.remedy === 'wait-rate-limit' ? 'wait-rate-limit' : 'retry';
}

/**
 * Whether an unsafe call that failed may still have been acted on: not when the service surely did nothing (a
 * 429, a connection that never opened) or answered a refusal (4xx). Otherwise what it may have made is looked
 * up before the call is ever sent again.
 */
export function mayHaveActed(e: unknown): boolean {
  const f = facts(e);
  if (f.notProcessed === true) return false;
  return !(typeof f.statusCode === 'number' && f.statusCode >= 400 && f.statusCode < 500);
}

const ORDER: Record<Reach, number> = { item: 0, stage: 1, run: 2 };

/**
 * How far a failure reaches given the role of the call that failed: an item-level error on a call the whole
 * stage depends on (its listing, its warehouse) ends the stage; a stage- or run-wide error on one item's
 * call (a 403, a 401) still reaches its stage or the run.
 */
function reachOf(e: unknown, role: 'item' | 'stage'): Reach {
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
