import { walkPages } from '../../api/paginate.js';
import { failpoint } from '../../shared/failpoint.js';
import { readAcross } from '../sweep/across-page.js';
import { pageSizeShown, queryAt, timeOf } from '../sweep/cursor.js';
import type { StoredCursor } from '../../warehouse/cursor-store.js';
import { extendTrackingRead, latestTrackingRead, openTrackingRead } from '../../warehouse/tracking-ledger.js';
import type { RunContext } from '../context.js';
import type { PageSink } from '../page-sink.js';
import type { PageSizer } from '../page-size.js';
import type { SweepReading } from '../sweep/sweep.js';
import { trackingPage, type TrackedSearch } from './runs-page.js';

// A trackings night reads what its trackings produced since the night before: the responses of their runs,
// through the sweep's listing across requests (GET /responses without request_id, oldest first, by created_at),
// one call per page of responses whatever the number of trackings, never a call per tracking or per run. It
// starts at the watermark, where the reading before it ended, with that reading's cursor (so the responses of
// its last millisecond are skipped by id), and reads up to just before the oldest tracking run still running: a
// running request's responses may yet appear behind newer ones (as for the sweep's members, members.ts), and
// they are read the next night. A page is asked as the sweep asks its pages (sweep/across-page.ts: one too large to
// read is asked again smaller) and checked as the sweep checks them (verify.ts); a page that fails is not loaded
// and the reading stops, its cursor kept for the next night. Pages are committed with their
// ledger entry (tracking_reads' cursor, tracking_runs) through the page sink: a kill anywhere resumes from the
// last page committed, and nothing is read or loaded twice.

/** What tonight's reading did. */
export interface TrackingReadFigures {
  /** Calls: listing pages and the look-up of the oldest run still running. */
  calls: number; pages: number; read: number; skipped: number;
  /** Responses of our trackings' runs loaded, and the runs they came in. */
  responses: number; runs: number;
  /** Why the reading stopped before its bound (a page it could not trust), if it did. */
  untrusted?: string;
  /** The largest page size a page showed the upstream serves (sweep/cursor.ts, pageSizeShown); 0: none showed one. */
  sizeShown: number;
}

interface TrackingReadIo {
  ctx: RunContext;
  sink: PageSink;
  sizer: PageSizer;
  reading: Omit<SweepReading, 'wave'>;
  /** Our trackings, by id: the search each follows (a listed document's, or a lawsuit's). */
  ours: ReadonlyMap<string, TrackedSearch>;
  /** Where the first reading ever starts (epoch ms, provider clock): the creation of our oldest tracking, when known. */
  firstFrom?: number;
  /**
   * With the webhook intake: whether what was delivered holds every response created in [from, until] (then the
   * range is read without listing it: delivered/range-proof.ts), its calls, and the ids held at `until`.
   */
  prove?: (from: number, until: number) => Promise<{ proved: boolean; calls: number; atLast: string[] }>;
}

const RUNNING = ['created', 'pending', 'started', 'cancelling'];

/** Where tonight's reading starts and how far it reads: a killed night's reading carried on, or a new one after the last. */
async function openReading(io: TrackingReadIo): Promise<{ readId: string; cursor: StoredCursor; start: number; until: number | undefined; calls: number }> {
  const { ctx } = io;
  const stored = await latestTrackingRead(ctx.wh);
  const carried = stored?.cursor;
  // The first reading starts at the creation of our oldest tracking: nothing of ours ran before it.
  const start = carried?.from ?? carried?.last ?? stored?.watermark ?? io.firstFrom ?? ctx.api.providerNow() ?? Date.now();
  const { until, calls } = await boundOf(ctx, start);
  if (stored?.status === 'active') {
    await extendTrackingRead(ctx.wh, stored.readId, until);
    ctx.log.info({ read_id: stored.readId }, 'carrying on the reading of the trackings\' runs an interrupted run left');
    return { readId: stored.readId, cursor: stored.cursor, start, until, calls };
  }
  const cursor: StoredCursor = carried ? { ...carried, page: 1, pageSize: undefined } : { page: 1, seen: [] };
  await openTrackingRead(ctx.wh, { readId: ctx.runId, runId: ctx.runId, watermark: start, until, cursor });
  return { readId: ctx.runId, cursor, start, until, calls };
}

/**
 * How far tonight may read: just before the oldest tracking run still running (the requests listing, origin
 * tracking, every page: an upstream that ignores the sort or the status filter still shows the oldest running run
 * somewhere among them); to the newest response when none is running. Not a margin before the provider's now: its
 * Date header need not be the clock of its created_at (the sandbox's clock, moved ahead, is not its Date
 * header's), and a reading cut at the wrong "now" reads nothing. A run's responses come after its request is made,
 * so one the listing did not show yet has its responses read this night or the next, by created_at after the
 * cursor. A listing that cannot be walked to its end (it lies about its pages) proves no bound: tonight reads
 * nothing past `from`, rather than pass a running run whose responses would then land behind the cursor.
 */
export async function boundOf(ctx: RunContext, from: number): Promise<{ until: number | undefined; calls: number }> {
  let until: number | undefined;
  let calls = 0;
  let unproven: string | undefined;
  const pages = walkPages((c) => ctx.api.requests.list({ page: c.page, origin: 'tracking', status: RUNNING, pageSize: 100, newestFirst: false, createdGte: new Date(from).toISOString() }, c.next), {
    label: 'GET /requests', signal: ctx.signal, maxPages: 1_000, onStop: (why) => { unproven = why; },
  });
  for await (const page of pages) {
    calls++;
    for (const r of page.items) {
      const t = timeOf(r.created_at);
      if (Number.isFinite(t) && RUNNING.includes(String(r.status))) until = Math.min(until ?? Number.POSITIVE_INFINITY, t - 1);
    }
  }
  if (unproven !== undefined) {
    ctx.log.warn({ code: 'TRACKING_BOUND_UNPROVEN' }, `${unproven}: the trackings' runs are not read past where the last reading ended tonight`);
    return { until: from, calls };
  }
  return { until: until === undefined ? undefined : Math.max(until, from), calls };
}

/**
 * Tonight's range read from what was delivered, when the deliveries prove it whole: its cursor moved to the range's
 * end in one commit, no page listed. A reading carried on mid-range (a killed night's) is listed as it was.
 */
async function delivered(io: TrackingReadIo, opened: Awaited<ReturnType<typeof openReading>>, figures: TrackingReadFigures): Promise<boolean> {
  const { ctx } = io;
  const from = opened.cursor.from ?? opened.start;
  const until = opened.until ?? ctx.api.providerNow() ?? Date.now();
  if (until < from) return false;
  const p = await io.prove!(from, until);
  figures.calls += p.calls;
  if (!p.proved) return false;
  const cursor: StoredCursor = { from: until, page: 1, last: until, seen: [], seenBefore: [], atLast: p.atLast, high: Math.max(until, opened.cursor.high ?? until) };
  await io.sink.add({ items: [], ledger: [{ kind: 'tracking_page', readId: opened.readId, runId: ctx.runId, cursor, read: 0, skipped: 0, pages: 0, runs: [], done: true }] });
  return true;
}

/** Reads tonight's range of the listing across requests and loads the responses of our trackings' runs. */
export async function readTrackingRuns(io: TrackingReadIo): Promise<TrackingReadFigures> {
  const { ctx, sink, sizer } = io;
  const opened = await openReading(io);
  const figures: TrackingReadFigures = { calls: opened.calls, pages: 0, read: 0, skipped: 0, responses: 0, runs: 0, sizeShown: 0 };
  if (io.prove && opened.cursor.page === 1 && await delivered(io, opened, figures)) return figures;
  const runs = new Set<string>();
  let cursor = opened.cursor;
  let previous: { from: number; size: number } | undefined;
  let failure: unknown;
  const commits: Array<Promise<unknown>> = [];
  while (!ctx.signal.aborted && failure === undefined && !ctx.api.spentBudget()) {
    const q = queryAt(cursor, opened.start, opened.until, sizer.size());
    await sink.room();
    const page = await readAcross({ ctx, sizer, params: io.reading.params, what: 'the trackings\' runs' }, q);
    figures.calls++;
    if (page === undefined) continue;
    figures.pages++;
    failpoint('tracking.after-read');
    const sameRun = q.page > 1 && previous?.from === q.from && previous.size === q.size;
    const r = trackingPage(cursor, q, page.items, io.ours, sameRun);
    if (r.kind === 'untrusted') {
      figures.untrusted = r.reason;
      break;
    }
    sizer.measured(page.items);
    previous = { from: q.from, size: q.size };
    cursor = r.cursor;
    figures.read += r.read;
    figures.skipped += r.skipped;
    figures.sizeShown = Math.max(figures.sizeShown, pageSizeShown(q, page.items.length, page.allCount));
    figures.responses += r.items.length;
    for (const run of r.runs) runs.add(run.requestId);
    commits.push(sink.add({
      items: r.items,
      ledger: [{ kind: 'tracking_page', readId: opened.readId, runId: ctx.runId, cursor: r.cursor, read: r.read, skipped: r.skipped, pages: 1, runs: r.runs, done: r.end }],
    }).catch((e: unknown) => { failure ??= e; }));
    if (r.end) break;
  }
  await Promise.all(commits);
  if (failure !== undefined) throw failure;
  figures.runs = runs.size;
  return figures;
}
