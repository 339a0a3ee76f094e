import { describe, expect, it } from 'vitest';
import { parseDocuments } from '../../src/input/documents.js';
import { parseCsv } from '../support/csv.js';
import { exitCodeOfError } from '../support/exit.js';

// A line is at most 64 KiB: longer ones are rejected with their line number and length as they stream past,
// and the lines after them are read. The 50 MB case under the real heap budget is in fifty-megabyte-line.test.ts.
const enc = (s: string) => new TextEncoder().encode(s);

// The limits as docs/dialect-and-spec-gaps.md gives them ("Documents list: line length").
const LINE_LIMIT = 64 * 1024;
const VALUE_KEPT = 500;

describe('an over-long line', () => {
  it('is rejected with its line number, its length and the start of its text; the rest of the list runs', () => {
    const long = `Maria ${'da Silva '.repeat(30_000)}`; // 270,006 bytes, a name in shape
    const list = parseDocuments(enc(`search_key,label\n092.065.297-22,a\n${long},x\n11.222.333/0001-81,b\n`));
    expect(list.documents.map((d) => [d.line, d.searchKey])).toEqual([[2, '09206529722'], [4, '11222333000181']]);
    expect(list.rejected).toHaveLength(1);
    const r = list.rejected[0];
    expect(r.line).toBe(3);
    expect(r.reason).toBe(`line is ${(long.length + 2).toLocaleString('en-US')} bytes long, more than the 65,536 bytes a line may have: shorten or split it`);
    expect(r.value).toHaveLength(VALUE_KEPT);
    expect(long.startsWith(r.value)).toBe(true);
  });

  it('ends exactly at the limit: 64 KiB is read, one byte more is rejected', () => {
    const key = '092.065.297-22,';
    const fits = key + 'x'.repeat(LINE_LIMIT - key.length);
    const over = fits + 'x';
    const list = parseDocuments(`search_key,label\n${fits}\n${over}\n${fits}\r\n${over}\r\n`);
    expect(list.documents.map((d) => d.line)).toEqual([2]);
    expect(list.duplicates.map((d) => d.line)).toEqual([4]);
    expect(list.rejected.map((r) => [r.line, r.reason.slice(0, 26)])).toEqual([[3, 'line is 65,537 bytes long,'], [5, 'line is 65,537 bytes long,']]);
  });

  it('is counted to its end when the file ends without a line break', () => {
    const items = parseCsv(`k\n${'y'.repeat(100_000)}`, { maxRecordBytes: 1000 });
    expect(items.map((i) => [i.kind, i.line])).toEqual([['record', 1], ['error', 2]]);
    expect(items[1].kind === 'error' && items[1].reason).toMatch(/^line is 100,000 bytes long/);
  });

  it('a quoted field running over the limit across lines rejects its first line and re-reads the ones after', () => {
    // A stray quote on line 2 and no closing one within the limit: the lines after it are still searched.
    const rows = Array.from({ length: 40 }, (_, i) => `${i + 1}SP,row ${i}`);
    const items = parseCsv(`search_key,label\n"092.065.297-22,stray\n${rows.join('\n')}\n"tail`, { maxRecordBytes: 200 });
    expect(items[1]).toMatchObject({ kind: 'error', line: 2, raw: '"092.065.297-22,stray' });
    expect(items[1].kind === 'error' && items[1].reason).toMatch(/runs over 200 bytes.*quote opened on line 2/);
    expect(items.filter((i) => i.kind === 'record').map((i) => i.line)).toEqual([1, ...rows.map((_, i) => i + 3)]);
  });

  it('an over-long header is a configuration error naming the line and the length', () => {
    const err = (() => { try { parseDocuments(`search_key,${'c'.repeat(70_000)}\n092.065.297-22\n`); } catch (e) { return e; } })();
    expect(err).toEqual(expect.objectContaining({ code: 'INPUT_BAD_HEADER', message: expect.stringMatching(/line 1 cannot be read: line is 70,011 bytes long/) }));
    expect(exitCodeOfError(err)).toBe(2);
  });
});
