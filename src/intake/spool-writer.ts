import { mkdir, open, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import PQueue from 'p-queue';
import type { Delivery } from './envelope.js';
import { listSegments, readLines } from './spool-files.js';
import { CLOSED_SUFFIX, encodeRecord, OPEN_SUFFIX, responseIdOf, segmentId } from './spool-format.js';

// The intake's side of the spool (spool-format.ts): each delivery appended to the open segment and on disk
// (fdatasync) before the intake answers 2xx, so that a delivery acknowledged is never lost, whatever kills the
// process after. Two ways to pay for the fsync:
//
// - `delivery`: one write and one fsync per delivery, in the order they came (the simplest to reason about);
// - `batch` (group commit): deliveries that arrive while an fsync runs wait for it to end and go together in the
//   next write and fsync. A lone delivery is written at once, as in `delivery`; under load, one fsync answers for
//   every delivery that came during the one before (bench/webhook.ts measures both).
//
// Idempotent on the response id: a delivery whose response is in the spool already (the provider sends the same
// response again when our 2xx did not reach it) is answered 2xx and not written again; one that arrives while the
// same response is being written waits for that write and answers as it does. The index of response ids is read
// back from the segments at start, and forgets the segments a night pruned (at each roll).
//
// A crash leaves at most an open segment with a torn last line (never acknowledged): the next start cuts the tail
// back to the last whole line and closes the segment. A failed write or fsync cuts the segment back the same way
// and closes it: the delivery is answered 5xx (the provider retries) and the next one starts a new segment.

interface SpoolWriterOptions {
  dir: string;
  /** One fsync per delivery, or per batch of those that arrived together (group commit). */
  fsync: 'delivery' | 'batch';
  /** A segment is closed once this large, in bytes. Default 64 MiB. */
  segmentBytes?: number;
  /** ... or once open this long, in ms, so that a night can prune it. Default 10 minutes. */
  segmentAgeMs?: number;
}

type Appended = 'written' | 'duplicate';

interface OpenSegment { id: string; n: number; fh: FileHandle; size: number; openedAt: number }
interface Waiting { buf: Buffer; resolve: (segment: number) => void; reject: (e: unknown) => void }

const DEFAULT_SEGMENT_BYTES = 64 * 2 ** 20;
const DEFAULT_SEGMENT_AGE_MS = 10 * 60_000;

/** Makes what was just created or renamed in `dir` survive a power cut (the file's entry, not only its bytes). */
async function syncDir(dir: string): Promise<void> {
  const d = await open(dir, 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}

/** A segment an earlier intake left open: cut back to its last whole line, made durable, closed. Returns its id. */
async function closeLeftOpen(dir: string, id: string): Promise<void> {
  const path = join(dir, `${id}${OPEN_SUFFIX}`);
  let whole = 0;
  for await (const line of readLines(path)) whole = line.end;
  const fh = await open(path, 'r+');
  try {
    await fh.truncate(whole);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await rename(path, join(dir, `${id}${CLOSED_SUFFIX}`));
}

export class SpoolWriter {
  /** Response id -> the segment (by number) holding it. */
  private readonly index = new Map<string, number>();
  /** Response id -> the write of it under way. */
  private readonly inflight = new Map<string, Promise<Appended>>();
  /** Deliveries waiting for their write. */
  private pending: Waiting[] = [];
  /** Writes, fsyncs, rolls and the close, one at a time. */
  private readonly io = new PQueue({ concurrency: 1 });
  private current: OpenSegment | undefined;
  /** Segment id -> its number in the index (never reused); segments known and opened so far; bytes of the spool on disk. */
  private readonly segments = { numbers: new Map<string, number>(), known: 0, opened: 0, bytes: 0 };
  private roller: NodeJS.Timeout | undefined;
  /** The last write's failure, cleared by the next write that succeeds (the intake's health); writes made, each with its fsync. */
  readonly health: { lastError?: Error; fsyncs: number } = { fsyncs: 0 };

  private constructor(private readonly opts: SpoolWriterOptions) {}

  /** Opens the spool at opts.dir (made if missing): segments left open closed, the index of response ids read back. */
  static async open(opts: SpoolWriterOptions): Promise<SpoolWriter> {
    const w = new SpoolWriter(opts);
    await mkdir(opts.dir, { recursive: true });
    const left = (await listSegments(opts.dir)).filter((s) => s.open);
    for (const s of left) await closeLeftOpen(opts.dir, s.id);
    if (left.length > 0) await syncDir(opts.dir);
    for (const s of await listSegments(opts.dir)) {
      const n = w.numberOf(s.id);
      for await (const line of readLines(s.path)) {
        const id = responseIdOf(line.text);
        if (id !== undefined) w.index.set(id, n);
      }
      w.segments.bytes += s.size;
    }
    const age = opts.segmentAgeMs ?? DEFAULT_SEGMENT_AGE_MS;
    w.roller = setInterval(() => void w.io.add(() => w.rollIf((s) => Date.now() - s.openedAt >= age)), Math.max(1_000, age / 4));
    w.roller.unref();
    return w;
  }

  /** Responses in the spool. */
  get deliveries(): number {
    return this.index.size;
  }

  /** Bytes of the spool's segments on disk. */
  get bytes(): number {
    return this.segments.bytes;
  }

  /** Appends a delivery, resolving once it is on disk ('written') or found there already ('duplicate'). */
  async append(d: Delivery, body: string, receivedAt: Date): Promise<Appended> {
    const under = this.inflight.get(d.responseId);
    if (under) return under.then(() => 'duplicate');
    if (this.index.has(d.responseId)) return 'duplicate';
    const write = this.write(encodeRecord(d, body, receivedAt)).then((n): Appended => {
      this.index.set(d.responseId, n);
      return 'written';
    });
    this.inflight.set(d.responseId, write);
    try {
      return await write;
    } finally {
      this.inflight.delete(d.responseId);
    }
  }

  /** Writes what is waiting, closes the open segment; nothing is appended after. */
  async close(): Promise<void> {
    clearInterval(this.roller);
    await this.io.onIdle();
    await this.io.add(() => this.rollIf(() => true));
  }

  private numberOf(id: string): number {
    let n = this.segments.numbers.get(id);
    if (n === undefined) {
      n = this.segments.known++;
      this.segments.numbers.set(id, n);
    }
    return n;
  }

  /** Resolves with the segment the line went into once it is on disk. */
  private write(buf: Buffer): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.pending.push({ buf, resolve, reject });
      // Group commit: a flush waiting its turn takes every delivery that came before it starts.
      if (this.opts.fsync === 'delivery' || this.io.size === 0) void this.io.add(() => this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.opts.fsync === 'delivery' ? this.pending.splice(0, 1) : this.pending.splice(0);
    if (batch.length === 0) return;
    try {
      const seg = await this.segment();
      await this.writeAt(seg, batch.length === 1 ? batch[0].buf : Buffer.concat(batch.map((b) => b.buf)));
      this.health.lastError = undefined;
      // Rolled before the batch is answered: a delivery answered finds its segment settled (closed, not mid-rename),
      // and the roll's failure is the health's, not the batch's (its lines are on disk already).
      if (seg.size >= (this.opts.segmentBytes ?? DEFAULT_SEGMENT_BYTES)) {
        await this.rollIf(() => true).catch((e: unknown) => { this.health.lastError = e as Error; });
      }
      for (const b of batch) b.resolve(seg.n);
    } catch (e) {
      this.health.lastError = e as Error;
      for (const b of batch) b.reject(e);
    }
  }

  /** Appends `data` at the segment's end and fsyncs; on a failure, cuts the segment back and closes it. */
  private async writeAt(seg: OpenSegment, data: Buffer): Promise<void> {
    try {
      let done = 0;
      while (done < data.length) done += (await seg.fh.write(data, done, data.length - done, seg.size + done)).bytesWritten;
      await seg.fh.datasync();
      this.health.fsyncs++;
    } catch (e) {
      await seg.fh.truncate(seg.size).catch(() => undefined);
      await this.rollIf(() => true).catch(() => undefined);
      throw e;
    }
    seg.size += data.length;
    this.segments.bytes += data.length;
  }

  /** The open segment, opened (and its name made durable) on the first write after a roll. */
  private async segment(): Promise<OpenSegment> {
    if (this.current) return this.current;
    const id = segmentId(new Date(), process.pid, ++this.segments.opened);
    const fh = await open(join(this.opts.dir, `${id}${OPEN_SUFFIX}`), 'wx');
    try {
      await syncDir(this.opts.dir);
    } catch (e) {
      await fh.close();
      throw e;
    }
    this.current = { id, n: this.numberOf(id), fh, size: 0, openedAt: Date.now() };
    return this.current;
  }

  /** Closes the open segment when `due` says so: renamed to its closed name, the rename made durable. */
  private async rollIf(due: (s: OpenSegment) => boolean): Promise<void> {
    const seg = this.current;
    if (!seg || !due(seg)) return;
    this.current = undefined;
    await seg.fh.close();
    await rename(join(this.opts.dir, `${seg.id}${OPEN_SUFFIX}`), join(this.opts.dir, `${seg.id}${CLOSED_SUFFIX}`));
    await syncDir(this.opts.dir);
    await this.forgetPruned();
  }

  /** Drops from the index the responses of segments a night pruned, and counts the spool's bytes again. */
  private async forgetPruned(): Promise<void> {
    const present = await listSegments(this.opts.dir);
    const ids = new Set(present.map((s) => s.id));
    const gone = new Set<number>();
    for (const [id, n] of this.segments.numbers) {
      if (!ids.has(id) && id !== this.current?.id) {
        gone.add(n);
        this.segments.numbers.delete(id);
      }
    }
    if (gone.size > 0) for (const [id, n] of this.index) if (gone.has(n)) this.index.delete(id);
    this.segments.bytes = present.reduce((b, s) => b + s.size, 0);
  }
}
