import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CLOSED_SUFFIX, OPEN_SUFFIX, segmentOf } from './spool-format.js';

// The segments of a spool on disk and their lines, for the intake (its index rebuilt at start) and the night (what
// was delivered). Reading is by byte offset: a reader remembers how far it read each segment and carries on from
// there, in a segment the intake is still writing too (only whole lines, each ended by a line break, are read).

export interface SegmentFile {
  id: string;
  /** `<id>.open` (being written) or `<id>.ndjson` (closed). */
  file: string;
  path: string;
  open: boolean;
  /** Bytes when listed. */
  size: number;
}

/** The spool's segments, oldest first (none for a folder that does not exist). */
export async function listSegments(dir: string): Promise<SegmentFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: SegmentFile[] = [];
  for (const file of names) {
    const seg = segmentOf(file);
    if (!seg) continue;
    // an open segment closed (renamed) between the listing and its stat is found under its closed name
    const found = await sized(dir, file) ?? (seg.open ? await sized(dir, `${seg.id}${CLOSED_SUFFIX}`) : undefined);
    if (found) out.push({ ...seg, ...found });
  }
  // A segment renamed while listed may show under both names: the closed one is the same bytes and more.
  const closed = new Set(out.filter((s) => !s.open).map((s) => s.id));
  return out.filter((s) => !s.open || !closed.has(s.id)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The file's path and size, or undefined when it is gone (pruned, or renamed). */
async function sized(dir: string, file: string): Promise<{ file: string; path: string; size: number; open: boolean } | undefined> {
  const path = join(dir, file);
  try {
    return { file, path, size: (await stat(path)).size, open: file.endsWith(OPEN_SUFFIX) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** A whole line of a segment and the offset just past its line break. */
interface SpoolLine { text: string; end: number }

const CHUNK = 1 << 20;

/**
 * The whole lines of the file at `path` from byte `from` (a line's start) up to `until` bytes (default: its size
 * now), oldest first. A last line without its line break is not yielded: it is still being written, or torn.
 */
export async function* readLines(path: string, from = 0, until?: number): AsyncGenerator<SpoolLine> {
  const fh = await open(path, 'r');
  try {
    const end = until ?? (await fh.stat()).size;
    let pos = from;
    let parts: Buffer[] = [];
    const buf = Buffer.allocUnsafe(CHUNK);
    while (pos < end) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, end - pos), pos);
      if (bytesRead === 0) break;
      let at = 0;
      for (;;) {
        const nl = buf.indexOf(0x0a, at);
        if (nl < 0 || nl >= bytesRead) break;
        parts.push(Buffer.from(buf.subarray(at, nl)));
        const text = Buffer.concat(parts).toString('utf8');
        parts = [];
        yield { text, end: pos + nl + 1 };
        at = nl + 1;
      }
      if (at < bytesRead) parts.push(Buffer.from(buf.subarray(at, bytesRead)));
      pos += bytesRead;
    }
  } finally {
    await fh.close();
  }
}
