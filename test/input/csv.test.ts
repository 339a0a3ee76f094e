import { describe, expect, it } from 'vitest';
import type { CsvItem } from '../../src/input/csv.js';
import { parseCsv } from '../support/csv.js';

const records = (items: CsvItem[]) => items.map((it) => (it.kind === 'record' ? [it.line, ...it.fields] : ['ERR', it.line]));
const enc = (s: string) => new TextEncoder().encode(s);

describe('CSV reading (RFC 4180 and the files people really save)', () => {
  it('reads plain records with their physical line numbers', () => {
    expect(records(parseCsv('a,b\n1,2\n3,4\n'))).toEqual([[1, 'a', 'b'], [2, '1', '2'], [3, '3', '4']]);
  });

  it('handles quoted fields with delimiters, doubled quotes and newlines', () => {
    const items = parseCsv('k,label\n"1,2","say ""hi"""\n"x","two\nlines"\nlast,one\n');
    expect(records(items)).toEqual([[1, 'k', 'label'], [2, '1,2', 'say "hi"'], [3, 'x', 'two\nlines'], [5, 'last', 'one']]);
  });

  it('keeps the raw text of a multi-line record', () => {
    const items = parseCsv('k\n"a\nb"\n');
    expect(items[1]).toMatchObject({ kind: 'record', line: 2, raw: '"a\nb"' });
  });

  it('reads CRLF and lone-CR line breaks, and a last line without a break', () => {
    expect(records(parseCsv('a,b\r\n1,"x\r\ny"\r\n3,4'))).toEqual([[1, 'a', 'b'], [2, '1', 'x\r\ny'], [4, '3', '4']]);
    expect(records(parseCsv('a\r1\r2'))).toEqual([[1, 'a'], [2, '1'], [3, '2']]);
  });

  it('skips a UTF-8 byte order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('search_key\n1\n')]);
    expect(records(parseCsv(bytes))).toEqual([[1, 'search_key'], [2, '1']]);
  });

  it('uses ; when the header does, and only then', () => {
    expect(records(parseCsv('a;b\n1,5;2\n'))).toEqual([[1, 'a', 'b'], [2, '1,5', '2']]);
    expect(records(parseCsv('a;b\n'))).toEqual([[1, 'a', 'b']]);
    expect(records(parseCsv('a,b;c\n'))).toEqual([[1, 'a', 'b;c']]);
    expect(records(parseCsv('"a;b",c\n'))).toEqual([[1, 'a;b', 'c']]);
    expect(records(parseCsv('"a,b";c\n'))).toEqual([[1, 'a,b', 'c']]);
    expect(records(parseCsv('a;b\n1;2\n', { delimiter: ',' }))).toEqual([[1, 'a;b'], [2, '1;2']]);
  });

  it('skips blank and whitespace-only lines but counts them', () => {
    expect(records(parseCsv('a\n\n  \n1\n\r\n2\n'))).toEqual([[1, 'a'], [4, '1'], [6, '2']]);
  });

  it('keeps empty fields', () => {
    expect(records(parseCsv('a,b,c\n,,\n1,,3\n'))).toEqual([[1, 'a', 'b', 'c'], [2, '', '', ''], [3, '1', '', '3']]);
  });

  it('tolerates spaces around a quoted field', () => {
    expect(records(parseCsv('a,b\n "x" , "y"\n'))).toEqual([[1, 'a', 'b'], [2, 'x', 'y']]);
  });

  it('rejects a quote inside an unquoted field, and only that record', () => {
    const items = parseCsv('a,b\n1,ab"c\n2,3\n');
    expect(items[1]).toMatchObject({ kind: 'error', line: 2, raw: '1,ab"c' });
    expect(items[1].kind === 'error' && items[1].reason).toMatch(/quote character inside an unquoted field/);
    expect(records(items)).toEqual([[1, 'a', 'b'], ['ERR', 2], [3, '2', '3']]);
  });

  it('rejects text after a closing quote and resumes on the next line', () => {
    const items = parseCsv('a\n"x"y\nok\n');
    expect(records(items)).toEqual([[1, 'a'], ['ERR', 2], [3, 'ok']]);
    expect(items[1].kind === 'error' && items[1].reason).toMatch(/after a closing quote/);
  });

  it('rejects an unterminated quote without swallowing the lines after it', () => {
    const items = parseCsv('a,b\n"1,2\n3,4\n5,6\n');
    expect(records(items)).toEqual([[1, 'a', 'b'], ['ERR', 2], [3, '3', '4'], [4, '5', '6']]);
    expect(items[1]).toMatchObject({ raw: '"1,2' });
    expect(items[1].kind === 'error' && items[1].reason).toMatch(/unterminated quoted field .*line 2/);
  });

  it('a stray quote that pairs with a later line rejects the first line and re-reads the rest', () => {
    const items = parseCsv('k,t\n"abc,cpf\n092,"x"\n');
    expect(records(items)).toEqual([[1, 'k', 't'], ['ERR', 2], [3, '092', 'x']]);
  });

  it('rejects a record that is not valid UTF-8 and reads the others', () => {
    const latin1 = new Uint8Array([...enc('name\n'), 0x4a, 0x6f, 0xe3, 0x6f, 0x0a, ...enc('Maria\n')]); // "João" in Latin-1
    const items = parseCsv(latin1);
    expect(records(items)).toEqual([[1, 'name'], ['ERR', 2], [3, 'Maria']]);
    expect(items[1]).toMatchObject({ kind: 'error', line: 2, reason: 'not valid UTF-8 (save the file as UTF-8)' });
    expect(items[1].kind === 'error' && items[1].raw).toBe('Jo\ufffdo');
  });

  it('reads multi-byte UTF-8 intact', () => {
    expect(records(parseCsv(enc('n\nJoão Ñandú 🙂\n')))).toEqual([[1, 'n'], [2, 'João Ñandú 🙂']]);
  });
});
