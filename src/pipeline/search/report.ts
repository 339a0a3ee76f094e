import { codeOf, stageStatusFor } from '../../shared/failure-policy.js';
import type { ItemFailure, StageReport } from '../stage.js';
import type { SweepFigures } from '../sweep/state.js';
import { MAX_RESUBMITS, type SearchState } from './state.js';

// The search stage's figures and report, read off its state (state.ts): nothing is counted on the side, so a
// figure cannot disagree with what the state says happened.

interface SearchCounts {
  submitted: number; adopted: number; resumed: number; completed: number; still_running: number; failed: number;
  resubmitted_cancelled: number; resubmitted_lost: number; not_searched: number; pages: number; polls: number; probes: number;
  load_problems: number;
  /** Listing pages read by the sweep across requests (included in `pages`), its other calls, and what it read. */
  sweep_pages: number; sweep_calls: number; sweep_responses: number; sweep_skipped: number;
  /** Requests read per request, and requests the sweep handed over to per-request reading. */
  per_request: number; handed_over: number;
  /** 1 when the sweep stopped for the night (the provider did not honour its filters, or it cost more). */
  sweep_stopped: number;
}

/** What the stage learns from elsewhere: the poller's calls, and the sweep's figures when it read. */
interface SearchOutside { polls: number; probes: number; sweep?: SweepFigures }

function countsOf(s: SearchState, o: SearchOutside): SearchCounts {
  const c = {
    submitted: 0, adopted: s.adopted, resumed: 0, completed: 0, still_running: 0, failed: s.failures.length, resubmitted_cancelled: 0,
    resubmitted_lost: 0, not_searched: 0, pages: 0, polls: o.polls, probes: o.probes, load_problems: s.loadProblems,
    sweep_pages: o.sweep?.pages ?? 0, sweep_calls: o.sweep?.calls ?? 0, sweep_responses: o.sweep?.read ?? 0, sweep_skipped: o.sweep?.skipped ?? 0,
    per_request: 0, handed_over: o.sweep?.handedOver ?? 0, sweep_stopped: o.sweep?.stopped ?? 0,
  };
  for (const r of s.requests.values()) {
    if (r.resumed) c.resumed++;
    else if (r.phase !== 'unwatched') c.submitted++;
    if (r.phase === 'loaded') c.completed++;
    if (r.phase === 'running') c.still_running++;
    if (r.alone) c.per_request++;
    c.pages += r.pages;
  }
  c.pages += c.sweep_pages;
  for (const e of s.searches.values()) {
    c.resubmitted_cancelled += Math.min(e.cancels, MAX_RESUBMITS);
    c.resubmitted_lost += Math.min(e.losses, 1);
    c.not_searched += e.notSent;
  }
  return c;
}

/** Requests still running once the wait ended (not on SIGTERM, not once the stage stopped): the next run's. */
export function leftRunning(s: SearchState): string[] {
  if (s.aborted || s.stop) return [];
  return [...s.requests].filter(([, r]) => r.phase === 'running').map(([id]) => id);
}

export function reportOf(s: SearchState, o: SearchOutside, maxWaitMinutes: number): StageReport {
  const counts = countsOf(s, o);
  const failures = [...s.failures, ...stillRunning(s, maxWaitMinutes), ...unreadForTheBudget(s)];
  const report: StageReport = { counts: { ...counts }, failures, interrupted: s.aborted, finished: counts.completed };
  if (s.stop) {
    const e = s.stop.error as Error;
    report.ended = { status: stageStatusFor(e), code: codeOf(e), message: e.message, reach: s.stop.reach };
    // A 403 on every search (nothing submitted, nothing resumed) leaves nothing to do tonight: that refusal
    // reaches the run as a 401 does.
    if (report.ended.reach === 'stage' && report.ended.status === 'refused' && counts.submitted === 0 && counts.resumed === 0 && counts.adopted === 0) {
      report.ended.reach = 'run';
    }
  }
  return report;
}

function stillRunning(s: SearchState, maxWaitMinutes: number): ItemFailure[] {
  return leftRunning(s).map((id) => {
    const p = s.searches.get(s.requests.get(id)!.search)!.planned;
    return {
      what: 'request', where: `${p.where}, request ${id}`, code: 'REQUEST_STILL_RUNNING',
      reason: `still running after the wait budget (LAWSUIT_MAX_WAIT_MINUTES=${maxWaitMinutes}); the next run collects it without submitting it again`,
    };
  });
}

/**
 * The budget ran out on a failing upstream: every search of the night neither loaded, failed nor still running
 * is left unread for the next run, which reads it without submitting it again. One line per search, naming its
 * latest request (a cancelled request's successor is the same search).
 */
function unreadForTheBudget(s: SearchState): ItemFailure[] {
  const spent = s.budgetOut;
  if (!spent || s.aborted) return [];
  const settled = new Set<string>();
  for (const [hash, e] of s.searches) if (e.failed) settled.add(hash);
  for (const r of s.requests.values()) if (r.phase === 'loaded' || r.phase === 'running') settled.add(r.search);
  const out: ItemFailure[] = [];
  for (const [id, r] of [...s.requests].reverse()) {
    if (settled.has(r.search)) continue;
    settled.add(r.search);
    const p = s.searches.get(r.search)!.planned;
    out.push({ what: 'request', where: `${p.where}, request ${id}`, code: codeOf(spent), reason: spent.message });
  }
  return out;
}
