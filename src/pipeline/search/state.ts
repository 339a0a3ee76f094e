import type { PlannedSearch } from '../plan.js';
import type { ItemFailure } from '../stage.js';

// What the search stage knows of its night, as data: each planned search and what became of it, each request
// (resumed or bought tonight) and where it stands, and what stopped the stage. The reducer (reduce.ts) is the
// only writer; the stage's figures and report (report.ts) are read off it, never counted on the side.

/** Cancelled requests are submitted again, at most this many times per document in one run. */
export const MAX_RESUBMITS = 5;

interface SearchEntry {
  readonly planned: PlannedSearch;
  /** Submissions of it that were not sent: the stage stopped or the run was stopping before their turn. */
  notSent: number;
  /** Its requests the provider cancelled, and those it forgot (404): each resubmitted, within limits. */
  cancels: number;
  losses: number;
  /** It failed as a document (its failure is in `SearchState.failures`). */
  failed: boolean;
  /** Why it failed, when it did. */
  error?: { code: string; message: string };
  /** A lawsuit-level read the provider refused (a secret lawsuit): the lawsuit is unavailable, no failure of the night. */
  unavailable?: boolean;
}

/**
 * Where a request stands. `running`: waited for (polled); `reading`: finished, its responses being read (by the
 * sweep or on its own); `loaded`: fully loaded; `unwatched`: bought, but the stage failed before waiting for it.
 */
type RequestPhase = 'running' | 'reading' | 'loaded' | 'cancelled' | 'lost' | 'failed' | 'unwatched';

export interface RequestEntry {
  /** The searchHash of the search it answers. */
  readonly search: string;
  /** Submitted by an earlier run. */
  readonly resumed: boolean;
  /** The provider's created_at (epoch ms), when known. */
  readonly createdAt?: number;
  phase: RequestPhase;
  /** Read on its own (GET /responses?request_id=), not by the sweep. */
  alone: boolean;
  /** Pages read on its own. */
  pages: number;
}

export interface SearchState {
  /** By searchHash: every search of tonight's plan (to submit, held, or resumed). */
  searches: Map<string, SearchEntry>;
  /** By request id: resumed requests first, then those bought tonight in the order the provider answered. */
  requests: Map<string, RequestEntry>;
  /** Documents that failed, in the order met. */
  failures: ItemFailure[];
  /** Submissions on their way: those of tonight's plan, and resubmissions (cancelled, lost). */
  sending: { first: number; again: number };
  /** Interrupted submissions the provider's listing showed it had made (resolved before the plan). */
  adopted: number;
  /** What ended the stage for everyone: the resource (403) or the key (401) refused, or a failure reaching past its document. */
  stop?: { error: unknown; reach: 'stage' | 'run' };
  /** A failure of our own (the warehouse, a bug): the stage throws it once everything in hand has settled. */
  unexpected?: unknown;
  /** SIGTERM: nothing new is started. */
  aborted: boolean;
  /** The stage's wait budget, spent on an upstream that kept failing (the client's error saying so). */
  budgetOut?: Error;
  /** Problems the loader met in the responses it committed. */
  loadProblems: number;
}

/** Tonight's searches (to submit or held, and resumed) and the requests resumed from earlier runs. */
export function searchState(plan: {
  searches: readonly PlannedSearch[];
  resumed: ReadonlyArray<{ requestId: string; search: string; createdAt?: number }>;
  adopted: number;
}): SearchState {
  const searches = new Map<string, SearchEntry>();
  for (const p of plan.searches) searches.set(p.searchHash, { planned: p, notSent: 0, cancels: 0, losses: 0, failed: false });
  const requests = new Map<string, RequestEntry>();
  for (const r of plan.resumed) requests.set(r.requestId, { search: r.search, resumed: true, createdAt: r.createdAt, phase: 'running', alone: false, pages: 0 });
  return { searches, requests, failures: [], sending: { first: 0, again: 0 }, adopted: plan.adopted, aborted: false, loadProblems: 0 };
}

/** Whether anything new may start: no SIGTERM, no refusal or failure that ended the stage. */
export function searching(s: SearchState): boolean {
  return !s.aborted && !s.stop && s.unexpected === undefined;
}

/** Whether more requests may still come to be waited for (submissions on their way, reads that may resubmit). */
export function moreToCome(s: SearchState): boolean {
  if (s.stop || s.unexpected !== undefined) return false;
  if (s.sending.first + s.sending.again > 0) return true;
  // A request read on its own may turn out forgotten (404) and its search be submitted again: polling waits for
  // such reads to end, or it would stop before the new request and leave it running (seen: 1 run in 3).
  for (const r of s.requests.values()) if (r.alone && r.phase === 'reading') return true;
  return false;
}

/** Whether the sweep reads what it has left at the end: not on SIGTERM, a stopped stage or a spent budget. */
export function drainable(s: SearchState): boolean {
  return searching(s) && !s.budgetOut;
}
