import type { RunContext } from '../context.js';
import { codeOf } from '../../shared/failure-policy.js';
import type { SweepWave } from '../../warehouse/read-ledger.js';
import { dialectOrAssumed, rememberReadBy, rememberSortBroken, sweepParamsOf } from '../dialect.js';
import { PageSizer } from '../page-size.js';
import type { PlannedSearch } from '../plan.js';
import { pollUntilFinished, type PollStats } from '../poll.js';
import type { NightData, StageReport } from '../stage.js';
import { resolveOpenIntents } from '../submit.js';
import { ResponseSweep } from '../sweep/sweep.js';
import type { DeliveryGate } from '../delivered/gate.js';
import { openWaveGate, waveGateCounts } from '../delivered/wave-gate.js';
import { reportOf, leftRunning } from './report.js';
import { SearchShell } from './shell.js';
import { drainable, moreToCome, searchState, type SearchState } from './state.js';

// A wave of searches: submit, poll, collect. Submissions, polling and page loading overlap; the shared limiter in
// the API client keeps the whole under the key's rate limit. A night has two: the documents list's searches (the
// search stage), then the lawsuit-level reads their headers call for (the lawsuits stage, docs/two-levels.md),
// each read by a sweep of its own.
//
// What happens to each search and request is decided by the reducer (reduce.ts) and performed by its shell
// (shell.ts); this file is the order of a wave: settle interrupted submissions, plan, open the reading of
// responses, submit and poll, let the sweep read what it has left, report.
//
// The wait budget (LAWSUIT_MAX_WAIT_MINUTES) bounds two waits: for requests still running, counted from the end
// of the submissions (poll.ts); and for an upstream that keeps failing (http.ts, budgetUntil), counted from the
// stage's start, again from each submission answered, and from the end of the submissions. Past it nothing is
// retried and the first failure ends the stage's calls; what is left unread is the next run's.
//
// Responses are read by the sweep across requests (sweep/sweep.ts) unless the configuration says per request;
// a request the sweep cannot take (created before what it already read, adopted after a crash, resumed from an
// older night) and every request once the sweep has stopped for the night are read per request (collect.ts).
//
// With the webhook intake, what was delivered to its spool is loaded first and as the wave goes, and a finished
// request goes through the delivery gate (delivered/wave-gate.ts) before either: one whose deliveries prove it
// complete is loaded without a listing call; the others are read as above.

/** What a wave buys tonight, and the requests of earlier runs it reads without buying them again. */
export interface WavePlan {
  submit: PlannedSearch[];
  resume: Array<PlannedSearch & { requestId: string }>;
}

interface Wave {
  /** Which of the night's sweeps reads its responses. */
  name: SweepWave;
  /** The part of the wave, from 1, when it is read in parts (each part a sweep of its own). */
  part?: number;
  /**
   * Tonight's plan. Asked again (`replan`) once interrupted submissions were adopted: they are outstanding now,
   * and must be read, not bought again.
   */
  plan(replan: boolean): Promise<WavePlan>;
}

/** The wave's report, and its state for a stage that reads more off it. */
interface WaveResult { report: StageReport; state: SearchState }

interface StoredRequest { request_id: string; created_at: Date | null; strategy: string | null; sweep_id: string | null }

/** Runs a wave of searches to its end: every request loaded, or left for the next run with the reason. */
export async function runWave(ctx: RunContext, night: NightData, wave: Wave): Promise<WaveResult> {
  const shell = await openWave(ctx, night, wave);
  try {
    const delivered = await openWaveGate(ctx, night, shell);
    const polled = await waitForRequests(ctx, shell, delivered.gate);
    await delivered.gate?.drain();
    await shell.settled();
    const sweep = shell.sweep;
    if (sweep) {
      budgetOut(ctx, shell);
      // What the sweep has not read yet is read now, but for SIGTERM, a stopped stage and a spent budget: then
      // its cursor waits in the ledger. Requests still running leave it for per-request reading (outstanding
      // for the next run).
      let ended = false;
      try {
        await sweep.finish({ drain: drainable(shell.state) });
        ended = true;
      } catch (error) {
        shell.dispatch({ kind: 'broke', error });
      }
      await shell.settled();
      const f = sweep.figures;
      await rememberReadBy(ctx, await dialectOrAssumed(ctx), { items: f.read, sizeShown: f.sizeShown, checked: ended && f.stopped === 0 });
    }
    if (shell.state.unexpected !== undefined) throw shell.state.unexpected;
    const left = leftRunning(shell.state);
    if (left.length > 0) {
      ctx.log.warn({ requests: left.length, budget_min: ctx.cfg.maxWaitMinutes }, 'the wait budget ran out: the requests still running stay outstanding for the next run');
    }
    budgetOut(ctx, shell);
    const report = reportOf(shell.state, { polls: polled.calls, probes: polled.probes, sweep: sweep?.figures }, ctx.cfg.maxWaitMinutes);
    return { report: { ...report, counts: { ...report.counts, ...waveGateCounts(night, delivered) } }, state: shell.state };
  } finally {
    shell.close();
  }
}

/**
 * Settles the submissions a killed run left open, plans the wave, and opens the reading of its responses
 * (the sweep, or per request). Returns the shell, its resumed requests known, nothing submitted yet.
 */
async function openWave(ctx: RunContext, night: NightData, wave: Wave): Promise<SearchShell> {
  const stored = await ctx.wh.all<StoredRequest>(`SELECT request_id, created_at, strategy, sweep_id FROM requests`);
  const { adopted, held } = await resolveOpenIntents(ctx, new Set(stored.map((r) => r.request_id)), wave.name);
  // An interrupted submission adopted just now is outstanding, not to be submitted again: plan afresh. One the
  // listing could not settle is not submitted tonight at all (it may have been bought).
  const planned = await wave.plan(adopted > 0);
  const plan = { ...planned, submit: planned.submit.filter((p) => !held.has(p.searchHash)) };
  const storedRow = new Map(stored.map((r) => [r.request_id, r]));
  const state = searchState({
    searches: [...planned.submit, ...plan.resume],
    resumed: plan.resume.map((r) => ({ requestId: r.requestId, search: r.searchHash, createdAt: storedRow.get(r.requestId)?.created_at?.getTime() })),
    adopted,
  });
  ctx.progress?.(wave.name, 'total', plan.submit.length + plan.resume.length);
  ctx.progress?.(wave.name, 'tick', 0);
  // What the upstream accepts (its page size, the sort names it honours): remembered, or learned now. Pages of
  // a few MB whatever the items weigh (page-size.ts): the loader's batch budget holds two.
  const dialect = await dialectOrAssumed(ctx);
  const sizer = new PageSizer({ max: dialect.dialect.pageSize, targetBytes: Math.floor(ctx.wh.budget.batchBytes / 2) });
  const shell = new SearchShell(ctx, state, { sizer, sort: dialect.dialect.sort, wave: wave.name }, storedRow.keys());
  for (const p of planned.submit) {
    const error = held.get(p.searchHash);
    if (error) shell.dispatch({ kind: 'held', search: p.searchHash, error });
  }
  const sweepParams = sweepParamsOf(dialect.dialect, ctx.cfg.sweepParams);
  const note = (text: string): void => { (night.notes ??= []).push(text); };
  if (ctx.cfg.responsesStrategy === 'sweep' && !sweepParams) {
    note(dialect.source === 'assumed'
      ? 'responses read per request: what the upstream accepts could not be learned tonight (lawsuit-etl doctor)'
      : 'responses read per request: the upstream honours no sort name on its responses listing (lawsuit-etl doctor)');
  }
  // Tonight's pages broke the order the learned sort names ask for: the next night does not take them as settled
  // (rememberSortBroken; names pinned by the operator stay as they are).
  const orderBroken = async (): Promise<void> => {
    await rememberSortBroken(ctx, dialect.dialect)
      .catch((e: unknown) => ctx.log.warn({ code: codeOf(e) }, 'could not record that the sort names failed: the next night uses them again'));
  };
  if (ctx.cfg.responsesStrategy === 'sweep' && sweepParams) {
    shell.sweep = await ResponseSweep.open(ctx, shell.sink, sizer, { params: sweepParams, pageSize: dialect.dialect.pageSize, wave: wave.name, part: wave.part }, shell.sweepEvents(note, orderBroken));
  } else {
    await ResponseSweep.close(ctx, shell.sink, wave.name, sweepParams ? 'the run reads responses per request (LAWSUIT_RESPONSES_STRATEGY)' : 'the upstream honours no sort name');
  }
  await rejoin(shell, plan.resume.map((r) => storedRow.get(r.requestId)));
  shell.dispatch({ kind: 'start', submit: plan.submit.map((p) => p.searchHash) });
  return shell;
}

/** Resumed requests a sweep had rejoin it if it is the same sweep; the others are read per request from their first response. */
async function rejoin(shell: SearchShell, rows: ReadonlyArray<StoredRequest | undefined>): Promise<void> {
  const orphans: string[] = [];
  for (const row of rows) {
    const rejoined = row && shell.sweep ? shell.sweep.resume(row) : false;
    if (!rejoined && row?.strategy === 'sweep') orphans.push(row.request_id);
  }
  if (orphans.length > 0) await shell.sink.add({ items: [], ledger: [{ kind: 'to_per_request', requestIds: orphans }] });
}

/** Polls until every request has finished (and the gate, if any, has proved or handed on each), the wait budget ran out, or the stage stopped. */
async function waitForRequests(ctx: RunContext, shell: SearchShell, gate: DeliveryGate | undefined): Promise<Pick<PollStats, 'calls' | 'probes'>> {
  try {
    return await pollUntilFinished(ctx, shell.waiting, {
      finished: (request) => {
        if (request.status === 'cancelled') shell.dispatch({ kind: 'cancelled', request });
        else if (gate) gate.finished(request);
        else shell.dispatch({ kind: 'finished', request, member: shell.sweep?.isMember(request.request_id) ?? false });
      },
      lost: (requestId, reason) => shell.dispatch({ kind: 'lost', requestId, reason }),
      failed: (requestId, error) => shell.dispatch({ kind: 'failed', requestId, error }),
      more: () => {
        const more = moreToCome(shell.state);
        return (gate?.holding(!more && shell.waiting.size === 0) ?? false) || more;
      },
    }, {
      budgetMs: ctx.cfg.maxWaitMinutes * 60_000, ...ctx.pollTuning,
      onDeadline: (at) => { if (!ctx.api.spentBudget()) ctx.api.budgetUntil(at); },
    });
  } catch (error) {
    shell.dispatch({ kind: 'poll-failed', error });
    return { calls: 0, probes: 0 };
  }
}

/** Tells the stage when its wait budget was spent on a failing upstream (the client knows it, the stage asks). */
function budgetOut(ctx: RunContext, shell: SearchShell): void {
  const spent = ctx.api.spentBudget();
  if (spent) shell.dispatch({ kind: 'budget-out', error: spent });
}
