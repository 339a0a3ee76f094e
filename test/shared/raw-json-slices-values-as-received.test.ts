import { describe, expect, test } from 'vitest';
import { arrayElements, objectMembers, pageDataElements, rawTextOf, rememberRawText, skipValue } from '../../src/shared/raw-json.js';
import { parseResponsesPage } from '../../src/api/responses.js';

// The scanner that keeps the service's bytes (src/shared/raw-json.ts): each slice is exactly the text of one
// value, whatever the strings, spacing and nesting around it.

/** A deterministic random JSON text with irregular spacing, and the value it stands for. */
function randomJson(seed: number, depth = 0): string {
  let s = seed;
  const next = (): number => { s = (s * 1103515245 + 12345) % 2 ** 31; return s / 2 ** 31; };
  const sp = (): string => [' ', '', '\n', '\t ', ''][Math.floor(next() * 5)];
  const str = (): string => JSON.stringify(['a', 'q"uote', 'back\\slash\\', '{[,:]}', 'ünï€😀', '', '\\"', 'x'.repeat(40)][Math.floor(next() * 8)]);
  const value = (d: number): string => {
    const k = Math.floor(next() * (d > 4 ? 4 : 6));
    if (k === 0) return str();
    if (k === 1) return ['0', '-1.5e-7', '9007199254740993', '1e400', '123456789012345678901234567890'][Math.floor(next() * 5)];
    if (k === 2) return ['true', 'false', 'null'][Math.floor(next() * 3)];
    if (k === 3) return `${sp()}"lit"${sp()}`.trim();
    if (k === 4) return `[${sp()}${Array.from({ length: Math.floor(next() * 4) }, () => `${sp()}${value(d + 1)}${sp()}`).join(',')}]`;
    return `{${sp()}${Array.from({ length: Math.floor(next() * 4) }, () => `${sp()}${str()}${sp()}:${sp()}${value(d + 1)}${sp()}`).join(',')}}`;
  };
  return `{${Array.from({ length: 6 }, (_, i) => `${sp()}"k${i}"${sp()}:${sp()}${value(depth)}${sp()}`).join(',')}${sp()}}`;
}

describe('objectMembers and arrayElements', () => {
  test('each slice parses to the value JSON.parse gives for it, over 300 random texts', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomJson(seed);
      const whole = JSON.parse(text) as Record<string, unknown>;
      const members = objectMembers(text)!;
      expect([...members.keys()], text).toEqual(Object.keys(whole));
      for (const [k, raw] of members) {
        expect(raw, text).toBe(raw.trim());
        expect(JSON.parse(raw), text).toEqual(whole[k]);
        if (raw.startsWith('[')) expect(arrayElements(raw)!.map((e) => JSON.parse(e))).toEqual(whole[k]);
      }
    }
  });

  test('numbers are kept digit for digit, where JSON.parse changes them', () => {
    const text = '{"a": 9007199254740993, "b": 1e400, "c": [0.1000000000000000055511151231257827, -0]}';
    expect(objectMembers(text)!.get('a')).toBe('9007199254740993');
    expect(objectMembers(text)!.get('b')).toBe('1e400');
    expect(arrayElements(objectMembers(text)!.get('c')!)).toEqual(['0.1000000000000000055511151231257827', '-0']);
  });

  test('escaped keys, repeated keys (the last wins, as in JSON.parse), empty containers', () => {
    const m = objectMembers('{"a\\u0062":1,"x":[],"x":{} ,"e":""}')!;
    expect([...m.entries()]).toEqual([['ab', '1'], ['x', '{}'], ['e', '""']]);
    expect(objectMembers('{}')).toEqual(new Map());
    expect(arrayElements(' [ ] ')).toEqual([]);
  });

  test('any depth, without recursion', () => {
    const deep = `{"d":${'['.repeat(200_000)}${']'.repeat(200_000)},"z":1}`;
    expect(objectMembers(deep)!.get('z')).toBe('1');
    expect(skipValue(deep, 5)).toBe(5 + 400_000);
  });

  test('what is not an object or an array, or is cut short, gives undefined rather than a wrong slice', () => {
    expect(objectMembers('[1]')).toBeUndefined();
    expect(arrayElements('{"a":1}')).toBeUndefined();
    expect(objectMembers('{"a":"unterminated}')).toBeUndefined();
    expect(arrayElements('[1,{"a":[2]')).toBeUndefined();
  });
});

describe('responses pages', () => {
  test('each item and its response_data remember their text; the types are the parsed ones', () => {
    const text = '{"page":1,"page_count":2,"all_pages_count":1,"all_count":2,"request_status":"completed","page_data":[\n'
      + ' {"response_id":"r1","request_id":"q","response_type":"lawsuit","response_data":{"code":"c","instance":1,"n":9007199254740993}},\n'
      + ' {"response_id":"r2","request_id":"q","response_type":"application_error","response_data":{"code":2,"message":"LAWSUIT_NOT_FOUND"}}]}';
    const page = parseResponsesPage(text);
    const raws = pageDataElements(text)!;
    expect(page.items.map((i) => rawTextOf(i))).toEqual(raws);
    expect(rawTextOf(page.items[0].response_data)).toBe('{"code":"c","instance":1,"n":9007199254740993}');
    expect((page.items[0].response_data as unknown as { n: number }).n).toBe(9007199254740992);
    expect(page.requestStatus).toBe('completed');
  });

  test('values built here have no raw text, and remembering one does not change the value', () => {
    const v = { a: 1 };
    expect(rawTextOf(v)).toBeUndefined();
    expect(rememberRawText(v, '{"a":1.0}')).toBe(v);
    expect(rawTextOf(v)).toBe('{"a":1.0}');
    expect(rawTextOf('text')).toBeUndefined();
  });
});
