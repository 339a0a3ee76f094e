import { isApiError } from '../api/errors.js';
import type { RequestObject } from '../api/types.js';
import type { DocumentsList } from '../input/documents.js';
import { addCounts, emptyCounts, type LoadCounts } from '../warehouse/load.js';
import { markRequest, recordRejections } from '../warehouse/ledger.js';
import { collectRequest } from './collect.js';
import { PageSink } from './page-sink.js';
import PQueue from 'p-queue';
import type { RunContext } from './context.js';
import { readHistory } from './history.js';
import { planRun, type PlannedSearch, type RunPlan } from './plan.js';
import { pollUntilFinished, type PollOptions, type Waiting } from './poll.js';
import { resolveOpenIntents, submitOne } from './submit.js';

export interface SearchFailure { line: number; searchType: string; searchKey: string; code: string; reason: string }

export interface SearchStepResult {
  plan: RunPlan;
  submitted: number;
  resumed: number;
  adopted: number;
  resubmittedCancelled: number;
  completed: number;
  stillRunning: number;
  pages: number;
  polls: number;
  counts: LoadCounts;
  failures: SearchFailure[];
  interrupted: boolean;
}

/** Cancelled requests are submitted again, at most this many times per document in one run. */
const MAX_RESUBMITS = 5;
/** Requests whose pages are read at the same time. */
const COLLECT_CONCURRENCY = 4;

/**
 * The asynchronous half of a nightly run: plan, submit, poll, collect. Submissions, polling and page
 * loading overlap; the shared limiter in the API client keeps the whole under the key's rate limit.
 */
export async function searchDocuments(ctx: RunContext, list: DocumentsList, pollOpts: PollOptions = {}): Promise<SearchStepResult> {
  if (!ctx.cfg.dryRun) await ctx.wh.transaction(() => recordRejections(ctx.wh, ctx.runId, list.rejected, list.source));
  const stored = await ctx.wh.all<{ request_id: string; created_at: Date | null }>(
    `SELECT request_id, created_at FROM requests`);
  const adopted = ctx.cfg.dryRun ? 0 : await resolveOpenIntents(ctx, new Set(stored.map((r) => r.request_id)));
  const history = await readHistory(ctx.wh);
  const plan = planRun(list.documents, history, { now: new Date(), freshnessDays: ctx.cfg.freshnessDays, force: ctx.cfg.force, pageSize: ctx.cfg.pageSize });
  const result: SearchStepResult = {
    plan, submitted: 0, resumed: plan.resume.length, adopted, resubmittedCancelled: 0, completed: 0, stillRunning: 0,
    pages: 0, polls: 0, counts: emptyCounts(), failures: [], interrupted: false,
  };
  if (ctx.cfg.dryRun) return result;

  const createdAt = new Map(stored.map((r) => [r.request_id, r.created_at?.getTime() ?? Date.now()]));
  const waiting = new Map<string, Waiting>();
  const owner = new Map<string, PlannedSearch>();
  for (const r of plan.resume) {
    waiting.set(r.requestId, { requestId: r.requestId, createdAt: createdAt.get(r.requestId) ?? Date.now() });
    owner.set(r.requestId, r);
  }
  ctx.progress?.('documents', 'total', plan.submit.length + plan.resume.length);
  ctx.progress?.('documents', 'tick', 0);

  let fatal: unknown;
  const known = new Set<string>(createdAt.keys());
  const resubmits = new Map<string, number>();
  const collecting: Array<Promise<void>> = [];
  let resubmitting = 0;
  const sink = new PageSink(ctx.wh, { runId: ctx.runId, onCommit: (c) => { result.counts = addCounts(result.counts, c); } });
  // Every request being read holds a page in memory while the warehouse catches up; reading a few at a time
  // keeps memory flat whatever the volume (the warehouse, not the API, is the bottleneck of this stage).
  const readers = new PQueue({ concurrency: COLLECT_CONCURRENCY });

  const fail = (p: PlannedSearch, e: unknown): void => {
    if (isApiError(e) && e.exitCode === 3) fatal ??= e;
    const code = isApiError(e) ? e.code : (e as { code?: string }).code ?? 'ERROR';
    result.failures.push({ line: p.doc.line, searchType: p.search.search_type, searchKey: p.search.search_key, code, reason: (e as Error).message });
    ctx.log.error({ line: p.doc.line, search_type: p.search.search_type, code }, `search failed: ${(e as Error).message}`);
  };

  const submit = async (p: PlannedSearch): Promise<void> => {
    if (ctx.signal.aborted || fatal) return;
    try {
      const { request } = await submitOne(ctx, p, known);
      known.add(request.request_id);
      owner.set(request.request_id, p);
      waiting.set(request.request_id, { requestId: request.request_id, createdAt: Date.parse(request.created_at) || Date.now() });
      result.submitted++;
    } catch (e) {
      fail(p, e);
    }
  };

  const onFinished = (req: RequestObject): void => {
    const p = owner.get(req.request_id);
    if (req.status === 'cancelled') {
      resubmitting++;
      collecting.push((async () => {
        await ctx.wh.transaction(() => markRequest(ctx.wh, req.request_id, { status: 'cancelled', last_polled_at: new Date() }));
        if (!p) return;
        const n = (resubmits.get(p.searchHash) ?? 0) + 1;
        resubmits.set(p.searchHash, n);
        if (n > MAX_RESUBMITS) {
          fail(p, Object.assign(new Error(`request ${req.request_id} was cancelled by the provider ${n} times`), { code: 'REQUEST_CANCELLED' }));
          return;
        }
        ctx.log.warn({ request_id: req.request_id, line: p.doc.line }, 'request cancelled by the provider; submitting it again');
        result.resubmittedCancelled++;
        await submit(p);
      })().catch((e) => { fatal ??= e; }).finally(() => { resubmitting--; }));
      return;
    }
    collecting.push(readers.add(() => collectRequest(ctx, req, sink)).then((c) => {
      result.completed++;
      result.pages += c.pages;
      ctx.progress?.('documents', 'tick', 1);
    }, (e) => {
      if (p) fail(p, e);
      else fatal ??= e;
    }));
  };

  const submissions = Promise.all(plan.submit.map(submit));
  let submissionsDone = false;
  void submissions.then(() => { submissionsDone = true; });
  // Polling runs while submissions go on; a cancelled request's resubmission may add to what is waited for.
  const pollStats = await pollUntilFinished(ctx, waiting, onFinished, () => !fatal && (!submissionsDone || resubmitting > 0), pollOpts);
  await submissions;
  await Promise.all(collecting);
  if (fatal) throw fatal;
  result.polls = pollStats.calls;
  result.stillRunning = waiting.size;
  result.interrupted = ctx.signal.aborted;
  return result;
}
