// The documents list (CONTRACT.md): a CSV of searches. A line that cannot be used is rejected with its line
// number and a reason, and every other line still runs; only a file that cannot be read as a list at all
// (no search_key column, an unreadable header, UTF-16) stops the run. The file is streamed twice in chunks —
// once to tell its encoding, once to read it — so memory holds the searches, never a whole line or file.
import { open } from 'node:fs/promises';
import { quoted } from '../spec/identifiers.js';
import { EtlError } from '../shared/errors.js';
import { CsvReader, type CsvItem } from './csv.js';
import { COLUMNS, readLine, type Column } from './document-line.js';
import { documentIdentity } from './search-body.js';
import { EncodingSniffer, sniffEncoding, type EncodingVerdict } from './encoding.js';
import type { DocumentsList, Duplicate, Rejection } from './types.js';

export type { DocumentSpec, DocumentsList, SearchType } from './types.js';

/** Longest `value` kept for a rejected line, in characters. */
const MAX_REJECTED_VALUE = 500;

/** Bytes read from the file at a time. */
const CHUNK_BYTES = 64 * 1024;

function usage(code: string, message: string, details: Record<string, unknown>): EtlError {
  return new EtlError(code, message, { usage: true, details });
}

/** Column name -> index, from the header record; unknown columns are ignored. */
function readHeader(fields: string[], source: string): Map<Column, number> {
  const names = fields.map((f) => f.trim().toLowerCase());
  const cols = new Map<Column, number>();
  names.forEach((name, i) => {
    if (!(COLUMNS as readonly string[]).includes(name)) return;
    if (cols.has(name as Column)) {
      throw usage('INPUT_DUPLICATE_COLUMN', `${source}: column "${name}" appears twice in the header`, { source, header: fields });
    }
    cols.set(name as Column, i);
  });
  if (!cols.has('search_key')) {
    const shown = fields.slice(0, 20).map((f) => quoted(f.trim())).join(', ');
    throw usage('INPUT_NO_SEARCH_KEY',
      `${source}: the header has no search_key column (found: ${shown || 'nothing'}${fields.length > 20 ? ', …' : ''})`,
      { source, header: fields.slice(0, 20) });
  }
  return cols;
}

function rejection(line: number, raw: string, reason: string): Rejection {
  return { line, value: raw.replace(/\r?\n$/, '').slice(0, MAX_REJECTED_VALUE), reason };
}

function isUtf16(head: Uint8Array): boolean {
  return (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
}

function encodingWarnings(v: EncodingVerdict, source: string): string[] {
  if (v.encoding !== 'windows-1252') return [];
  const mixed = v.utf8Lines > 0 ? `; ${v.utf8Lines} line(s) written in UTF-8 are rejected` : '';
  return [`${source} is not UTF-8: read as Windows-1252 (Latin-1), the encoding a spreadsheet's "CSV" export uses`
    + ` (${v.otherLines} line(s) with accents, the first on line ${v.firstOtherLine})${mixed}. Save it as "CSV UTF-8" to be sure of every name.`];
}

/** What a search type does not use, and so is left out of its request (search-options.ts). */
const UNUSED: Readonly<Record<string, string>> = {
  with_attachments: 'attachments come with lawsuit_cnj searches only',
  masked_response: 'masked_response chooses between the simple and the complete search by document (cpf, cnpj, oab, name)',
};

function unusedWarning(source: string, column: string, lines: readonly number[]): string {
  const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? ', …' : '');
  return `${source}: ${column} left out of ${lines.length} line(s) that search by another type (line ${shown}): ${UNUSED[column] ?? 'not used by their search type'}; the rest of each line is searched`;
}

/** Builds the list from CSV items as they are read; the first non-blank record is the header. */
class ListBuilder {
  private readonly list: DocumentsList;
  private cols: Map<Column, number> | undefined;
  private width = 0;
  private readonly firstSeen = new Map<string, number>();
  /** Lines that filled an option column their search type does not use, by column. */
  private readonly unused = new Map<string, number[]>();

  constructor(private readonly source: string, verdict: EncodingVerdict) {
    this.list = { source, documents: [], rejected: [], duplicates: [], encoding: verdict.encoding, warnings: encodingWarnings(verdict, source) };
  }

  add(it: CsvItem): void {
    if (this.cols === undefined) this.header(it);
    else this.line(it);
  }

  private header(it: CsvItem): void {
    if (it.kind === 'error') {
      throw usage('INPUT_BAD_HEADER', `${this.source}: the header on line ${it.line} cannot be read: ${it.reason}`, { source: this.source, line: it.line });
    }
    if (it.fields.every((f) => f.trim() === '')) return;
    this.cols = readHeader(it.fields, this.source);
    this.width = it.fields.length;
  }

  private line(it: CsvItem): void {
    const list = this.list;
    if (it.kind === 'error') { list.rejected.push(rejection(it.line, it.raw, it.reason)); return; }
    // Spreadsheets leave rows of empty cells (`,,,`) at the end: as blank as a blank line.
    if (it.fields.every((f) => f.trim() === '')) return;
    const extra = it.fields.slice(this.width).filter((f) => f.trim() !== '');
    if (extra.length > 0) {
      list.rejected.push(rejection(it.line, it.raw,
        `line has ${it.fields.length} fields but the header has ${this.width} (quote a value that contains the delimiter)`));
      return;
    }
    const r = readLine(it.line, it.fields, this.cols!);
    if (!r.ok) { list.rejected.push(rejection(it.line, it.raw, r.reasons.join('; '))); return; }
    const d = r.doc;
    for (const c of r.unused) this.unused.set(c, [...(this.unused.get(c) ?? []), d.line]);
    // The same search asked twice costs twice and loads the same rows: run it once (a name in any spelling, its
    // filter written any way; another filter or credential is another search).
    const identity = documentIdentity(d);
    const first = this.firstSeen.get(identity);
    if (first !== undefined) {
      list.duplicates.push({ line: d.line, firstLine: first, key: d.searchKey } satisfies Duplicate);
      return;
    }
    this.firstSeen.set(identity, d.line);
    list.documents.push(d);
  }

  finish(): DocumentsList {
    if (this.cols === undefined) {
      throw usage('INPUT_NO_SEARCH_KEY', `${this.source} is empty: it needs a header with a search_key column`, { source: this.source, header: [] });
    }
    for (const [column, lines] of this.unused) this.list.warnings!.push(unusedWarning(this.source, column, lines));
    return this.list;
  }
}

function refuseUtf16(head: Uint8Array, source: string): void {
  if (isUtf16(head)) throw usage('INPUT_ENCODING', `${source} is UTF-16: save it as UTF-8`, { source });
}

/** Read a documents list from its bytes (or text). Throws an EtlError (exit 2) only when the whole file is unusable. */
export function parseDocuments(input: Uint8Array | string, source = 'documents.csv'): DocumentsList {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  refuseUtf16(bytes, source);
  const verdict = sniffEncoding(bytes);
  const reader = new CsvReader({ encoding: verdict.encoding });
  const builder = new ListBuilder(source, verdict);
  for (const it of reader.push(bytes)) builder.add(it);
  for (const it of reader.end()) builder.add(it);
  return builder.finish();
}

function unreadable(path: string, e: unknown): EtlError {
  const code = (e as NodeJS.ErrnoException).code;
  return new EtlError(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE',
    `documents list ${path} cannot be read${code ? ` (${code})` : ''}`, { usage: true, cause: e, details: { path } });
}

/** Feed the file at `path` to `sink` in chunks, from its start. */
async function streamFile(path: string, sink: (chunk: Uint8Array) => void): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    throw unreadable(path, e);
  }
  try {
    const buf = new Uint8Array(CHUNK_BYTES);
    for (;;) {
      let n: number;
      try {
        ({ bytesRead: n } = await handle.read(buf, 0, buf.length, null));
      } catch (e) {
        throw unreadable(path, e);
      }
      if (n === 0) break;
      sink(buf.subarray(0, n));
    }
  } finally {
    await handle.close();
  }
}

/** Read the documents list at `path`; a missing or unreadable file is a configuration error (exit 2). */
export async function readDocuments(path: string): Promise<DocumentsList> {
  const sniffer = new EncodingSniffer();
  let first = true;
  await streamFile(path, (chunk) => {
    if (first) refuseUtf16(chunk, path);
    first = false;
    sniffer.push(chunk);
  });
  const verdict = sniffer.verdict();
  const reader = new CsvReader({ encoding: verdict.encoding });
  const builder = new ListBuilder(path, verdict);
  // The reader copies what it keeps of a chunk, so one buffer serves every read.
  await streamFile(path, (chunk) => { for (const it of reader.push(chunk)) builder.add(it); });
  for (const it of reader.end()) builder.add(it);
  return builder.finish();
}
