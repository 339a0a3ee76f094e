// A small RFC 4180 reader of our own, for one purpose: one bad line of a hand-edited list must not cost
// the others. It scans bytes, not text: the structural characters (quote, delimiter, CR, LF) are ASCII and
// never occur inside a UTF-8 multi-byte sequence, so each record can be decoded on its own and a file with
// one badly encoded line loses only that line.

export type Delimiter = ',' | ';';

export type CsvItem =
  /** A record: `line` is the physical line (1-based) it starts on; `raw` is its text as written. */
  | { kind: 'record'; line: number; fields: string[]; raw: string }
  /** A record that could not be read; the reader resumes on the physical line after `line`. */
  | { kind: 'error'; line: number; raw: string; reason: string };

export interface CsvOptions {
  /** Field delimiter; default: `;` if the first line has a `;` and no `,` outside quotes, else `,`. */
  delimiter?: Delimiter;
}

export const NOT_UTF8 = 'not valid UTF-8 (save the file as UTF-8)';

const QUOTE = 0x22, CR = 0x0d, LF = 0x0a, SP = 0x20, TAB = 0x09, COMMA = 0x2c, SEMI = 0x3b;
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

class BadRecord extends Error {}

/** Index just past the UTF-8 byte order mark, if the input starts with one. */
function bomLength(b: Uint8Array): number {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
}

/** The delimiter the header line uses: `;` only when it has a `;` and no `,` outside quotes. */
export function detectDelimiter(bytes: Uint8Array, from = bomLength(bytes)): Delimiter {
  let inQuotes = false, commas = 0, semis = 0;
  for (let i = from; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) inQuotes = !inQuotes;
    else if (!inQuotes && (c === LF || c === CR)) break;
    else if (!inQuotes && c === COMMA) commas++;
    else if (!inQuotes && c === SEMI) semis++;
  }
  return semis > 0 && commas === 0 ? ';' : ',';
}

/** Read every record of a CSV document, in order; blank physical lines are skipped. */
export function parseCsv(input: Uint8Array | string, opts: CsvOptions = {}): CsvItem[] {
  const b = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const start = bomLength(b);
  const delim = (opts.delimiter ?? detectDelimiter(b, start)) === ';' ? SEMI : COMMA;
  const n = b.length;
  const items: CsvItem[] = [];
  let pos = start;
  let line = 1;

  /** End of the physical line starting at p (index of its CR/LF, or n). */
  const lineEnd = (p: number): number => {
    while (p < n && b[p] !== LF && b[p] !== CR) p++;
    return p;
  };
  /** Index just past the line break at p (CRLF, LF or a lone CR). */
  const pastBreak = (p: number): number => (b[p] === CR && b[p + 1] === LF ? p + 2 : p + 1);
  const rawText = (from: number, to: number): string => lenient.decode(b.subarray(from, to));

  while (pos < n) {
    const recStart = pos;
    const recLine = line;
    const eol = lineEnd(pos);
    if (b.subarray(pos, eol).every((c) => c === SP || c === TAB)) {
      // Blank line: nothing to read, nothing to reject.
      pos = eol < n ? pastBreak(eol) : n;
      line++;
      continue;
    }
    const fields: Uint8Array[] = [];
    const quoted: boolean[] = [];
    let p = pos;
    let curLine = line;
    try {
      for (;;) {
        // One field starting at p.
        let q = p;
        while (q < n && (b[q] === SP || b[q] === TAB)) q++;
        if (q < n && b[q] === QUOTE) {
          const openLine = curLine;
          let i = q + 1;
          let closed = -1;
          while (i < n) {
            const c = b[i];
            if (c === QUOTE) {
              if (b[i + 1] === QUOTE) { i += 2; continue; }
              closed = i;
              break;
            }
            if (c === CR || c === LF) { i = pastBreak(i); curLine++; continue; }
            i++;
          }
          if (closed < 0) throw new BadRecord(`unterminated quoted field (the quote opened on line ${openLine} is never closed)`);
          fields.push(b.subarray(q + 1, closed));
          quoted.push(true);
          p = closed + 1;
          while (p < n && (b[p] === SP || b[p] === TAB)) p++;
          if (p < n && b[p] !== delim && b[p] !== CR && b[p] !== LF) {
            throw new BadRecord(curLine === openLine
              ? `unexpected text after a closing quote (a quote inside a field must be doubled: "")`
              : `the quote opened on line ${openLine} closes on line ${curLine} and is followed by text (an unbalanced quote?)`);
          }
        } else {
          let i = p;
          while (i < n && b[i] !== delim && b[i] !== CR && b[i] !== LF) {
            if (b[i] === QUOTE) {
              throw new BadRecord(`quote character inside an unquoted field on line ${curLine} (quote the whole field and double the inner quote)`);
            }
            i++;
          }
          fields.push(b.subarray(p, i));
          quoted.push(false);
          p = i;
        }
        if (p < n && b[p] === delim) { p++; continue; }
        break;
      }
    } catch (e) {
      if (!(e instanceof BadRecord)) throw e;
      items.push({ kind: 'error', line: recLine, raw: rawText(recStart, eol), reason: e.message });
      // Resume on the next physical line: a stray quote must not swallow the lines after it.
      pos = eol < n ? pastBreak(eol) : n;
      line = recLine + 1;
      continue;
    }
    const recEnd = p;
    pos = p < n ? pastBreak(p) : n;
    line = curLine + 1;
    try {
      const text = fields.map((f, k) => {
        const s = strict.decode(f);
        return quoted[k] ? s.replaceAll('""', '"') : s;
      });
      items.push({ kind: 'record', line: recLine, fields: text, raw: rawText(recStart, recEnd) });
    } catch {
      items.push({ kind: 'error', line: recLine, raw: rawText(recStart, recEnd), reason: NOT_UTF8 });
    }
  }
  return items;
}
