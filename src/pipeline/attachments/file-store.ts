import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BodySink } from '../../api/storage-download.js';
import { EtlError } from '../../shared/errors.js';

// The attachments' files, stored by content (docs/warehouse.md, "Attachments"): `<dir>/ab/abcdef….pdf`, named by
// the sha256 of the bytes, so the same bytes under two attachment ids are one file, and a file is never written
// twice. A body streams to a temporary file under `<dir>/.partial/` (never held in memory), hashed and counted as it
// comes; only a body whose length is what its Content-Length announced, within the size limit, is fsynced and renamed
// to its name: a half-written file never has one, and what a killed night left in `.partial/` is removed by the next.

/** A file stored: where, how big, what its bytes say it is; `fresh` false when the same bytes were stored before. */
export interface StoredFile { sha256: string; bytes: number; contentType: string; path: string; fresh: boolean }

/** Why a body was not stored: its constant code, and the size it announced or reached (a file too large). */
export class AttachmentRefused extends EtlError {
  constructor(code: 'ATTACHMENT_TOO_LARGE' | 'ATTACHMENT_SHORT_BODY' | 'ATTACHMENT_LONG_BODY' | 'ATTACHMENT_CHECKSUM', message: string, readonly bytes?: number) {
    super(code, message);
  }
}

/** Media types from a file's first bytes, the provider's word not taken (a .pdf that is an HTML error page is HTML). */
const SIGNATURES: ReadonlyArray<[string, string, string]> = [
  ['255044462d', 'application/pdf', 'pdf'],
  ['89504e470d0a1a0a', 'image/png', 'png'],
  ['ffd8ff', 'image/jpeg', 'jpg'],
  ['474946383', 'image/gif', 'gif'],
  ['504b0304', 'application/zip', 'zip'],
  ['d0cf11e0a1b11ae1', 'application/x-ole-storage', 'doc'],
  ['7b5c727466', 'application/rtf', 'rtf'],
];

/** The media type and extension the first bytes say, or octet-stream and none. */
function sniff(head: Buffer): { contentType: string; extension: string | undefined } {
  const hex = head.toString('hex');
  const hit = SIGNATURES.find(([sig]) => hex.startsWith(sig));
  if (hit) return { contentType: hit[1], extension: hit[2] };
  if (/^\s*<(!doctype html|html)/i.test(head.toString('latin1'))) return { contentType: 'text/html', extension: 'html' };
  return { contentType: 'application/octet-stream', extension: undefined };
}

/** The storage's sha256 of the whole object (S3's x-amz-checksum-sha256, base64), when it sent one. */
function checksumOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const v = headers['x-amz-checksum-sha256'];
  const text = Array.isArray(v) ? v[0] : v;
  return text !== undefined && /^[A-Za-z0-9+/]{43}=$/.test(text) ? text : undefined;
}

export class AttachmentStore {
  private readonly partial: string;

  constructor(readonly dir: string, private readonly maxBytes: number) {
    this.partial = join(dir, '.partial');
  }

  /** Removes what a killed night left half-written; returns how many. */
  async clearPartials(): Promise<number> {
    const names = await readdir(this.partial).catch(() => [] as string[]);
    await Promise.all(names.map((n) => rm(join(this.partial, n), { force: true })));
    return names.length;
  }

  /**
   * A sink storing a body by content; `extension` is the provider's, used when the bytes do not say one.
   * `midBody` is called once a first piece is on disk (the crash tests' failpoint: a night killed mid-download).
   */
  sink(extension: string | null, midBody: () => void = () => undefined): BodySink<StoredFile> {
    return (body, declared, headers) => this.store(body, declared, checksumOf(headers), extension, midBody);
  }

  private async store(body: AsyncIterable<Buffer>, declared: number | undefined, checksum: string | undefined, extension: string | null, midBody: () => void): Promise<StoredFile> {
    if (declared !== undefined && declared > this.maxBytes) {
      throw new AttachmentRefused('ATTACHMENT_TOO_LARGE', `the file is ${declared} bytes, over the limit of ${this.maxBytes} (LAWSUIT_ATTACHMENT_MAX_SIZE)`, declared);
    }
    await mkdir(this.partial, { recursive: true });
    const tmp = join(this.partial, `${randomUUID()}.part`);
    const file = await open(tmp, 'w');
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let bytes = 0;
    try {
      for await (const chunk of body) {
        bytes += chunk.length;
        if (bytes > this.maxBytes) {
          throw new AttachmentRefused('ATTACHMENT_TOO_LARGE', `the file passed the limit of ${this.maxBytes} bytes (LAWSUIT_ATTACHMENT_MAX_SIZE) and was cut off`, bytes);
        }
        if (declared !== undefined && bytes > declared) {
          throw new AttachmentRefused('ATTACHMENT_LONG_BODY', `the body ran past the ${declared} bytes its Content-Length announced`);
        }
        if (head.length < 1) head.push(chunk.subarray(0, 16));
        hash.update(chunk);
        await file.write(chunk);
        if (bytes === chunk.length) midBody();
      }
      if (declared !== undefined && bytes < declared) {
        throw new AttachmentRefused('ATTACHMENT_SHORT_BODY', `the body ended after ${bytes} of the ${declared} bytes its Content-Length announced`);
      }
      if (checksum !== undefined && hash.copy().digest('base64') !== checksum) {
        // An HTTP client reads what Content-Length announces and no more: a body longer than announced arrives cut at
        // that length, whole-looking. The storage's checksum of the whole object is what tells.
        throw new AttachmentRefused('ATTACHMENT_CHECKSUM', `the ${bytes} bytes received do not match the sha256 the storage gave for the file (x-amz-checksum-sha256): a body longer than its Content-Length, or altered`);
      }
      // On disk before it has a name: a crash after the rename finds the whole file, never a hole.
      await file.sync();
    } catch (e) {
      await file.close().catch(() => undefined);
      await rm(tmp, { force: true });
      throw e;
    }
    await file.close();
    const sha256 = hash.digest('hex');
    const sniffed = sniff(head[0] ?? Buffer.alloc(0));
    const ext = sniffed.extension ?? (extension !== null && /^[a-z0-9]{1,8}$/i.test(extension) ? extension.toLowerCase() : undefined);
    const path = join(this.dir, sha256.slice(0, 2), `${sha256}${ext ? `.${ext}` : ''}`);
    if (await stat(path).then(() => true, () => false)) {
      await rm(tmp, { force: true });
      return { sha256, bytes, contentType: sniffed.contentType, path, fresh: false };
    }
    await mkdir(dirname(path), { recursive: true });
    await rename(tmp, path);
    return { sha256, bytes, contentType: sniffed.contentType, path, fresh: true };
  }
}
