import { codeOf, resolveFailure } from '../../shared/failure-policy.js';
import type { RunContext } from '../context.js';
import { dialectOrAssumed, rememberReadBy, sweepParamsOf } from '../dialect.js';
import { PageSink } from '../page-sink.js';
import { PageSizer } from '../page-size.js';
import type { ItemFailure, NightData } from '../stage.js';
import { nightSpool } from '../delivered/night-spool.js';
import { rangeProver } from '../delivered/range-proof.js';
import { readTrackingRuns, type TrackingReadFigures } from './read-runs.js';
import type { TrackedSearch } from './runs-page.js';

// The seam where a trackings night takes in what its trackings' runs sent: the responses of our trackings of
// both kinds (a document's runs carry headers of the lawsuits born to it, a lawsuit's runs carry it whole), read
// through the listing across requests from the last night's cursor (read-runs.ts), each picked out by its
// tracking (runs-page.ts) and loaded like any response (page-sink.ts). Whatever else feeds runs in (a webhook's
// deliveries) hands the same page sink the same items with the same ledger entries.

const NOTHING_READ: TrackingReadFigures = { calls: 0, pages: 0, read: 0, skipped: 0, responses: 0, runs: 0, sizeShown: 0 };

/**
 * Reads the runs; a reading that fails on its calls (the upstream past its retries, a page it cannot trust) fails
 * alone: the night still searches the documents it must, and the reading's cursor waits for the next night. The
 * key or the resource refused, or a failure of our own (the warehouse), end the stage.
 */
export async function readOrReport(ctx: RunContext, night: NightData, ours: ReadonlyMap<string, TrackedSearch>): Promise<{ read: TrackingReadFigures; failure?: ItemFailure }> {
  const where = 'reading the trackings\' runs';
  const next = 'the reading carries on from its cursor next night';
  try {
    const read = await readRuns(ctx, night, ours);
    return read.untrusted ? { read, failure: { what: 'stage', where, code: 'TRACKING_READ_UNTRUSTED', reason: `${read.untrusted}; ${next}` } } : { read };
  } catch (e) {
    const failure = resolveFailure(e);
    if (failure.refused || failure.reach !== 'item') throw e;
    ctx.log.warn({ code: codeOf(e) }, `the trackings' runs could not be read tonight: ${(e as Error).message}`);
    return { read: NOTHING_READ, failure: { what: 'stage', where, code: codeOf(e), reason: `${(e as Error).message}; ${next}` } };
  }
}

/**
 * Reads the runs of our trackings since the last night into the warehouse: what the intake's spool holds of them
 * first, then through the listing across requests, unless the deliveries prove the night's range whole.
 */
async function readRuns(ctx: RunContext, night: NightData, ours: ReadonlyMap<string, TrackedSearch>): Promise<TrackingReadFigures> {
  const dialect = await dialectOrAssumed(ctx);
  const params = sweepParamsOf(dialect.dialect, ctx.cfg.sweepParams);
  const sink = new PageSink(ctx.wh, { runId: ctx.runId });
  const spool = await nightSpool(ctx, night);
  await spool?.catchUp(sink, ours);
  if (!params) {
    (night.notes ??= []).push('the trackings\' runs were not read: the upstream honours no sort name on its responses listing (lawsuit-etl doctor); they are read once it does');
    return { ...NOTHING_READ, untrusted: 'the responses listing honours no sort name' };
  }
  const sizer = new PageSizer({ max: dialect.dialect.pageSize, targetBytes: Math.floor(ctx.wh.budget.batchBytes / 2) });
  const prove = spool && ctx.cfg.callback.url !== undefined ? rangeProver(ctx, spool, sink, params) : undefined;
  const read = await readTrackingRuns({ ctx, sink, sizer, reading: { params, pageSize: dialect.dialect.pageSize }, ours, firstFrom: await oldestTracking(ctx, ours), prove });
  await rememberReadBy(ctx, dialect, { items: read.read, sizeShown: read.sizeShown, checked: read.untrusted === undefined });
  return read;
}

/**
 * The creation of our oldest tracking, as the provider stamped it (the reconciliation stores the listing in
 * `trackings`): where the first reading of runs starts, on the provider's own clock.
 */
async function oldestTracking(ctx: RunContext, ours: ReadonlyMap<string, TrackedSearch>): Promise<number | undefined> {
  if (ours.size === 0) return undefined;
  const [r] = await ctx.wh.all<{ at: Date | null }>(`SELECT min(created_at) AS at FROM trackings
    WHERE tracking_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`, [JSON.stringify([...ours.keys()])]);
  return r?.at?.getTime();
}
