// A small RFC 4180 reader of our own, for two purposes: one bad line of a hand-edited list must not cost the
// others, and no line, however long, may cost the run its memory. It scans bytes, not text: the structural
// characters (quote, delimiter, CR, LF) are ASCII and never occur inside a UTF-8 (or Windows-1252) character,
// so each record is decoded on its own and a badly encoded line loses only itself. Bytes arrive in chunks and
// at most one record's window (MAX_RECORD_BYTES) is held: a longer line is counted as it streams past,
// rejected with its length, and reading resumes on the next line.
import { decode, undecodable, type TextEncodingName } from './encoding.js';

type Delimiter = ',' | ';';

export type CsvItem =
  /** A record: `line` is the physical line (1-based) it starts on; `raw` is its text as written. */
  | { kind: 'record'; line: number; fields: string[]; raw: string }
  /** A record that could not be read; `raw` is (the start of) its first line. Reading resumed on the next line. */
  | { kind: 'error'; line: number; raw: string; reason: string };

interface CsvOptions {
  /** Field delimiter; default: `;` if the first line has a `;` and no `,` outside quotes, else `,`. */
  delimiter?: Delimiter;
  /** How the bytes are read (see encoding.ts); default UTF-8. */
  encoding?: TextEncodingName;
  /** Longest record in bytes, line breaks inside quotes included; default MAX_RECORD_BYTES. */
  maxRecordBytes?: number;
}

/**
 * Longest record, in bytes (docs/operating.md, "The documents list"). A documents list's line is a key and a few flags,
 * some 100 bytes; 64 KiB leaves room for any label while a 50 MB line cannot exhaust a 128 MB heap.
 */
const MAX_RECORD_BYTES = 64 * 1024;

/** Bytes kept of an over-long line, to show what it started with. */
const HEAD_BYTES = 2048;

const QUOTE = 0x22, CR = 0x0d, LF = 0x0a, SP = 0x20, TAB = 0x09, COMMA = 0x2c, SEMI = 0x3b;
const EMPTY = new Uint8Array(0);

const bytesText = (n: number): string => `${n.toLocaleString('en-US')} bytes`;

/** Index just past the UTF-8 byte order mark, if the input starts with one. */
function bomLength(b: Uint8Array): number {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
}

/** The delimiter the header line uses: `;` only when it has a `;` and no `,` outside quotes. */
function detectDelimiter(bytes: Uint8Array, from = bomLength(bytes), limit = MAX_RECORD_BYTES): Delimiter {
  let inQuotes = false, commas = 0, semis = 0;
  const end = Math.min(bytes.length, from + limit);
  for (let i = from; i < end; i++) {
    const c = bytes[i];
    if (c === QUOTE) inQuotes = !inQuotes;
    else if (!inQuotes && (c === LF || c === CR)) break;
    else if (!inQuotes && c === COMMA) commas++;
    else if (!inQuotes && c === SEMI) semis++;
  }
  return semis > 0 && commas === 0 ? ';' : ',';
}

/** Why a record could not be read: it is rejected from its first line, and reading resumes on the next. */
class BadRecord extends Error {}

type Scan =
  /** The physical line at pos is longer than the limit: it is skipped as it streams past. */
  | { kind: 'overlong' }
  | { kind: 'blank'; next: number }
  | { kind: 'bad'; reason: string; eol: number; next: number }
  | { kind: 'record'; fields: Uint8Array[]; quoted: boolean[]; end: number; next: number; nextLine: number };

/** Index just past the line break at p (CRLF, LF or a lone CR), or the end of the input. */
function pastBreak(b: Uint8Array, p: number): number {
  const n = b.length;
  return p >= n ? n : b[p] === CR && b[p + 1] === LF ? p + 2 : p + 1;
}

/** The end of the physical line starting at pos (its line break, or the end of the input); -1 past `cap`. */
function lineEnd(b: Uint8Array, pos: number, cap: number): number {
  const n = b.length;
  let eol = pos;
  while (eol < n && b[eol] !== LF && b[eol] !== CR) {
    if (eol === cap) return -1;
    eol++;
  }
  return eol;
}

function isBlank(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] !== SP && b[i] !== TAB) return false;
  return true;
}

/**
 * Only a record that goes on past its first line can run over the limit (that line itself fits, checked
 * first), and only through a quoted line break: the last quote opened is the likely culprit.
 */
const tooLong = (limit: number, line: number, curLine: number, openLine: number): BadRecord => new BadRecord(
  `the record runs over ${bytesText(limit)}, the most a record may have, across lines ${line} to ${curLine}`
  + ` (the quote opened on line ${openLine} is not closed in time: an unbalanced quote?)`);

/** The end of the unquoted field starting at p: the delimiter, a line break, the end of input, or past `cap`. */
function unquotedEnd(b: Uint8Array, p: number, cap: number, delim: number, curLine: number): number {
  const n = b.length;
  let i = p;
  while (i < n && i <= cap && b[i] !== delim && b[i] !== CR && b[i] !== LF) {
    if (b[i] === QUOTE) {
      throw new BadRecord(`quote character inside an unquoted field on line ${curLine} (quote the whole field and double the inner quote)`);
    }
    i++;
  }
  return i;
}

/**
 * Read one record starting at `pos` (physical line `line`). The caller guarantees the buffer holds every
 * byte up to pos + limit + 1, or the end of the input: nothing here ever waits for more. A hot path: the
 * helpers it calls take plain numbers, so a record allocates its fields and nothing else.
 */
function scanRecord(b: Uint8Array, pos: number, line: number, limit: number, delim: number): Scan {
  const eol = lineEnd(b, pos, pos + limit);
  if (eol < 0) return { kind: 'overlong' };
  const nextLine = pastBreak(b, eol);
  if (isBlank(b, pos, eol)) return { kind: 'blank', next: nextLine };
  try {
    return scanFields(b, pos, line, limit, delim);
  } catch (e) {
    if (!(e instanceof BadRecord)) throw e;
    // Resume on the next physical line: a stray quote must not swallow the lines after it.
    return { kind: 'bad', reason: e.message, eol, next: nextLine };
  }
}

/**
 * The fields of the record starting at `pos`, a line not blank nor over the limit (scanRecord): each quoted or
 * not, up to the line break that ends the record. Throws a BadRecord for what cannot be read.
 */
function scanFields(b: Uint8Array, pos: number, line: number, limit: number, delim: number): Extract<Scan, { kind: 'record' }> {
  const n = b.length;
  const cap = pos + limit;
  const fields: Uint8Array[] = [];
  const quoted: boolean[] = [];
  let p = pos;
  let curLine = line;
  let openLine = line;
  for (;;) {
    // One field starting at p.
    let q = p;
    while (q < n && q <= cap && (b[q] === SP || b[q] === TAB)) q++;
    if (q > cap) throw tooLong(limit, line, curLine, openLine);
    if (q < n && b[q] === QUOTE) {
      openLine = curLine;
      let i = q + 1;
      let closed = -1;
      while (i < n) {
        if (i > cap) throw tooLong(limit, line, curLine, openLine);
        const c = b[i];
        if (c === QUOTE) {
          if (b[i + 1] === QUOTE) { i += 2; continue; }
          closed = i;
          break;
        }
        if (c === CR || c === LF) { i = pastBreak(b, i); curLine++; continue; }
        i++;
      }
      if (i > cap) throw tooLong(limit, line, curLine, openLine);
      if (closed < 0) throw new BadRecord(`unterminated quoted field (the quote opened on line ${openLine} is never closed)`);
      fields.push(b.subarray(q + 1, closed));
      quoted.push(true);
      p = closed + 1;
      while (p < n && p <= cap && (b[p] === SP || b[p] === TAB)) p++;
      if (p > cap) throw tooLong(limit, line, curLine, openLine);
      if (p < n && b[p] !== delim && b[p] !== CR && b[p] !== LF) {
        throw new BadRecord(curLine === openLine
          ? `unexpected text after a closing quote (a quote inside a field must be doubled: "")`
          : `the quote opened on line ${openLine} closes on line ${curLine} and is followed by text (an unbalanced quote?)`);
      }
    } else {
      const i = unquotedEnd(b, p, cap, delim, curLine);
      if (i > cap) throw tooLong(limit, line, curLine, openLine);
      fields.push(b.subarray(p, i));
      quoted.push(false);
      p = i;
    }
    if (p < n && b[p] === delim) { p++; continue; }
    break;
  }
  return { kind: 'record', fields, quoted, end: p, next: pastBreak(b, p), nextLine: curLine + 1 };
}

/** A copy, not a view: a Buffer's `slice` shares memory, and a view would keep a whole chunk alive. */
const copyOf = (b: Uint8Array): Uint8Array => new Uint8Array(b);

function firstBreak(b: Uint8Array, from: number): number {
  const lf = b.indexOf(LF, from);
  const cr = b.indexOf(CR, from);
  return lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
}

/**
 * Incremental reader: `push` chunks of any size as they are read, then `end`; each returns the items the
 * bytes so far complete, in order. The items are the same whatever the chunking (a test proves it).
 */
export class CsvReader {
  private buf: Uint8Array = EMPTY;
  private line = 1;
  private bomChecked = false;
  private delim: number | undefined;
  private readonly limit: number;
  private readonly encoding: TextEncodingName;
  /** An over-long line being skipped: where it started, its length so far, its first bytes. */
  private skipping: { line: number; length: number; head: Uint8Array } | undefined;

  constructor(opts: CsvOptions = {}) {
    this.limit = opts.maxRecordBytes ?? MAX_RECORD_BYTES;
    this.encoding = opts.encoding ?? 'utf-8';
    if (opts.delimiter !== undefined) this.delim = opts.delimiter === ';' ? SEMI : COMMA;
  }

  push(chunk: Uint8Array): CsvItem[] {
    if (chunk.length === 0) return [];
    if (this.buf.length === 0) this.buf = chunk;
    else {
      const joined = new Uint8Array(this.buf.length + chunk.length);
      joined.set(this.buf);
      joined.set(chunk, this.buf.length);
      this.buf = joined;
    }
    return this.drain(false);
  }

  end(): CsvItem[] {
    return this.drain(true);
  }

  private drain(final: boolean): CsvItem[] {
    const out: CsvItem[] = [];
    const b = this.buf;
    const n = b.length;
    let pos = 0;
    if (!this.bomChecked) {
      if (n < 3 && !final) { this.buf = copyOf(b); return out; }
      pos = bomLength(b);
      this.bomChecked = true;
    }
    for (;;) {
      if (this.skipping) {
        const brk = firstBreak(b, pos);
        const to = brk < 0 ? n : brk;
        this.skipping.length += to - pos;
        pos = to;
        if (brk < 0 && !final) break;
        out.push(this.overlong(this.skipping));
        // The line keeps its number: its break now reads as an empty line, which moves to the next one.
        this.line = this.skipping.line;
        this.skipping = undefined;
        continue;
      }
      if (pos >= n) break;
      // The scanner never waits: hold back until a whole record's window is here, or the input has ended.
      if (!final && n - pos < this.limit + 2) break;
      this.delim ??= detectDelimiter(b, pos, this.limit) === ';' ? SEMI : COMMA;
      const s = scanRecord(b, pos, this.line, this.limit, this.delim);
      if (s.kind === 'overlong') {
        this.skipping = { line: this.line, length: 0, head: copyOf(b.subarray(pos, pos + Math.min(HEAD_BYTES, this.limit + 1))) };
        continue;
      }
      if (s.kind === 'blank') {
        this.line++;
      } else if (s.kind === 'bad') {
        out.push({ kind: 'error', line: this.line, raw: decode(b.subarray(pos, s.eol), this.encoding), reason: s.reason });
        this.line++;
      } else {
        out.push(this.record(b.subarray(pos, s.end), s.fields, s.quoted));
        this.line = s.nextLine;
      }
      pos = s.next;
    }
    this.buf = pos >= n ? EMPTY : copyOf(b.subarray(pos));
    return out;
  }

  private record(bytes: Uint8Array, fields: Uint8Array[], quoted: boolean[]): CsvItem {
    const raw = decode(bytes, this.encoding);
    const problem = undecodable(bytes, this.encoding);
    if (problem !== undefined) return { kind: 'error', line: this.line, raw, reason: problem };
    const text = fields.map((f, k) => {
      const s = decode(f, this.encoding);
      return quoted[k] ? s.replaceAll('""', '"') : s;
    });
    return { kind: 'record', line: this.line, fields: text, raw };
  }

  private overlong(s: { line: number; length: number; head: Uint8Array }): CsvItem {
    return {
      kind: 'error', line: s.line, raw: decode(s.head, this.encoding),
      reason: `line is ${bytesText(s.length)} long, more than the ${bytesText(this.limit)} a line may have: shorten or split it`,
    };
  }
}
