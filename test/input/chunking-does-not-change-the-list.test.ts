import { describe, expect, it } from 'vitest';
import { rng } from '../support/random.js';
import { CsvReader, type CsvItem } from '../../src/input/csv.js';
import { parseCsv } from '../support/csv.js';

// The reader holds one record's window and streams the rest: what it reads must not depend on where the
// chunks of the file happen to break (inside a CRLF, a doubled quote, a UTF-8 character, an over-long line).

const enc = (s: string) => [...new TextEncoder().encode(s)];
const PIECES: number[][] = [
  enc('a'), enc('092'), enc(','), enc(';'), enc('"'), enc('""'), enc('\n'), enc('\r\n'), enc('\r'), enc(' '), enc('\t'),
  enc('é'), enc('🙂'), [0xe9], [0xc3], enc('x'.repeat(30)), enc('\n\n'), [0xef, 0xbb, 0xbf],
];

function randomDocument(r: () => number): Uint8Array {
  const out: number[] = [];
  const n = 1 + Math.floor(r() * 60);
  for (let i = 0; i < n; i++) out.push(...PIECES[Math.floor(r() * PIECES.length)]);
  return new Uint8Array(out);
}

function streamed(bytes: Uint8Array, sizes: () => number, maxRecordBytes: number): CsvItem[] {
  const reader = new CsvReader({ maxRecordBytes });
  const items: CsvItem[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = Math.max(1, sizes());
    // A fresh copy per chunk, then overwritten: the reader must not keep a view of a chunk it was given.
    const chunk = Buffer.from(bytes.subarray(at, at + size));
    items.push(...reader.push(chunk));
    chunk.fill(0x21);
    at += size;
  }
  items.push(...reader.end());
  return items;
}

describe('reading in chunks', () => {
  it('gives the same items as reading the whole file, for any chunk sizes (1,500 random files)', () => {
    const r = rng(2024);
    let overlong = 0;
    for (let k = 0; k < 1500; k++) {
      const bytes = randomDocument(r);
      const limit = 8 + Math.floor(r() * 80);
      const whole = parseCsv(bytes, { maxRecordBytes: limit });
      overlong += whole.filter((i) => i.kind === 'error' && i.reason.startsWith('line is')).length;
      for (const size of [1, 2, 3, 7]) expect(streamed(bytes, () => size, limit), `file ${k}, chunks of ${size}`).toEqual(whole);
      expect(streamed(bytes, () => Math.floor(r() * 40), limit), `file ${k}, random chunks`).toEqual(whole);
    }
    // The property covered the over-long path, not only short records.
    expect(overlong).toBeGreaterThan(100);
  });

  it('counts the lines of a file read one byte at a time the way a whole read does', () => {
    const text = 'k,l\r\n"a\r\nb",c\r\n\r\n' + 'z'.repeat(50) + '\r\nlast,1';
    const whole = parseCsv(text, { maxRecordBytes: 20 });
    expect(whole.map((i) => [i.kind, i.line])).toEqual([['record', 1], ['record', 2], ['error', 5], ['record', 6]]);
    expect(streamed(new TextEncoder().encode(text), () => 1, 20)).toEqual(whole);
  });
});
