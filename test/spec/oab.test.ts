import { describe, expect, it } from 'vitest';
import { looksLikeOab, parseOab } from '../../src/spec/identifiers.js';

describe('OAB registrations normalise to <number><UF>[letter]', () => {
  it.each([
    ['123456SP', '123456SP'],
    ['SP123456', '123456SP'],
    ['DF0012345', '12345DF'],
    ['123.456/SP', '123456SP'],
    ['123456/sp', '123456SP'],
    ['OAB/SP 123.456', '123456SP'],
    ['oab-rj 98765', '98765RJ'],
    ['SP 0123456', '123456SP'],
    ['123456SPA', '123456SPA'],
    ['SP123456A', '123456SPA'],
    ['123.456/SP-b', '123456SPB'],
    ['  42mg ', '42MG'],
  ])('%s -> %s', (raw, key) => {
    const r = parseOab(raw);
    expect(r).toMatchObject({ ok: true, value: key });
  });

  it('splits number, UF and supplementary letter', () => {
    expect(parseOab('SP0123456A')).toEqual({ ok: true, number: '123456', uf: 'SP', letter: 'A', value: '123456SPA' });
    expect(parseOab('123456RS')).toEqual({ ok: true, number: '123456', uf: 'RS', value: '123456RS' });
  });

  it('rejects a state that is not a UF, naming it', () => {
    const r = parseOab('123456XX');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain('XX');
  });

  it('rejects a zero number, too many digits, and text without a state', () => {
    expect(parseOab('SP000000').ok).toBe(false);
    expect(parseOab('1234567SP').ok).toBe(false);
    expect(parseOab('123456').ok).toBe(false);
    expect(parseOab('SP').ok).toBe(false);
    expect(parseOab('12SP34').ok).toBe(false);
  });

  it('recognises the shape for inference whatever the UF', () => {
    expect(looksLikeOab('123456XX')).toBe(true);
    expect(looksLikeOab('SP123456')).toBe(true);
    expect(looksLikeOab('Maria Silva')).toBe(false);
    expect(looksLikeOab('09206529722')).toBe(false);
  });
});
