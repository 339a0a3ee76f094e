import type { RequestObject } from '../../spec/types.js';
import { EtlError } from '../../shared/errors.js';
import { codeOf, resolveFailure } from '../../shared/failure-policy.js';
import { MAX_RESUBMITS, type RequestEntry, type SearchState } from './state.js';

// The search stage as a reducer: (state, event) -> (state, commands). What the stage hears (a submission
// answered, a request finished, cancelled or forgotten, a page read, a refusal, SIGTERM) becomes a change of
// its state (state.ts) and the commands the shell performs (submit, wait, read, hand to the sweep, mark in the
// ledger, log). No call, no clock, no warehouse here: what a command does, and the answer it gets, comes back
// as another event. The state is the reducer's to update in place (it is the stage's only copy and holds a
// whole night's requests; copying it per event would cost a night of 100,000 documents more than its calls).
//
// How far a failure reaches is the failure policy's answer: a document's failure is that document's (the others
// go on); a refusal of the resource (403) or of the key (401), or a failure of our own reaching past its
// document, stops all further submissions; a failure nobody classified ends the stage once what is in hand
// has settled.

export type SearchEvent =
  /** An interrupted submission the provider's listing could not settle: not submitted tonight. */
  | { kind: 'held'; search: string; error: unknown }
  /** Tonight's plan starts: the resumed requests are waited for, `submit` (searchHashes) submitted. */
  | { kind: 'start'; submit: readonly string[] }
  /** A submission was answered: the provider made `request` (and the sweep recorded whether it reads it). */
  | { kind: 'submitted'; search: string; first: boolean; request: RequestObject }
  /** A submission failed; `request` when the provider made it but recording it failed. */
  | { kind: 'submit-failed'; search: string; first: boolean; error: unknown; request?: RequestObject }
  /** A submission's turn came once nothing new could start. */
  | { kind: 'not-submitted'; search: string; first: boolean }
  /** A request completed; `member`: the sweep reads it. */
  | { kind: 'finished'; request: RequestObject; member: boolean }
  | { kind: 'cancelled'; request: RequestObject }
  /** The provider no longer knows the request (404). */
  | { kind: 'lost'; requestId: string; reason: string }
  /** Asking for a request on its own failed in a way no retry helps. */
  | { kind: 'failed'; requestId: string; error: unknown }
  /** A request is fully loaded, read on its own in `pages` pages, or by the sweep (0). */
  | { kind: 'loaded'; requestId: string; pages: number }
  | { kind: 'read-failed'; requestId: string; error: unknown }
  /** The sweep hands over a finished request it will not read (already recorded completed). */
  | { kind: 'handed-over'; request: RequestObject }
  /** The sweep's listing, or the key, was refused. */
  | { kind: 'refused'; error: unknown }
  /** Waiting for the requests failed as a whole. */
  | { kind: 'poll-failed'; error: unknown }
  /** Something of our own failed (the ledger, the warehouse): the stage ends with it. */
  | { kind: 'broke'; error: unknown }
  /** A batch of pages was committed, with the problems the loader met in it. */
  | { kind: 'committed'; problems: number }
  | { kind: 'abort' }
  | { kind: 'budget-out'; error: Error };

export type SearchCommand =
  | { kind: 'submit'; search: string; first: boolean }
  /** Poll it until it finishes. `createdAt`: the provider's (epoch ms), when known. */
  | { kind: 'wait'; requestId: string; createdAt?: number; resumed: boolean }
  /** Read its responses on its own, recording it completed first unless `recorded`. */
  | { kind: 'read'; request: RequestObject; recorded: boolean }
  /** Tell the sweep it finished. */
  | { kind: 'sweep'; request: RequestObject }
  /** Tell the sweep it will not finish. */
  | { kind: 'forget'; requestId: string }
  | { kind: 'mark'; requestId: string; status: 'cancelled' | 'lost'; error?: string }
  /** An answered submission: the upstream is not failing, the budget for calls that keep failing starts again. */
  | { kind: 'restart-budget' }
  /** One more document done. */
  | { kind: 'progress' }
  /** Searching stopped for everyone: said once, not once per document that met it. */
  | { kind: 'stop'; code: string; message: string }
  | { kind: 'log'; level: 'warn' | 'error'; fields: Record<string, unknown>; message: string };

interface Step { state: SearchState; commands: SearchCommand[] }

export function reduce(s: SearchState, e: SearchEvent): Step {
  const out: SearchCommand[] = [];
  switch (e.kind) {
    case 'held': fail(s, e.search, e.error, out); break;
    case 'start': start(s, e.submit, out); break;
    case 'submitted': submitted(s, e, out); break;
    case 'submit-failed': submitFailed(s, e, out); break;
    case 'not-submitted': answered(s, e.first); s.searches.get(e.search)!.notSent++; break;
    case 'finished': finished(s, e.request, e.member, out); break;
    case 'cancelled': cancelled(s, e.request, out); break;
    case 'lost': lost(s, e.requestId, e.reason, out); break;
    case 'failed': failRequest(s, e.requestId, e.error, out); break;
    case 'loaded': loaded(s, e.requestId, e.pages, out); break;
    case 'read-failed': readFailed(s, e.requestId, e.error, out); break;
    case 'handed-over': read(s, e.request, true, out); break;
    case 'refused': stopSearching(s, e.error, out); break;
    case 'poll-failed':
      if (resolveFailure(e.error, { role: 'stage' }).reach === 'run' && !s.stop) stopSearching(s, e.error, out);
      else s.unexpected ??= e.error;
      break;
    case 'broke': s.unexpected ??= e.error; break;
    case 'committed': s.loadProblems += e.problems; break;
    case 'abort': s.aborted = true; break;
    case 'budget-out': s.budgetOut = e.error; break;
  }
  return { state: s, commands: out };
}

function start(s: SearchState, submit: readonly string[], out: SearchCommand[]): void {
  for (const [requestId, r] of s.requests) if (r.phase === 'running') out.push({ kind: 'wait', requestId, createdAt: r.createdAt, resumed: r.resumed });
  for (const search of submit) {
    s.sending.first++;
    out.push({ kind: 'submit', search, first: true });
  }
}

function submitted(s: SearchState, e: Extract<SearchEvent, { kind: 'submitted' }>, out: SearchCommand[]): void {
  const createdAt = Date.parse(e.request.created_at) || undefined;
  s.requests.set(e.request.request_id, { search: e.search, resumed: false, createdAt, phase: 'running', alone: false, pages: 0 });
  out.push({ kind: 'wait', requestId: e.request.request_id, createdAt, resumed: false });
  // Only while tonight's plan is still being submitted: past that, the budget runs from the end of the submissions.
  if (s.sending.first > 0) out.push({ kind: 'restart-budget' });
  answered(s, e.first);
}

function submitFailed(s: SearchState, e: Extract<SearchEvent, { kind: 'submit-failed' }>, out: SearchCommand[]): void {
  answered(s, e.first);
  if (e.request) s.requests.set(e.request.request_id, { search: e.search, resumed: false, phase: 'unwatched', alone: false, pages: 0 });
  const code = codeOf(e.error);
  const entry = s.searches.get(e.search)!;
  // Not sent because the stage stopped (its turn came after a refusal), or the run is stopping (SIGTERM).
  if (code === 'REQUEST_NOT_SUBMITTED' || (s.aborted && code === 'API_CLOSED')) {
    entry.notSent++;
    return;
  }
  if (resolveFailure(e.error).reach !== 'item') entry.notSent++;
  fail(s, e.search, e.error, out);
}

function answered(s: SearchState, first: boolean): void {
  if (first) s.sending.first--;
  else s.sending.again--;
}

function finished(s: SearchState, req: RequestObject, member: boolean, out: SearchCommand[]): void {
  if (!member) return read(s, req, false, out);
  setPhase(s, req.request_id, 'reading');
  out.push({ kind: 'sweep', request: req });
}

/** Read on its own; `recorded`: a request the sweep hands over was recorded completed when the sweep saw it finish. */
function read(s: SearchState, req: RequestObject, recorded: boolean, out: SearchCommand[]): void {
  const r = setPhase(s, req.request_id, 'reading');
  if (r) r.alone = true;
  out.push({ kind: 'read', request: req, recorded });
}

function loaded(s: SearchState, requestId: string, pages: number, out: SearchCommand[]): void {
  const r = setPhase(s, requestId, 'loaded');
  if (r) r.pages += pages;
  out.push({ kind: 'progress' });
}

/** Cancelled by the provider: submitted again, at most MAX_RESUBMITS times per document. */
function cancelled(s: SearchState, req: RequestObject, out: SearchCommand[]): void {
  const id = req.request_id;
  out.push({ kind: 'forget', requestId: id }, { kind: 'mark', requestId: id, status: 'cancelled' });
  const r = setPhase(s, id, 'cancelled');
  if (!r) return;
  const entry = s.searches.get(r.search)!;
  const n = ++entry.cancels;
  if (n > MAX_RESUBMITS) return fail(s, r.search, new EtlError('REQUEST_CANCELLED', `request ${id} was cancelled by the provider ${n} times`), out);
  warn(out, { request_id: id, where: entry.planned.where }, 'request cancelled by the provider; submitting it again');
  again(s, r.search, out);
}

/** The provider does not know the request (404): it is resubmitted once, recorded, and never waited on. */
function lost(s: SearchState, requestId: string, reason: string, out: SearchCommand[]): void {
  out.push({ kind: 'forget', requestId },
    { kind: 'mark', requestId, status: 'lost', error: `the provider no longer knows this request (404): ${reason}`.slice(0, 500) });
  const r = setPhase(s, requestId, 'lost');
  if (!r) return;
  const entry = s.searches.get(r.search)!;
  if (++entry.losses > 1) {
    return fail(s, r.search, new EtlError('REQUEST_LOST', `the provider lost request ${requestId} after a resubmission already replaced a lost one`), out);
  }
  warn(out, { request_id: requestId, where: entry.planned.where }, 'the provider no longer knows this request (404); submitting the search again, once');
  again(s, r.search, out);
}

function again(s: SearchState, search: string, out: SearchCommand[]): void {
  s.sending.again++;
  out.push({ kind: 'submit', search, first: false });
}

function failRequest(s: SearchState, requestId: string, error: unknown, out: SearchCommand[]): void {
  const r = setPhase(s, requestId, 'failed');
  if (r) fail(s, r.search, error, out);
}

function readFailed(s: SearchState, requestId: string, error: unknown, out: SearchCommand[]): void {
  // The provider lost the request (404 on its responses): its search is submitted again.
  const failure = resolveFailure(error, { ofRequest: true });
  if (failure.action === 'resubmit') return lost(s, requestId, (error as Error).message, out);
  // A refusal (403, 401) stops the stage or the run; a stage-wide failure of our own (the warehouse, the
  // disk) ends the stage as failed.
  const reach = failure.reach;
  const r = s.requests.get(requestId);
  if (failure.refused && reach !== 'item') stopSearching(s, error, out);
  else if (r && reach === 'item') failRequest(s, requestId, error, out);
  else s.unexpected ??= error;
}

/**
 * A document fails, unless the failure reaches past it: then searching stops. A lawsuit-level read the provider
 * refuses (a secret lawsuit) is no failure: the lawsuit is unavailable, what the night knows of it, retried on a
 * backoff in days (stages/lawsuits.ts records it).
 */
function fail(s: SearchState, search: string, error: unknown, out: SearchCommand[]): void {
  const failure = resolveFailure(error);
  if (failure.reach !== 'item') return stopSearching(s, error, out);
  const entry = s.searches.get(search)!;
  const p = entry.planned;
  const code = codeOf(error);
  const message = (error as Error).message;
  entry.failed = true;
  entry.error = { code, message };
  const fields = { where: p.where, search_type: p.search.search_type, code };
  if (p.doc === undefined && failure.refused) {
    entry.unavailable = true;
    out.push({ kind: 'log', level: 'warn', fields, message: `lawsuit unavailable: ${message}; asked again on a backoff in days` });
    return;
  }
  s.failures.push({ what: p.doc ? 'document' : 'lawsuit', where: p.where, code, reason: message });
  out.push({ kind: 'log', level: 'error', fields, message: `search failed: ${message}` });
}

/** Ends the stage for everyone (a refusal, a failure reaching past its document): said once. */
function stopSearching(s: SearchState, error: unknown, out: SearchCommand[]): void {
  if (s.stop) return;
  s.stop = { error, reach: resolveFailure(error, { role: 'stage' }).reach === 'run' ? 'run' : 'stage' };
  out.push({ kind: 'stop', code: codeOf(error), message: (error as Error).message });
}

function setPhase(s: SearchState, requestId: string, phase: RequestEntry['phase']): RequestEntry | undefined {
  const r = s.requests.get(requestId);
  if (r) r.phase = phase;
  return r;
}

function warn(out: SearchCommand[], fields: Record<string, unknown>, message: string): void {
  out.push({ kind: 'log', level: 'warn', fields, message });
}
