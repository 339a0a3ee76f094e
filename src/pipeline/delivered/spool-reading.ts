import { open as openFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { listSegments, readLines, type SegmentFile } from '../../intake/spool-files.js';
import { CLOSED_SUFFIX, decodeRecord, OPEN_SUFFIX, type SpooledDelivery } from '../../intake/spool-format.js';
import { objectMembers, rememberRawText } from '../../shared/raw-json.js';
import type { ResponseItem } from '../../spec/types.js';
import type { DeliveryEntry, ParkedDelivery } from '../../warehouse/delivery-ledger.js';
import type { TrackingRunRead } from '../../warehouse/read-ledger.js';
import type { RunContext } from '../context.js';
import type { PageSink } from '../page-sink.js';
import type { TrackedSearch } from '../tracking/runs-page.js';

// The night reads what the webhook intake delivered before it lists anything (docs/operating.md, "The webhook
// intake"). The spool (src/intake/spool-format.ts) is read segment by segment from where the last commit left each
// one (spool_segments.bytes_read), whole lines only, so a segment the intake is still writing is read safely up to
// its last whole line and carried on the next time. A delivery of a request the ledger knows is loaded through the
// page sink, as a page read from the listing is (the same merge: a response delivered twice, or listed after it was
// delivered, changes nothing); a run of one of our trackings on a trackings night too, recorded in tracking_runs. A
// delivery of a request not known yet (its submission's answer still on its way, a tracking run on a searches night,
// another system on the account) is parked: kept by its place in the spool, its segment kept, and loaded by the
// first catch-up that knows its request. Every commit carries the cursor of what it covers, so a night killed
// anywhere reads on from there. After the publish that contains them, segments read to the end of their closed
// file and holding no parked delivery are deleted (prune): a night killed before its publish finds them again.

/** What the reading did tonight. */
export interface SpoolFigures {
  /** Deliveries read from the spool, and of them: loaded, parked; parked ones loaded tonight; lines that were no delivery. */
  deliveries: number; loaded: number; parked: number; unparked: number; unreadable: number;
  /** Runs of our trackings whose deliveries were loaded (a trackings night). */
  runs: number;
  /** Segments deleted after the publish. */
  pruned: number;
}

/** How long a parked delivery whose request never became known is kept (its segment with it). */
const PARKED_DAYS = 30;
/** Deliveries per commit, and characters of their payloads: half the loader's batch (a page's own budget). */
const BATCH_ITEMS = 500;

interface Read { rec: SpooledDelivery; from: number; to: number }

/** The response item a delivery carries, remembering its text (and its response_data's) as received. */
function itemOf(rec: Pick<SpooledDelivery, 'payload' | 'payloadText'>): ResponseItem {
  const item = rememberRawText(rec.payload as unknown as ResponseItem, rec.payloadText);
  const data = objectMembers(rec.payloadText)?.get('response_data');
  if (data !== undefined && typeof item.response_data === 'object' && item.response_data !== null) rememberRawText(item.response_data, data);
  return item;
}

export class SpoolReading {
  readonly figures: SpoolFigures = { deliveries: 0, loaded: 0, parked: 0, unparked: 0, unreadable: 0, runs: 0, pruned: 0 };
  /** The runs of our trackings loaded from deliveries (figures.runs counts them). */
  private readonly runsLoaded = new Set<string>();
  /** Bytes read of each segment, as committed. */
  private readonly cursors = new Map<string, number>();
  /** Parked deliveries per segment: a segment holding one is kept. */
  private readonly parkedIn = new Map<string, number>();

  private constructor(private readonly ctx: RunContext, readonly dir: string) {}

  /** The night's reading of the spool at `dir`, its parked deliveries past PARKED_DAYS forgotten. */
  static async open(ctx: RunContext, dir: string): Promise<SpoolReading> {
    const r = new SpoolReading(ctx, dir);
    const expired = await ctx.wh.run(`DELETE FROM deliveries_parked WHERE received_at < current_timestamp - INTERVAL ${PARKED_DAYS} DAY`);
    if (expired > 0) ctx.log.warn({ deliveries: expired, days: PARKED_DAYS }, 'parked deliveries whose request never became known were forgotten');
    for (const c of await ctx.wh.all<{ segment_id: string; bytes_read: bigint }>('SELECT segment_id, bytes_read FROM spool_segments')) r.cursors.set(c.segment_id, Number(c.bytes_read));
    for (const p of await ctx.wh.all<{ segment_id: string; n: bigint }>('SELECT segment_id, count(*) AS n FROM deliveries_parked GROUP BY ALL')) r.parkedIn.set(p.segment_id, Number(p.n));
    return r;
  }

  /**
   * Loads what was delivered since the last catch-up, and the parked deliveries whose request is known now.
   * `tracked`: a trackings night's trackings (by id), whose runs' deliveries are loaded too.
   */
  async catchUp(sink: PageSink, tracked?: ReadonlyMap<string, TrackedSearch>): Promise<void> {
    for (const seg of await listSegments(this.dir)) {
      if (this.ctx.signal.aborted) return;
      if ((this.cursors.get(seg.id) ?? 0) < seg.size) await this.readSegment(sink, seg, tracked);
    }
    await this.unpark(sink, tracked);
  }

  /** Deletes the segments the published warehouse holds whole (read to the end of their closed file, nothing parked in them). */
  async prune(): Promise<void> {
    let bytes = 0;
    for (const seg of await listSegments(this.dir)) {
      if (seg.open || (this.cursors.get(seg.id) ?? 0) < seg.size || (this.parkedIn.get(seg.id) ?? 0) > 0) continue;
      await unlink(seg.path).catch((e: NodeJS.ErrnoException) => { if (e.code !== 'ENOENT') throw e; });
      this.figures.pruned++;
      bytes += seg.size;
    }
    if (this.figures.pruned > 0) this.ctx.log.info({ segments: this.figures.pruned, bytes }, 'spool segments published whole were deleted');
  }

  private async readSegment(sink: PageSink, seg: SegmentFile, tracked: ReadonlyMap<string, TrackedSearch> | undefined): Promise<void> {
    let from = this.cursors.get(seg.id) ?? 0;
    let batch: Read[] = [];
    let chars = 0;
    for await (const line of readLines(seg.path, from, seg.size)) {
      const rec = decodeRecord(line.text);
      if (rec) {
        batch.push({ rec, from, to: line.end });
        chars += rec.payloadText.length;
      } else {
        this.figures.unreadable++;
        this.ctx.log.warn({ segment: seg.id, offset: from }, 'a line of the spool is not a delivery: skipped (the intake never acknowledged it)');
      }
      from = line.end;
      if (batch.length >= BATCH_ITEMS || chars >= this.ctx.wh.budget.batchBytes / 2) {
        await this.commit(sink, seg, batch, from, tracked);
        batch = [];
        chars = 0;
      }
    }
    if (from > (this.cursors.get(seg.id) ?? 0)) await this.commit(sink, seg, batch, from, tracked);
  }

  /** Loads the deliveries of known requests (and our trackings' runs), parks the others, moves the segment's cursor to `to`. */
  private async commit(sink: PageSink, seg: SegmentFile, batch: readonly Read[], to: number, tracked: ReadonlyMap<string, TrackedSearch> | undefined): Promise<void> {
    const known = await this.knownRequests(batch.filter((b) => b.rec.referenceType === 'request').map((b) => b.rec.requestId));
    const items: ResponseItem[] = [];
    const parked: ParkedDelivery[] = [];
    const runs = new RunsMet(tracked);
    for (const { rec, from, to: end } of batch) {
      const ours = rec.referenceType === 'request' ? known.has(rec.requestId) : runs.met(rec);
      if (ours) items.push(itemOf(rec));
      else {
        parked.push({
          responseId: rec.responseId, requestId: rec.requestId, referenceType: rec.referenceType, referenceId: rec.referenceId, receivedAt: rec.receivedAt,
          segment: seg.id, from, to: end,
        });
      }
    }
    const ledger: DeliveryEntry[] = [
      { kind: 'spool_read', segment: seg.id, to, closed: !seg.open, deliveries: batch.length, loaded: items.length, parked: parked.length, runId: this.ctx.runId },
      { kind: 'park', rows: parked }, { kind: 'delivered_runs', runId: this.ctx.runId, runs: runs.all() },
    ];
    await sink.add({ items, ledger });
    this.countRuns(runs);
    this.cursors.set(seg.id, to);
    if (parked.length) this.parkedIn.set(seg.id, (this.parkedIn.get(seg.id) ?? 0) + parked.length);
    Object.assign(this.figures, { deliveries: this.figures.deliveries + batch.length, loaded: this.figures.loaded + items.length, parked: this.figures.parked + parked.length });
  }

  /** Loads the parked deliveries whose request is known now (or that are runs of `tracked`), read back from their segments. */
  private async unpark(sink: PageSink, tracked: ReadonlyMap<string, TrackedSearch> | undefined): Promise<void> {
    const rows = await this.ctx.wh.all<{ response_id: string; segment_id: string; line_from: bigint; line_to: bigint }>(`SELECT response_id, segment_id, line_from, line_to
      FROM deliveries_parked WHERE (reference_type = 'request' AND request_id IN (SELECT request_id FROM requests))
        OR (reference_type = 'tracking' AND reference_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]'))))
      ORDER BY segment_id, line_from`, [JSON.stringify([...(tracked?.keys() ?? [])])]);
    for (let i = 0; i < rows.length; i += BATCH_ITEMS) {
      const chunk = rows.slice(i, i + BATCH_ITEMS);
      const runs = new RunsMet(tracked);
      const items: ResponseItem[] = [];
      for (const row of chunk) {
        const rec = await lineAt(this.dir, row.segment_id, Number(row.line_from), Number(row.line_to));
        if (!rec) {
          this.ctx.log.warn({ segment: row.segment_id, response_id: row.response_id }, 'a parked delivery is no longer in the spool: forgotten');
          continue;
        }
        if (rec.referenceType === 'tracking') runs.met(rec);
        items.push(itemOf(rec));
      }
      await sink.add({ items, ledger: [{ kind: 'unpark', responseIds: chunk.map((r) => r.response_id) }, { kind: 'delivered_runs', runId: this.ctx.runId, runs: runs.all() }] });
      this.countRuns(runs);
      for (const row of chunk) this.parkedIn.set(row.segment_id, (this.parkedIn.get(row.segment_id) ?? 1) - 1);
      this.figures.unparked += items.length;
    }
  }

  private countRuns(runs: RunsMet): void {
    for (const r of runs.all()) this.runsLoaded.add(r.requestId);
    this.figures.runs = this.runsLoaded.size;
  }

  private async knownRequests(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.ctx.wh.all<{ request_id: string }>(`SELECT request_id FROM requests WHERE request_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`,
      [JSON.stringify([...new Set(ids)])]);
    return new Set(rows.map((r) => r.request_id));
  }
}

/** The runs of our trackings met among deliveries, with their responses counted (a trackings night's tracking_runs). */
class RunsMet {
  private readonly runs = new Map<string, TrackingRunRead>();
  constructor(private readonly tracked: ReadonlyMap<string, TrackedSearch> | undefined) {}

  /** Whether the delivery is of a run of one of our trackings (then counted). */
  met(rec: SpooledDelivery): boolean {
    const doc = rec.referenceType === 'tracking' ? this.tracked?.get(rec.referenceId) : undefined;
    if (!doc) return false;
    const run = this.runs.get(rec.requestId);
    if (run) run.items++;
    else this.runs.set(rec.requestId, { requestId: rec.requestId, trackingId: rec.referenceId, searchType: doc.searchType, searchKey: doc.searchKey, items: 1 });
    return true;
  }

  all(): TrackingRunRead[] {
    return [...this.runs.values()];
  }
}

/** The delivery at bytes [from, to) of a segment (closed since, or still open), or undefined when it is not there. */
async function lineAt(dir: string, segment: string, from: number, to: number): Promise<SpooledDelivery | undefined> {
  let fh;
  for (const suffix of [CLOSED_SUFFIX, OPEN_SUFFIX]) {
    try {
      fh = await openFile(join(dir, `${segment}${suffix}`), 'r');
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  if (!fh) return undefined;
  try {
    const buf = Buffer.alloc(to - from);
    await fh.read(buf, 0, buf.length, from);
    return decodeRecord(buf.toString('utf8').replace(/\n$/, ''));
  } finally {
    await fh.close();
  }
}
