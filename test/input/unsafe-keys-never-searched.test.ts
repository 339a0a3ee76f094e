import { describe, expect, it } from 'vitest';
import { parseDocuments } from '../../src/input/documents.js';
import { normaliseKey } from '../../src/input/normalise.js';

// Issue 11: names with NULs or a leading `=` were submitted as paid searches. A key with a control or
// invisible character, or a name with a spreadsheet formula prefix, is rejected before it costs a call;
// whitespace around a key is trimmed and inside a name it is spacing; a label is neutralised, not refused.
const quote = (key: string) => `"${key.replaceAll('"', '""')}"`;
const csvLine = (key: string) => `${quote(key)},x`;

describe('keys that must not be searched', () => {
  it.each([
    ['Maria\u0000Silva', 'a NUL character (U+0000) at character 6'],
    ['Maria Silva\u0000', 'a NUL character (U+0000) at character 12'],
    ['Maria \u001b[31mSilva', 'the control character U+001B at character 7'],
    ['Maria\u007fSilva', 'the control character U+007F at character 6'],
    ['Maria\u0085Silva', 'the control character U+0085 at character 6'],
    ['Maria\u200bSilva', 'the invisible character U+200B at character 6'],
    ['Maria Silva\u202e', 'the invisible character U+202E at character 12'],
    ['Maria\u00adSilva', 'the invisible character U+00AD at character 6'],
    ['Jo\ufffdo Silva', 'U+FFFD, the mark of a character lost'],
    ['092.065.297-22\u0000', 'a NUL character (U+0000) at character 15'],
  ])('%j: %s', (key, why) => {
    const list = parseDocuments(`search_key,label\n${csvLine(key)}\nMaria Souza,ok\n`);
    expect(list.documents.map((d) => d.searchKey)).toEqual(['Maria Souza']);
    expect(list.rejected).toHaveLength(1);
    expect(list.rejected[0].reason).toContain(`search_key contains ${why}`);
    expect(list.rejected[0].reason).toMatch(/: remove it$/);
  });

  it.each(['=HYPERLINK("http://x","Maria")', '+55 Maria', '-Maria Silva', '@SUM(A1)', '\t=1+1', '\r=cmd|calc', ' =Maria'])(
    'a name with a formula prefix: %j', (key) => {
      for (const typed of [true, false]) {
        const list = parseDocuments(`search_key,search_type\n${quote(key)},${typed ? 'name' : ''}\n`);
        expect(list.documents).toEqual([]);
        expect(list.rejected[0].reason).toMatch(/starts with "[=+\-@]", as a spreadsheet formula does/);
      }
    });

  it('whitespace controls around a key are trimmed, and inside a name are one space', () => {
    const list = parseDocuments(`search_key,search_type\n"\tMaria\r\n da\tSilva\r",name\n\t092.065.297-22\t,\n`);
    expect(list.rejected).toEqual([]);
    expect(list.documents.map((d) => d.searchKey)).toEqual(['Maria da Silva', '09206529722']);
  });

  it('other keys cannot carry a formula: they are read by their shape', () => {
    expect(normaliseKey('cpf', '=09206529722')).toMatchObject({ ok: false });
    expect(normaliseKey('oab', '@123456SP')).toMatchObject({ ok: false });
    expect(normaliseKey('lawsuit_cnj', '+0710802-55.2018.8.02.0001')).toMatchObject({ ok: false });
  });

  it('the same rules hold for keys read back from the API (tracking records), which go through normaliseKey', () => {
    expect(normaliseKey('name', 'Maria\u0000Silva')).toMatchObject({ ok: false, reason: expect.stringContaining('NUL') });
    expect(normaliseKey('name', '=Maria')).toMatchObject({ ok: false });
    expect(normaliseKey('name', 'Maria da Silva')).toEqual({ ok: true, key: 'Maria da Silva' });
  });

  it('a name longer than 300 characters is not searched', () => {
    const long = `Maria ${'da Silva '.repeat(40)}`.trim();
    const list = parseDocuments(`search_key\n${long}\n`);
    expect(list.rejected[0].reason).toBe(`name has ${long.length} characters, more than the 300 a name searched may have`);
  });
});

describe('text shown back to people', () => {
  it('a label has its control and invisible characters replaced by spaces, and the line is searched', () => {
    const list = parseDocuments('search_key,label\nMaria Silva,"client\u0000 \u001b[2J\u200bA\r\n(VIP)"\n');
    expect(list.documents).toMatchObject([{ searchKey: 'Maria Silva', label: 'client   [2J A (VIP)' }]);
  });

  it('a reason quotes a value escaped and cut to 40 characters: no terminal escape, no megabyte reasons', () => {
    const list = parseDocuments(`search_key,search_type,on_demand\nMaria Silva,${'\u001b[2J'.repeat(5000)},x\u0007\n`);
    const reason = list.rejected[0].reason;
    expect(reason).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(reason).toContain('unknown search_type "\\u{1B}[2J\\u{1B}[2J');
    expect(reason).toContain('…"');
    expect(reason).toContain('on_demand "x\\u{7}" is not');
    expect(reason.length).toBeLessThan(400);
  });

  it('a header without search_key is named with its columns quoted safely', () => {
    expect(() => parseDocuments(`cpf\u001b,${'x'.repeat(1000)}\n1\n`)).toThrow(expect.objectContaining({
      code: 'INPUT_NO_SEARCH_KEY', message: expect.stringMatching(/found: "cpf\\u\{1B\}", "x{40}…"\)$/),
    }));
  });
});

describe('many bad lines', () => {
  it('1,000 bad lines and one good one: the good one is the list\'s one search', () => {
    const bad = Array.from({ length: 1000 }, (_, i) => (i % 2 ? `=cmd|' /C calc'!A${i}` : `Maria\u0000${i}`));
    const list = parseDocuments(`search_key\n${bad.join('\n')}\n092.065.297-22\n`);
    expect(list.rejected).toHaveLength(1000);
    expect(list.documents).toMatchObject([{ line: 1002, searchKey: '09206529722' }]);
  });
});
