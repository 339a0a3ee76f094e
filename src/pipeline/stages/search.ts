import PQueue from 'p-queue';
import type { RequestObject } from '../../spec/types.js';
import { EtlError } from '../../shared/errors.js';
import { codeOf, reachOf, ruleFor, stageStatusFor } from '../../shared/failure-policy.js';
import { markCompleted, markRequest } from '../../warehouse/ledger.js';
import { collectRequest } from '../collect.js';
import type { RunContext } from '../context.js';
import { PageSink } from '../page-sink.js';
import { PageSizer } from '../page-size.js';
import type { PlannedSearch } from '../plan.js';
import { pollUntilFinished, type Waiting } from '../poll.js';
import type { ItemFailure, NightData, Stage, StageReport } from '../stage.js';
import { resolveOpenIntents, submitOne } from '../submit.js';
import { ResponseSweep } from '../sweep/sweep.js';
import { dialectOrAssumed, sweepParamsOf } from '../dialect.js';
import { planNight } from './documents.js';

// The asynchronous half of a night: submit, poll, collect. Submissions, polling and page loading overlap;
// the shared limiter in the API client keeps the whole under the key's rate limit.
//
// How far each failure reaches is the failure policy's answer: a document's failure is that document's (the
// others go on); a refusal of the requests resource (403) stops all further submissions and ends the stage
// refused; a refusal of the key (401) stops everything, here and in every later stage. What is still running
// when the wait budget runs out stays outstanding in the ledger; the next run collects it without buying it
// again.
//
// The wait budget (LAWSUIT_MAX_WAIT_MINUTES) bounds two waits: for requests still running, counted from the end
// of the submissions (poll.ts); and for an upstream that keeps failing (http.ts, budgetUntil), counted from the
// stage's start, again from each submission answered, and from the end of the submissions. Past it nothing is
// retried and the first failure ends the stage's calls; what is left unread is the next run's.
//
// Responses are read by the sweep across requests (sweep/sweep.ts) unless the configuration says per request;
// a request the sweep cannot take (created before what it already read, adopted after a crash, resumed from an
// older night) and every request once the sweep has stopped for the night are read per request (collect.ts).

/** Cancelled requests are submitted again, at most this many times per document in one run. */
const MAX_RESUBMITS = 5;
/** Requests whose pages are read at the same time. */
const COLLECT_CONCURRENCY = 4;

export const searchStage: Stage = {
  name: 'search',
  needs: ['documents'],
  callsApi: true,
  run: (ctx, night) => searchDocuments(ctx, night),
};

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

async function searchDocuments(ctx: RunContext, night: NightData): Promise<StageReport> {
  const stored = await ctx.wh.all<{ request_id: string; created_at: Date | null; strategy: string | null; sweep_id: string | null }>(
    `SELECT request_id, created_at, strategy, sweep_id FROM requests`);
  const { adopted, held } = await resolveOpenIntents(ctx, new Set(stored.map((r) => r.request_id)));
  // An interrupted submission adopted just now is outstanding, not to be submitted again: plan afresh. One the
  // listing could not settle is not submitted tonight at all (it may have been bought).
  const planned = adopted > 0 ? await planNight(ctx, night.list!) : night.plan!;
  const plan = { ...planned, submit: planned.submit.filter((p) => !held.has(p.searchHash)) };
  night.plan = plan;
  const counts: SearchCounts = {
    submitted: 0, adopted, resumed: plan.resume.length, completed: 0, still_running: 0, failed: 0, resubmitted_cancelled: 0,
    resubmitted_lost: 0, not_searched: 0, pages: 0, polls: 0, probes: 0, load_problems: 0,
    sweep_pages: 0, sweep_calls: 0, sweep_responses: 0, sweep_skipped: 0, per_request: 0, handed_over: 0, sweep_stopped: 0,
  };
  const failures: ItemFailure[] = [];
  const budgetMs = ctx.cfg.maxWaitMinutes * 60_000;
  /** Searches that failed (by searchHash), and requests fully loaded: what neither is, was left for the next run. */
  const failedSearches = new Set<string>();
  const loadedRequests = new Set<string>();

  const storedRow = new Map(stored.map((r) => [r.request_id, r]));
  const waiting = new Map<string, Waiting>();
  const owner = new Map<string, PlannedSearch>();
  ctx.progress?.('documents', 'total', plan.submit.length + plan.resume.length);
  ctx.progress?.('documents', 'tick', 0);

  /** What ended the stage for everyone: the resource (403) or the key (401) refused, or an unexpected error. */
  let stop: { error: unknown; reach: 'stage' | 'run' } | undefined;
  let unexpected: unknown;
  const known = new Set<string>(storedRow.keys());
  const resubmits = new Map<string, number>();
  const lostOnce = new Set<string>();
  const pending: Array<Promise<void>> = [];
  // Settling a resubmission may add to `pending`: wait until it stops growing.
  const settlePending = async (): Promise<void> => {
    for (let n = 0; n !== pending.length;) { n = pending.length; await Promise.all(pending); }
  };
  let resubmitting = 0;
  const sink = new PageSink(ctx.wh, { runId: ctx.runId, onCommit: (c) => { counts.load_problems += c.problems; } });
  // Every request being read holds a page in memory while the warehouse catches up; reading a few at a time
  // keeps memory flat whatever the volume (the warehouse, not the API, is the bottleneck of this stage).
  const readers = new PQueue({ concurrency: COLLECT_CONCURRENCY });
  // Pages of a few MB whatever the items weigh (page-size.ts): the loader's batch budget holds two.
  // What the upstream accepts (its page size, the sort names it honours): remembered, or learned now.
  const dialect = await dialectOrAssumed(ctx);
  const sweepParams = sweepParamsOf(dialect.dialect, ctx.cfg.sweepParams);
  const sizer = new PageSizer({ max: dialect.dialect.pageSize, targetBytes: Math.floor(ctx.wh.budget.batchBytes / 2) });
  // At most this many submissions are on their way at once: the sweep reads nothing created after the requests
  // it knows while one is unanswered (sweep/members.ts), so a whole list queued at once would hold it back.
  const submitting = new PQueue({ concurrency: ctx.cfg.maxConcurrency });

  /** Ends the stage (a refusal, a failure reaching past its document): one line, not one per document that met it. */
  const stopSearching = (e: unknown): void => {
    if (stop) return;
    stop = { error: e, reach: reachOf(e, 'stage') === 'run' ? 'run' : 'stage' };
    ctx.log.error({ code: codeOf(e) }, `searching stopped: ${(e as Error).message}`);
  };

  const fail = (p: PlannedSearch, e: unknown): void => {
    if (reachOf(e, 'item') !== 'item') return stopSearching(e);
    counts.failed++;
    failedSearches.add(p.searchHash);
    const code = codeOf(e);
    failures.push({ what: 'document', where: `line ${p.doc.line} (${p.search.search_type})`, code, reason: (e as Error).message });
    ctx.log.error({ line: p.doc.line, search_type: p.search.search_type, code }, `search failed: ${(e as Error).message}`);
  };
  for (const p of planned.submit) {
    const why = held.get(p.searchHash);
    if (why) fail(p, why);
  }

  /**
   * Reads a finished request on its own (once any hand-over from the sweep is in the ledger), recording it
   * completed first unless `recorded`: a member the sweep hands over was recorded when the sweep saw it finish.
   */
  const readAlone = (req: RequestObject, recorded = false): void => {
    const p = owner.get(req.request_id);
    counts.per_request++;
    pending.push(readers.add(async () => {
      await sweep?.ready(req.request_id);
      if (!recorded) await markCompleted(ctx.wh, req);
      return collectRequest(ctx, req, sink, sizer, dialect.dialect.sort);
    }).then((c) => {
      counts.completed++;
      loadedRequests.add(req.request_id);
      counts.pages += c.pages;
      ctx.progress?.('documents', 'tick', 1);
    }, (e) => {
      if (codeOf(e) === 'API_NOT_FOUND') return onLost(req.request_id, (e as Error).message);
      // A refusal (403, 401) stops the stage or the run; a stage-wide failure of our own (the warehouse, the
      // disk) ends the stage as failed.
      if (ruleFor(e).refused && reachOf(e, 'item') !== 'item') stopSearching(e);
      else if (p && reachOf(e, 'item') === 'item') fail(p, e);
      else unexpected ??= e;
    }));
  };

  if (ctx.cfg.responsesStrategy === 'sweep' && !sweepParams) {
    (night.notes ??= []).push(dialect.source === 'assumed'
      ? 'responses read per request: what the upstream accepts could not be learned tonight (lawsuit-etl doctor)'
      : 'responses read per request: the upstream honours no sort name on its responses listing (lawsuit-etl doctor)');
  }
  const sweep = ctx.cfg.responsesStrategy === 'sweep' && sweepParams ? await ResponseSweep.open(ctx, sink, sizer, { params: sweepParams, pageSize: dialect.dialect.pageSize }, {
    loaded: (requestId) => {
      counts.completed++;
      loadedRequests.add(requestId);
      ctx.progress?.('documents', 'tick', 1);
    },
    perRequest: (req) => readAlone(req, true),
    note: (text) => (night.notes ??= []).push(text),
    refused: (e) => stopSearching(e),
  }) : undefined;
  if (!sweep) await ResponseSweep.close(ctx, sink, sweepParams ? 'the run reads responses per request (LAWSUIT_RESPONSES_STRATEGY)' : 'the upstream honours no sort name');
  const rejoined = (row: (typeof stored)[number] | undefined): boolean => (row && sweep ? sweep.resume(row) : false);
  const orphans: string[] = [];
  for (const r of plan.resume) {
    const row = storedRow.get(r.requestId);
    waiting.set(r.requestId, { requestId: r.requestId, createdAt: row?.created_at?.getTime() ?? Date.now(), resumed: true });
    owner.set(r.requestId, r);
    // A request a sweep had, which does not rejoin this one, is read per request from its first response.
    if (!rejoined(row) && row?.strategy === 'sweep') orphans.push(r.requestId);
  }
  if (orphans.length > 0) await sink.add({ items: [], ledger: [{ kind: 'to_per_request', requestIds: orphans }] });

  const go = (): boolean => !ctx.signal.aborted && !stop && !unexpected;
  let submissionsDone = false;
  const submit = (p: PlannedSearch): Promise<void> => submitting.add(async () => {
    if (!go()) { counts.not_searched++; return; }
    const token = sweep?.submitting();
    try {
      const { request } = await submitOne(ctx, p, known, go);
      known.add(request.request_id);
      owner.set(request.request_id, p);
      await sweep?.admit(request);
      waiting.set(request.request_id, { requestId: request.request_id, createdAt: Date.parse(request.created_at) || Date.now() });
      counts.submitted++;
      // An answered submission: the upstream is not failing, the budget for calls that keep failing starts again.
      if (!submissionsDone && !ctx.api.spentBudget()) ctx.api.budgetUntil(Date.now() + budgetMs);
    } catch (e) {
      // Not sent because the stage stopped (its turn came after a refusal), or the run is stopping (SIGTERM).
      if (codeOf(e) === 'REQUEST_NOT_SUBMITTED' || (ctx.signal.aborted && codeOf(e) === 'API_CLOSED')) { counts.not_searched++; return; }
      if (reachOf(e, 'item') !== 'item') counts.not_searched++;
      fail(p, e);
    } finally {
      if (token !== undefined) sweep?.settled(token);
    }
  });

  /** Submits a document's search again (after a cancel or a forgotten request), counted as `kind`. */
  const again = (p: PlannedSearch, kind: 'resubmitted_cancelled' | 'resubmitted_lost'): void => {
    resubmitting++;
    pending.push(submit(p).then(() => { counts[kind]++; }).catch((e) => { unexpected ??= e; }).finally(() => { resubmitting--; }));
  };

  const onCancelled = (req: RequestObject): void => {
    sweep?.forget(req.request_id);
    const p = owner.get(req.request_id);
    pending.push(markRequest(ctx.wh, req.request_id, { status: 'cancelled', last_polled_at: new Date() }).catch((e) => { unexpected ??= e; }));
    if (!p) return;
    const n = (resubmits.get(p.searchHash) ?? 0) + 1;
    resubmits.set(p.searchHash, n);
    if (n > MAX_RESUBMITS) {
      fail(p, new EtlError('REQUEST_CANCELLED', `request ${req.request_id} was cancelled by the provider ${n} times`));
      return;
    }
    ctx.log.warn({ request_id: req.request_id, line: p.doc.line }, 'request cancelled by the provider; submitting it again');
    again(p, 'resubmitted_cancelled');
  };

  /** The provider does not know the request (404): it is resubmitted once, recorded, and never waited on. */
  const onLost = (requestId: string, reason: string): void => {
    sweep?.forget(requestId);
    const p = owner.get(requestId);
    pending.push(markRequest(ctx.wh, requestId, { status: 'lost', error: `the provider no longer knows this request (404): ${reason}`.slice(0, 500), last_polled_at: new Date() })
      .catch((e) => { unexpected ??= e; }));
    if (!p) return;
    if (lostOnce.has(p.searchHash)) {
      fail(p, new EtlError('REQUEST_LOST', `the provider lost request ${requestId} after a resubmission already replaced a lost one`));
      return;
    }
    lostOnce.add(p.searchHash);
    ctx.log.warn({ request_id: requestId, line: p.doc.line }, 'the provider no longer knows this request (404); submitting the search again, once');
    again(p, 'resubmitted_lost');
  };

  const onFinished = (req: RequestObject): void => {
    if (req.status === 'cancelled') return onCancelled(req);
    if (sweep?.isMember(req.request_id)) sweep.finished(req);
    else readAlone(req);
  };

  const submissions = Promise.all(plan.submit.map(submit));
  void submissions.then(() => { submissionsDone = true; });
  try {
    const stats = await pollUntilFinished(ctx, waiting, {
      finished: onFinished,
      lost: onLost,
      failed: (id, e) => { const p = owner.get(id); if (p) fail(p, e); },
      more: () => !stop && !unexpected && (!submissionsDone || resubmitting > 0),
    }, {
      budgetMs, ...pollTuning(ctx),
      onDeadline: (at) => { if (!ctx.api.spentBudget()) ctx.api.budgetUntil(at); },
    });
    counts.polls = stats.calls;
    counts.probes = stats.probes;
  } catch (e) {
    if (reachOf(e, 'stage') === 'run' && !stop) stopSearching(e);
    else unexpected ??= e;
  }
  await submissions;
  await settlePending();
  if (sweep) {
    // What the sweep has not read yet is read now, but for SIGTERM and a stopped stage: then its cursor waits
    // in the ledger. Requests still running leave it for per-request reading (outstanding for the next run).
    try {
      await sweep.finish({ drain: !ctx.signal.aborted && !stop && !unexpected && !ctx.api.spentBudget() });
    } catch (e) {
      unexpected ??= e;
    }
    await settlePending();
    const f = sweep.figures;
    Object.assign(counts, {
      sweep_pages: f.pages, sweep_calls: f.calls, sweep_responses: f.read, sweep_skipped: f.skipped, handed_over: f.handedOver, sweep_stopped: f.stopped,
    });
    counts.pages += f.pages;
  }
  if (unexpected) throw unexpected;

  counts.still_running = waiting.size;
  if (waiting.size > 0 && !ctx.signal.aborted && !stop) {
    ctx.log.warn({ requests: waiting.size, budget_min: ctx.cfg.maxWaitMinutes }, 'the wait budget ran out: the requests still running stay outstanding for the next run');
    for (const w of waiting.values()) {
      const p = owner.get(w.requestId);
      failures.push({
        what: 'request', where: p ? `line ${p.doc.line} (${p.search.search_type}), request ${w.requestId}` : `request ${w.requestId}`,
        code: 'REQUEST_STILL_RUNNING',
        reason: `still running after the wait budget (LAWSUIT_MAX_WAIT_MINUTES=${ctx.cfg.maxWaitMinutes}); the next run collects it without submitting it again`,
      });
    }
  }
  const spent = ctx.api.spentBudget();
  if (spent && !ctx.signal.aborted) {
    // The budget ran out on a failing upstream: every request of the night neither loaded nor failed already is
    // left unread for the next run, which reads it without submitting it again.
    const settled = new Set([...failedSearches, ...[...loadedRequests].map((id) => owner.get(id)?.searchHash)]);
    for (const w of waiting.keys()) settled.add(owner.get(w)?.searchHash);
    for (const [id, p] of [...owner].reverse()) {
      // one line per search, naming its latest request (a cancelled request's successor is the same search)
      if (settled.has(p.searchHash)) continue;
      settled.add(p.searchHash);
      failures.push({ what: 'request', where: `line ${p.doc.line} (${p.search.search_type}), request ${id}`, code: codeOf(spent), reason: spent.message });
    }
  }
  const report: StageReport = { counts: { ...counts }, failures, interrupted: ctx.signal.aborted, finished: counts.completed };
  if (stop) {
    const e = stop.error as Error;
    report.ended = { status: stageStatusFor(e), code: codeOf(e), message: e.message, reach: stop.reach };
    // A 403 on every search (nothing submitted, nothing resumed) leaves nothing to do tonight: that refusal
    // reaches the run as a 401 does.
    if (report.ended.reach === 'stage' && report.ended.status === 'refused' && counts.submitted === 0 && counts.resumed === 0 && counts.adopted === 0) {
      report.ended.reach = 'run';
    }
  }
  return report;
}

/** Polling speeds: tests that drive the pipeline in-process shorten them through the context. */
function pollTuning(ctx: RunContext): { minIntervalMs?: number; maxIntervalMs?: number } {
  return ctx.pollTuning ?? {};
}
