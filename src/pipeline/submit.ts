import type { RequestObject, Search } from '../spec/types.js';
import { upsertRequest, type ReadBasis } from '../warehouse/ledger.js';
import type { SweepWave } from '../warehouse/read-ledger.js';
import { EtlError } from '../shared/errors.js';
import { failpoint } from '../shared/failpoint.js';
import { codeOf, mayHaveActed, resolveFailure } from '../shared/failure-policy.js';
import type { RunContext } from './context.js';
import type { PlannedSearch } from './plan.js';

// Submitting is the one step that may be billed, so it leaves a trace before and after the call:
// an intent row (search, time) is committed before POST /requests, and the request row replaces it in one
// transaction once the id is known. A run killed between the two leaves an open intent; the next run looks
// for that request in the provider's listing (adopting it) before it would ever submit the search again.

interface Submitted { planned: PlannedSearch; request: RequestObject }

/** An open intent: the list's searches carry no basis, the lawsuit-level reads one (plan.ts, PlannedSearch.basis). */
interface Intent { search_hash: string; started_at: Date; search: string; document_line: number | null; basis: string | null; with_attachments: boolean | null }

/** The open intents of a wave. */
async function openIntents(ctx: RunContext, wave: SweepWave): Promise<Intent[]> {
  return ctx.wh.all(`SELECT search_hash, started_at, search::VARCHAR AS search, document_line, basis::VARCHAR AS basis, with_attachments FROM submissions
    WHERE request_id IS NULL AND (basis IS NULL) = $1 ORDER BY started_at`, [wave === 'documents']);
}

/**
 * Resolves the wave's intents left open by a run that died mid-submission (or whose submission went unanswered): adopts
 * the request the provider made, or drops the intent when the listing proves none was made (then the search
 * is submitted like any other). An intent the listing cannot settle stays open, and its search is `held`: not
 * submitted tonight, looked up again by the next run.
 */
export async function resolveOpenIntents(ctx: RunContext, known: ReadonlySet<string>, wave: SweepWave): Promise<{ adopted: number; held: Map<string, Error> }> {
  let adopted = 0;
  const held = new Map<string, Error>();
  const claimed = new Set(known);
  for (const intent of await openIntents(ctx, wave)) {
    const search = JSON.parse(intent.search) as Search;
    let found: RequestObject | undefined;
    try {
      found = await ctx.api.requests.findSubmitted(search, intent.started_at.getTime(), { exclude: claimed });
    } catch (e) {
      // A look-up that could not tell leaves the search for the next run's look-up; anything else ends the stage.
      if (!resolveFailure(e).deferred) throw e;
      held.set(intent.search_hash, e as Error);
      ctx.log.warn({ search_type: search.search_type, code: codeOf(e) }, (e as Error).message);
      continue;
    }
    await ctx.wh.transaction(async () => {
      if (found) {
        claimed.add(found.request_id);
        await recordRequest(ctx, search, found, intent.document_line, intent.basis === null ? undefined : JSON.parse(intent.basis) as ReadBasis, intent.with_attachments === true);
        adopted++;
      }
      await ctx.wh.run(`UPDATE submissions SET request_id = coalesce($3, '-') WHERE search_hash = $1 AND started_at = $2::TIMESTAMPTZ`,
        [intent.search_hash, intent.started_at, found?.request_id ?? null]);
    });
    ctx.log.info({ search_type: search.search_type, request_id: found?.request_id }, found
      ? 'an interrupted submission had reached the provider: request adopted, not submitted again'
      : 'an interrupted submission never reached the provider: it will be submitted');
  }
  return { adopted, held };
}

async function recordRequest(ctx: RunContext, search: Search, req: RequestObject, line: number | null, basis: ReadBasis | undefined, withAttachments: boolean,
  isNew = false): Promise<void> {
  await upsertRequest(ctx.wh, {
    request_id: req.request_id,
    search_type: search.search_type,
    search_key: search.search_key,
    on_demand: search.on_demand === true,
    lawsuit_instance: search.search_params?.lawsuit_instance ?? null,
    status: req.status,
    created_at: req.created_at,
    run_id: ctx.runId,
    document_line: line,
    search,
    submitted_at: new Date(),
    basis,
    with_attachments: withAttachments ? true : null,
  }, isNew);
}

/**
 * A new request whose id the ledger already holds means the provider reused an id (a restarted emulator does,
 * a real service should not). The pages recorded under the old request are not this one's: forget them, or
 * the new request would count as loaded before a single page of it was read. Says whether the ledger held the id.
 */
async function forgetReusedId(ctx: RunContext, requestId: string): Promise<{ held: boolean }> {
  const [prior] = await ctx.wh.all<{ run_id: string | null }>('SELECT run_id FROM requests WHERE request_id = $1', [requestId]);
  if (!prior) return { held: false };
  ctx.log.warn({ request_id: requestId, earlier_run: prior.run_id }, 'the provider answered a request id this warehouse already holds for an earlier request; its old page ledger is forgotten');
  await ctx.wh.run('DELETE FROM request_pages WHERE request_id = $1', [requestId]);
  await ctx.wh.run(`UPDATE requests SET pages_loaded = 0, items_loaded = 0, all_pages_count = NULL, completed_at = NULL, error = NULL,
      loaded_at = NULL, items_total = NULL, strategy = NULL, sweep_id = NULL
    WHERE request_id = $1`, [requestId]);
  return { held: true };
}

/**
 * Submits one planned search and writes it to the ledger the moment its id is known. `go` is asked once more
 * when the search's turn comes (submissions queue behind the warehouse): a search whose turn comes after the
 * stage was stopped (SIGTERM, a refusal) is not submitted, and fails with REQUEST_NOT_SUBMITTED.
 */
export async function submitOne(ctx: RunContext, planned: PlannedSearch, exclude: ReadonlySet<string>, go: () => boolean = () => true): Promise<Submitted> {
  const startedAt = new Date();
  await ctx.wh.transaction(async () => {
    if (!go()) throw new EtlError('REQUEST_NOT_SUBMITTED', 'not submitted: the search stage was stopped before its turn');
    await ctx.wh.run(
      `INSERT INTO submissions (search_hash, started_at, run_id, search, document_line, basis, with_attachments) VALUES ($1, $2::TIMESTAMPTZ, $3, $4::JSON, $5, $6::JSON, $7)`,
      [planned.searchHash, startedAt, ctx.runId, planned.search, planned.line, planned.basis ? JSON.stringify(planned.basis) : null, planned.withAttachments ? true : null]);
  });
  let request: RequestObject;
  failpoint('submit.before-post');
  try {
    request = await ctx.api.requests.create(planned.search, { exclude, withAttachments: planned.withAttachments });
    failpoint('submit.after-post');
  } catch (e) {
    // The provider surely has no request only when the client says so; otherwise the intent stays open
    // and the next run looks the request up before submitting again.
    if (!mayHaveActed(e)) {
      await ctx.wh.transaction(() => ctx.wh.run(`DELETE FROM submissions WHERE search_hash = $1 AND started_at = $2::TIMESTAMPTZ`, [planned.searchHash, startedAt]));
    }
    throw e;
  }
  await ctx.wh.transaction(async () => {
    const { held } = await forgetReusedId(ctx, request.request_id);
    await recordRequest(ctx, planned.search, request, planned.line, planned.basis, planned.withAttachments === true, !held);
    await ctx.wh.run(`UPDATE submissions SET request_id = $3 WHERE search_hash = $1 AND started_at = $2::TIMESTAMPTZ`,
      [planned.searchHash, startedAt, request.request_id]);
  });
  return { planned, request };
}
