import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rng } from '../support/random.js';
import { parseDocuments, readDocuments } from '../../src/input/documents.js';
import { EncodingSniffer, sniffEncoding } from '../../src/input/encoding.js';

// The reasons a rejected line is given, as the person who saved the file reads them.
const NOT_UTF8 = 'not valid UTF-8 (save the file as UTF-8)';
const UTF8_IN_WINDOWS_1252 = 'this line is UTF-8 but most of the file is Windows-1252 (Latin-1): save the whole file in one encoding, preferably UTF-8';

// Issue 11: a Latin-1 list of 800 names became 800 rejections ("not valid UTF-8"), and 800 rejections killed
// the run. A spreadsheet's "CSV" export is Windows-1252: such a file is read as what it is, with a warning.
const latin1 = (s: string) => Uint8Array.from([...s].map((c) => {
  const code = c.charCodeAt(0);
  if (code > 0xff) throw new Error(`not Latin-1: ${c}`);
  return code;
}));
const utf8 = (s: string) => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

const FIRST = ['João', 'José', 'Conceição', 'Ângela', 'Inês', 'Luís', 'Márcia', 'Sônia', 'Ênio', 'Íris'];
const LAST = ['Araújo', 'Gonçalves', 'Magalhães', 'Simões', 'Antônio', 'Brandão', 'Camões', 'Conceição'];
const NAMES = Array.from({ length: 800 }, (_, i) => `${FIRST[i % 10]} ${LAST[Math.floor(i / 10) % 8]} ${String.fromCharCode(65 + Math.floor(i / 80))}`);

describe('a list saved in Windows-1252 (Latin-1)', () => {
  it('800 accented names are read as written, none rejected, with one warning naming the encoding', () => {
    const text = `search_key,search_type,label\n${NAMES.map((n, i) => `${n},name,cliente nº ${i}`).join('\r\n')}\r\n`;
    const list = parseDocuments(latin1(text), 'clientes.csv');
    expect(list.rejected).toEqual([]);
    expect(list.encoding).toBe('windows-1252');
    expect(list.documents).toHaveLength(800);
    expect(list.documents.map((d) => d.searchKey)).toEqual(NAMES);
    expect(list.documents[3].label).toBe('cliente nº 3');
    expect(list.warnings).toHaveLength(1);
    expect(list.warnings![0]).toMatch(/^clientes\.csv is not UTF-8: read as Windows-1252 \(Latin-1\).*800 line\(s\) with accents, the first on line 2/);
  });

  it('reads the signs Windows-1252 adds to Latin-1 (the curly apostrophe of D’Ávila, the euro sign)', () => {
    const bytes = concat(latin1('search_key,label\nJoana D'), Uint8Array.of(0x92), latin1('Ávila,'), Uint8Array.of(0x80), latin1(' 10\n'));
    const list = parseDocuments(bytes);
    expect(list.documents).toMatchObject([{ searchType: 'name', searchKey: 'Joana D’Ávila', label: '€ 10' }]);
  });

  it('a UTF-8 file with one Latin-1 line stays UTF-8 and rejects that line alone', () => {
    const bytes = concat(utf8('search_key\nJoão Silva\nMaria Simões\n'), latin1('José Araújo\n'), utf8('Inês Brandão\n'));
    const list = parseDocuments(bytes);
    expect(list.encoding).toBe('utf-8');
    expect(list.warnings).toEqual([]);
    expect(list.documents.map((d) => d.searchKey)).toEqual(['João Silva', 'Maria Simões', 'Inês Brandão']);
    expect(list.rejected).toMatchObject([{ line: 4, reason: NOT_UTF8 }]);
  });

  it('a Windows-1252 file with one UTF-8 line rejects that line, which would otherwise be searched as mojibake', () => {
    const bytes = concat(latin1('search_key\nJoão Silva\nMaria Simões\n'), utf8('José Araújo\n'), latin1('Inês Brandão\n'));
    const list = parseDocuments(bytes);
    expect(list.encoding).toBe('windows-1252');
    expect(list.documents.map((d) => d.searchKey)).toEqual(['João Silva', 'Maria Simões', 'Inês Brandão']);
    expect(list.rejected).toMatchObject([{ line: 4, reason: UTF8_IN_WINDOWS_1252 }]);
    expect(list.warnings![0]).toMatch(/1 line\(s\) written in UTF-8 are rejected/);
  });

  it('a UTF-8 byte order mark settles it: the file is UTF-8 whatever its lines', () => {
    const bytes = concat(Uint8Array.of(0xef, 0xbb, 0xbf), latin1('search_key\nJoão Silva\n'));
    const list = parseDocuments(bytes);
    expect(list.encoding).toBe('utf-8');
    expect(list.rejected).toMatchObject([{ line: 2, reason: NOT_UTF8 }]);
  });

  it('a pure ASCII file is UTF-8 with no warning', () => {
    const list = parseDocuments('search_key\nMaria Silva\n');
    expect(list).toMatchObject({ encoding: 'utf-8', warnings: [] });
  });

  describe('read from disk', () => {
    const dirP = mkdtemp(join(tmpdir(), 'latin1-'));
    afterAll(async () => rm(await dirP, { recursive: true, force: true }));

    it('gives the same list as the bytes in memory', async () => {
      const path = join(await dirP, 'clientes.csv');
      const bytes = latin1(`search_key;label\n${NAMES.map((n) => `${n};x`).join('\n')}\n`);
      await writeFile(path, bytes);
      const fromDisk = await readDocuments(path);
      expect(fromDisk).toEqual(parseDocuments(bytes, path));
      expect(fromDisk.documents).toHaveLength(800);
    });
  });
});

describe('the encoding sniffer', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true });

  it('agrees with the UTF-8 decoder line by line on random bytes, fed in random chunks', () => {
    const r = rng(8);
    // Bytes around every boundary of the UTF-8 table: ASCII, continuations, the lead bytes with narrowed ranges.
    const alphabet = [0x41, 0x0a, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff];
    for (let k = 0; k < 3000; k++) {
      const bytes = Uint8Array.from({ length: 1 + Math.floor(r() * 12) }, () => alphabet[Math.floor(r() * alphabet.length)]);
      const lines: number[][] = [[]];
      for (const b of bytes) { if (b === 0x0a) lines.push([]); else lines[lines.length - 1].push(b); }
      let utf8Lines = 0, otherLines = 0;
      for (const l of lines) {
        if (!l.some((b) => b >= 0x80)) continue;
        try { fatal.decode(Uint8Array.from(l)); utf8Lines++; } catch { otherLines++; }
      }
      const s = new EncodingSniffer();
      for (let at = 0; at < bytes.length;) { const n = 1 + Math.floor(r() * 3); s.push(bytes.subarray(at, at + n)); at += n; }
      expect(s.verdict(), Array.from(bytes, (b) => b.toString(16)).join(' ')).toMatchObject({ utf8Lines, otherLines });
    }
  });

  it('counts a CRLF as one line break and a lone CR as one', () => {
    expect(sniffEncoding(latin1('a\r\nã\r\nb\rõ\n'))).toMatchObject({ otherLines: 2, firstOtherLine: 2, encoding: 'windows-1252' });
  });
});
