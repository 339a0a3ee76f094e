// The documents list's text encoding. The contract says UTF-8, but a list saved by a spreadsheet as "CSV"
// is Windows-1252 (Latin-1 plus a few signs) on most Brazilian desktops: every accented name is then an
// invalid UTF-8 line. Rejecting each of them costs the whole list, so the file is classified line by line
// first and read in the encoding most of its lines are written in (docs/dialect-and-spec-gaps.md, "Spec gaps"). Pure, streaming.

export type TextEncodingName = 'utf-8' | 'windows-1252';

export interface EncodingVerdict {
  encoding: TextEncodingName;
  /** Lines with non-ASCII bytes that are valid UTF-8. */
  utf8Lines: number;
  /** Lines with bytes that are not valid UTF-8. */
  otherLines: number;
  /** The first line (1-based) that is not valid UTF-8, when there is one. */
  firstOtherLine?: number;
  /** The file starts with a UTF-8 byte order mark: it says what it is, and is read as UTF-8. */
  bom: boolean;
}

const LF = 0x0a, CR = 0x0d;

/**
 * What the lines seen so far were: how many were UTF-8 with accents, how many not UTF-8, and the first of
 * those. Kept apart from the byte-level validator below, which only ever looks at the line it is on.
 */
interface LineTally {
  line: number;
  utf8Lines: number;
  otherLines: number;
  firstOtherLine: number | undefined;
}

/**
 * Classifies physical lines as ASCII, UTF-8 or not UTF-8, fed in chunks of any size (a line may be longer
 * than memory allows to hold). A UTF-8 validator after the WHATWG decoder's table, so that it agrees with
 * `TextDecoder('utf-8', {fatal: true})` on every byte sequence.
 */
export class EncodingSniffer {
  // The line being read (continuation bytes still needed, the range the next must fall in, accents seen, UTF-8
  // broken), then the stream's own state; what the finished lines were is the tally's.
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;
  private nonAscii = false;
  private bad = false;
  private afterCr = false;
  private first = true;
  private bom = false;
  private readonly tally: LineTally = { line: 1, utf8Lines: 0, otherLines: 0, firstOtherLine: undefined };

  push(chunk: Uint8Array): void {
    let i = 0;
    if (this.first && chunk.length > 0) {
      // A BOM split across chunks is not worth handling: files start with one read of 64 KiB.
      this.first = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) { this.bom = true; i = 3; }
    }
    for (; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === LF || c === CR) {
        // CRLF is one break: the LF after a CR does not end another (empty) line.
        if (!(c === LF && this.afterCr)) this.endLine();
        this.afterCr = c === CR;
        continue;
      }
      this.afterCr = false;
      if (this.bad) continue;
      if (this.need > 0) {
        if (c >= this.lo && c <= this.hi) {
          this.need--;
          this.lo = 0x80; this.hi = 0xbf;
          continue;
        }
        // A sequence cut short: the line is not UTF-8, whatever follows on it.
        this.bad = true;
        continue;
      }
      if (c < 0x80) continue;
      this.nonAscii = true;
      if (c >= 0xc2 && c <= 0xdf) this.need = 1;
      else if (c === 0xe0) { this.need = 2; this.lo = 0xa0; }
      else if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) this.need = 2;
      else if (c === 0xed) { this.need = 2; this.hi = 0x9f; }
      else if (c === 0xf0) { this.need = 3; this.lo = 0x90; }
      else if (c >= 0xf1 && c <= 0xf3) this.need = 3;
      else if (c === 0xf4) { this.need = 3; this.hi = 0x8f; }
      else this.bad = true;
    }
  }

  private endLine(): void {
    const t = this.tally;
    if (this.bad || this.need > 0) {
      t.otherLines++;
      t.firstOtherLine ??= t.line;
    } else if (this.nonAscii) {
      t.utf8Lines++;
    }
    t.line++;
    this.need = 0; this.lo = 0x80; this.hi = 0xbf;
    this.nonAscii = false; this.bad = false;
  }

  /** The verdict on everything pushed; the last line counts even without a line break. */
  verdict(): EncodingVerdict {
    if (this.nonAscii || this.bad || this.need > 0) this.endLine();
    // Ties go to UTF-8, the contract's encoding; a BOM settles it.
    const { utf8Lines, otherLines, firstOtherLine } = this.tally;
    const encoding: TextEncodingName = !this.bom && otherLines > utf8Lines ? 'windows-1252' : 'utf-8';
    const v: EncodingVerdict = { encoding, utf8Lines, otherLines, bom: this.bom };
    if (firstOtherLine !== undefined) v.firstOtherLine = firstOtherLine;
    return v;
  }
}

/** The verdict on a whole file held in memory. */
export function sniffEncoding(bytes: Uint8Array): EncodingVerdict {
  const s = new EncodingSniffer();
  s.push(bytes);
  return s.verdict();
}

const NOT_UTF8 = 'not valid UTF-8 (save the file as UTF-8)';
const UTF8_IN_WINDOWS_1252 =
  'this line is UTF-8 but most of the file is Windows-1252 (Latin-1): save the whole file in one encoding, preferably UTF-8';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * What Windows-1252 puts at 0x80-0x9F (where Latin-1 has C1 controls); the five unassigned bytes stay C1
 * controls, as the WHATWG decoder leaves them. Declared here because Node 20's TextDecoder('windows-1252')
 * decodes that range as Latin-1 (measured: 0x92 gives U+0092, not the apostrophe ’).
 */
const CP1252_80_9F = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
    .replace(/[\x80-\x9f]/g, (c) => CP1252_80_9F[c.charCodeAt(0) - 0x80]);
}

function hasNonAscii(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] >= 0x80) return true;
  return false;
}

function isUtf8(b: Uint8Array): boolean {
  try { utf8.decode(b); return true; } catch { return false; }
}

/**
 * Why a record's bytes cannot be read in the file's encoding, or undefined when they can. In a Windows-1252
 * file a line that is valid UTF-8 with accents is refused: read as Windows-1252 it would become `JoÃ£o`.
 */
export function undecodable(record: Uint8Array, encoding: TextEncodingName): string | undefined {
  if (!hasNonAscii(record)) return undefined;
  if (encoding === 'utf-8') return isUtf8(record) ? undefined : NOT_UTF8;
  return isUtf8(record) ? UTF8_IN_WINDOWS_1252 : undefined;
}

/** Text of bytes in the file's encoding; bytes that are not valid become U+FFFD (for showing a rejected line). */
export function decode(bytes: Uint8Array, encoding: TextEncodingName): string {
  return encoding === 'utf-8' ? utf8Lenient.decode(bytes) : decodeWindows1252(bytes);
}
