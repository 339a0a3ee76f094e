// The bytes of each file. CSV and NDJSON are generated while they are sent (a file of hundreds of MB never
// sits in memory or on disk); their size is found once by a counting pass over the same deterministic
// generator. Parquet is written once with parquetjs-lite (an independent writer, so that the client's DuckDB
// reader is tested against something it did not write) into a cache folder, then streamed from disk.

import { createReadStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { CatalogueFile } from './catalogue.js';
import { csvHeader, csvLine, ndjsonLine } from './encode.js';
import { FLAT_SCHEMAS, type FlatColumn, type FlatSource } from './flat-source.js';

/** What a file holds, as the metadata announces it. */
interface ContentInfo {
  /** Exact number of bytes served. */
  bytes: number;
  /** Data rows (without the CSV header). */
  rows: number;
  /** Distinct lawsuits in the file. */
  lawsuits: number;
}

const CHUNK = 64 * 1024;

/** The file's text in chunks of about 64 KiB, with the lawsuit count reported at the end through `tally`. */
function* textChunks(file: CatalogueFile, source: FlatSource, tally?: { rows: number; lawsuits: number }): Generator<string> {
  const cols = FLAT_SCHEMAS[file.kind];
  let buf = file.file_type === 'csv' ? csvHeader(cols) : '';
  let bytes = Buffer.byteLength(buf);
  let rows = 0;
  let i = 0;
  do {
    for (const row of source.rows(file.kind, file.stream, i)) {
      const line = file.file_type === 'csv' ? csvLine(cols, row) : ndjsonLine(cols, row);
      buf += line;
      bytes += Buffer.byteLength(line);
      rows++;
    }
    i++;
    if (buf.length >= CHUNK) {
      yield buf;
      buf = '';
    }
  } while (bytes < file.targetBytes);
  if (buf) yield buf;
  if (tally) { tally.rows = rows; tally.lawsuits = i; }
}

interface ParquetModule {
  ParquetSchema: new (def: Record<string, { type: string; compression?: string }>) => unknown;
  ParquetWriter: { openFile(schema: unknown, path: string, opts?: Record<string, unknown>): Promise<{ appendRow(row: Record<string, unknown>): Promise<void>; setRowGroupSize(n: number): void; close(): Promise<void> }> };
}

const PARQUET_TYPE: Record<FlatColumn['type'], string> = { string: 'UTF8', int: 'INT64', decimal: 'DOUBLE', timestamp: 'TIMESTAMP_MILLIS', bool: 'BOOLEAN' };

interface TransferContentOptions {
  /** Labels the FlatSource in cache file names, so that another source never reuses a stale parquet file. */
  sourceId: string;
  /** Where parquet files are cached. Default `<os.tmpdir()>/lawsuit-etl-transfer-cache`. */
  cacheDir?: string;
}

export class TransferContent {
  private readonly infos = new Map<string, Promise<ContentInfo>>();
  private readonly parquetFiles = new Map<string, Promise<string>>();
  private readonly cacheDir: string;

  constructor(private readonly source: FlatSource, private readonly opts: TransferContentOptions) {
    this.cacheDir = opts.cacheDir ?? join(tmpdir(), 'lawsuit-etl-transfer-cache');
  }

  /** Size, rows and lawsuits of a file; computed once per file. */
  info(file: CatalogueFile): Promise<ContentInfo> {
    let p = this.infos.get(file.transfer_file_id);
    if (!p) {
      p = this.computeInfo(file);
      this.infos.set(file.transfer_file_id, p);
      p.catch(() => this.infos.delete(file.transfer_file_id));
    }
    return p;
  }

  /** The file's bytes from the first one. */
  async open(file: CatalogueFile): Promise<Readable> {
    if (file.file_type === 'parquet') return createReadStream(await this.parquetPath(file), { highWaterMark: CHUNK });
    return Readable.from(textChunks(file, this.source), { objectMode: false });
  }

  private async computeInfo(file: CatalogueFile): Promise<ContentInfo> {
    const tally = { rows: 0, lawsuits: 0 };
    let bytes = 0;
    for (const chunk of textChunks({ ...file, file_type: file.file_type === 'parquet' ? 'csv' : file.file_type }, this.source, tally)) {
      bytes += Buffer.byteLength(chunk);
    }
    if (file.file_type === 'parquet') bytes = (await stat(await this.parquetPath(file))).size;
    return { bytes, rows: tally.rows, lawsuits: tally.lawsuits };
  }

  private parquetPath(file: CatalogueFile): Promise<string> {
    let p = this.parquetFiles.get(file.transfer_file_id);
    if (!p) {
      p = this.writeParquet(file);
      this.parquetFiles.set(file.transfer_file_id, p);
      p.catch(() => this.parquetFiles.delete(file.transfer_file_id));
    }
    return p;
  }

  private async writeParquet(file: CatalogueFile): Promise<string> {
    const path = join(this.cacheDir, `${this.opts.sourceId}-${file.transfer_file_id}-${file.kind}-${file.stream}-${file.targetBytes}.parquet`);
    try {
      await stat(path);
      return path;
    } catch {
      // not cached yet
    }
    await mkdir(this.cacheDir, { recursive: true });
    const parquet = createRequire(import.meta.url)('parquetjs-lite') as ParquetModule;
    const cols = FLAT_SCHEMAS[file.kind];
    const schema = new parquet.ParquetSchema(Object.fromEntries(cols.map((c) => [c.name, { type: PARQUET_TYPE[c.type], compression: 'SNAPPY' }])));
    // A unique temporary name, renamed at the end: two sandboxes sharing the cache never see a half-written file.
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    const writer = await parquet.ParquetWriter.openFile(schema, tmp);
    writer.setRowGroupSize(8192);
    const cols0 = FLAT_SCHEMAS[file.kind];
    let bytes = 0;
    let i = 0;
    do {
      for (const row of this.source.rows(file.kind, file.stream, i)) {
        await writer.appendRow(row);
        bytes += Buffer.byteLength(csvLine(cols0, row));
      }
      i++;
    } while (bytes + Buffer.byteLength(csvHeader(cols0)) < file.targetBytes);
    await writer.close();
    await rename(tmp, path);
    return path;
  }
}
