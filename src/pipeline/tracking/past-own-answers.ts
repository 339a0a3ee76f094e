import { codeOf, resolveFailure } from '../../shared/failure-policy.js';
import type { StoredCursor } from '../../warehouse/cursor-store.js';
import { latestTrackingRead, moveDoneReading } from '../../warehouse/tracking-ledger.js';
import type { RunContext } from '../context.js';
import type { StageReport } from '../stage.js';

// The trackings' reading lists every response of the key created since it last ended, its trackings' runs among
// the night's own answers (the searches by document and the lawsuit-level reads bought after the reading ended).
// The next night would page through those answers only to skip them: some 25 pages after a first night of 10,000
// individuals, one at 300 (bench `levels`, issue 32). At the end of the night, once its own answers are in, one
// call can prove that no run's response lies among them: the requests listing of origin tracking, created since
// tonight's reading started, lists none, and no run was running when that reading was bounded (its `until` unset).
// Then every run made before the reading started had finished, its responses read; and a run made after this call
// answers after every response already loaded (a run's responses come after its request is made). So the next
// reading may start after the newest of them. A run made between the reading's start and this call is listed,
// whatever its status: nothing moves. An upstream that ignores the origin or the date filter lists something, and
// nothing moves: the next night reads through, as before.
//
// The call is made only on a night whose reading loaded no run of ours: a night that did knows a run was made since
// the reading started, and the call could only list it. That is the night the trackings were made (a tracking's
// first run comes hours after it is made: REFERENCE.md, "within hours"), the one whose own answers are the most
// (every search and every lawsuit-level read of the portfolio): one call then spares the next night their pages.

/** The night's responses past the reading's end: how many, the newest's created_at, and the ids created then. */
async function answersPast(ctx: RunContext, after: number): Promise<{ count: number; newest?: number; atNewest: string[] }> {
  const [r] = await ctx.wh.all<{ n: bigint | number; newest: bigint | number | null }>(
    'SELECT count(*) AS n, max(epoch_ms(created_at)) AS newest FROM responses_raw WHERE created_at > $1::TIMESTAMPTZ', [new Date(after)]);
  if (!r || r.newest === null) return { count: 0, atNewest: [] };
  const newest = Number(r.newest);
  const ids = await ctx.wh.all<{ response_id: string }>('SELECT response_id FROM responses_raw WHERE epoch_ms(created_at) = $1', [newest]);
  return { count: Number(r.n), newest, atNewest: ids.map((x) => x.response_id) };
}

/**
 * Whether the provider lists a tracking run created at or after `from` (one call, one item). A listing that fails
 * proves nothing: taken as a run, and the next night reads through, as it would have without this stage. Only the
 * key refused ends the stage (and the night's calls).
 */
async function anyRunSince(ctx: RunContext, from: number): Promise<boolean> {
  try {
    const page = await ctx.api.requests.list({ page: 1, pageSize: 1, origin: 'tracking', createdGte: new Date(from).toISOString() });
    return page.items.length > 0 || (page.allCount ?? 0) > 0;
  } catch (e) {
    if (resolveFailure(e).reach === 'run') throw e;
    ctx.log.warn({ code: codeOf(e) }, `the requests listing could not tell whether a tracking ran since the runs were read (${(e as Error).message}): the next night reads through tonight's own answers`);
    return true;
  }
}

/** The trackings' reading moved past the night's own answers when no run can lie among them (stage `trackings-cursor`). */
export async function passOwnAnswers(ctx: RunContext): Promise<StageReport> {
  const latest = await latestTrackingRead(ctx.wh);
  // An active reading is a killed night's, carried on by the next run as it stands; none: nothing read yet.
  // A reading bounded before a running run (`until` set) may have that run's answers still to come, among ours.
  if (!latest || latest.status !== 'done' || latest.until !== undefined || latest.watermark === undefined || latest.ours > 0) return { counts: { passed_over: 0, calls: 0 } };
  const end = latest.cursor.last ?? latest.cursor.from ?? latest.watermark;
  const past = await answersPast(ctx, end);
  if (past.newest === undefined) return { counts: { passed_over: 0, calls: 0 } };
  if (await anyRunSince(ctx, latest.watermark)) {
    ctx.log.info({ responses: past.count }, 'a tracking may have run since the trackings\' runs were read: the next night reads through tonight\'s own answers');
    return { counts: { passed_over: 0, calls: 1 } };
  }
  const cursor: StoredCursor = {
    from: past.newest, page: 1, seen: [], seenBefore: [], atLast: past.atNewest, last: past.newest, high: Math.max(past.newest, latest.cursor.high ?? past.newest),
  };
  await moveDoneReading(ctx.wh, latest.readId, cursor);
  ctx.log.info({ responses: past.count }, 'no tracking ran since the trackings\' runs were read: the next night\'s reading starts after tonight\'s own answers');
  return { counts: { passed_over: past.count, calls: 1 }, finished: 1 };
}
