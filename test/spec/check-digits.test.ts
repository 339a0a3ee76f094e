import { describe, expect, it } from 'vitest';
import { rng } from '../support/random.js';
import { parseCnj, parseCnpj, parseCpf } from '../../src/spec/identifiers.js';

// Whether the one identifiers module accepts a value: what its parse says; and the check digits it expects: what
// its parse says of a number whose digits are wrong (the module computes them for nothing else).
const isValidCpf = (text: string): boolean => parseCpf(text).ok;
const isValidCnpj = (text: string): boolean => parseCnpj(text).ok;
const isValidCnj = (text: string): boolean => parseCnj(text).ok;
const expectedDigits = (parsed: ReturnType<typeof parseCpf>): string | undefined =>
  (parsed.ok ? undefined : /check digits do not match \(expected (\w\w),/.exec(parsed.reason)?.[1]);

const DIGITS = '0123456789';
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const pick = (r: () => number, alphabet: string, len: number) =>
  Array.from({ length: len }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
const replaceAt = (s: string, i: number, ch: string) => s.slice(0, i) + ch + s.slice(i + 1);

// Independent oracles, written the way the textbooks give the algorithms (not the way the module does).
function oracleCpfDigits(body9: string): string {
  const n = [...body9].map(Number);
  const dv = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += n[i] * (len + 1 - i);
    return ((sum * 10) % 11) % 10;
  };
  n.push(dv(9));
  n.push(dv(10));
  return `${n[9]}${n[10]}`;
}
const oracleCpf = (d11: string): boolean => /^\d{11}$/.test(d11) && new Set(d11).size > 1 && oracleCpfDigits(d11.slice(0, 9)) === d11.slice(9);
function oracleCnpjDigits(body12: string): string {
  const v = [...body12.toUpperCase()].map((c) => c.charCodeAt(0) - 48);
  const dv = (len: number) => {
    let sum = 0, w = len - 7; // weights run down from len-7 to 2, then wrap 9..2
    for (let i = 0; i < len; i++) { sum += v[i] * w; w = w === 2 ? 9 : w - 1; }
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  v.push(dv(12));
  v.push(dv(13));
  return `${v[12]}${v[13]}`;
}
const oracleCnpj = (c14: string): boolean => /^[0-9A-Z]{12}\d\d$/.test(c14) && oracleCnpjDigits(c14.slice(0, 12)) === c14.slice(12);
/** ISO 7064 mod 97-10 over the 18 digits in the number's own order, in BigInt arithmetic (the module goes digit by digit). */
const oracleCnjDigits = (base18: string): string => String(98n - (BigInt(`${base18}00`) % 97n)).padStart(2, '0');

describe('CNJ numbers', () => {
  it('accepts the REFERENCE.md valid numbers, punctuated or digits only', () => {
    expect(isValidCnj('0710802-55.2018.8.02.0001')).toBe(true);
    expect(isValidCnj('5059111-78.2025.4.02.5101')).toBe(true);
    expect(isValidCnj('07108025520188020001')).toBe(true);
  });
  it('rejects the well-known doc example whose right DD is 08', () => {
    expect(isValidCnj('0001234-55.2023.8.26.0100')).toBe(false);
    expect(expectedDigits(parseCnj('0001234-55.2023.8.26.0100'))).toBe('08');
    expect(oracleCnjDigits('000123420238260100')).toBe('08');
    expect(isValidCnj('0001234-08.2023.8.26.0100')).toBe(true);
  });
  it('computes the DD of the valid examples', () => {
    expect(expectedDigits(parseCnj('0710802-00.2018.8.02.0001'))).toBe('55');
    expect(expectedDigits(parseCnj('5059111-00.2025.4.02.5101'))).toBe('78');
    expect([oracleCnjDigits('071080220188020001'), oracleCnjDigits('505911120254025101')]).toEqual(['55', '78']);
  });
  it('rejects wrong lengths and letters', () => {
    expect(isValidCnj('0710802-55.2018.8.02.000')).toBe(false);
    expect(isValidCnj('0710802-55.2018.8.02.00011')).toBe(false);
    expect(isValidCnj('0710802-55.2018.8.O2.0001')).toBe(false);
  });
  it('gives 20 digits as NNNNNNN-DD.AAAA.J.TR.OOOO', () => {
    expect(parseCnj('07108025520188020001')).toEqual({ ok: true, value: '0710802-55.2018.8.02.0001' });
  });
  it('property: digits the oracle computes validate, and any single-digit change is caught (mod 97-10)', () => {
    const r = rng(97);
    for (let k = 0; k < 300; k++) {
      const base = pick(r, DIGITS, 18);
      const dd = oracleCnjDigits(base);
      const full = base.slice(0, 7) + dd + base.slice(7);
      expect(isValidCnj(full)).toBe(true);
      const punctuated = parseCnj(full);
      expect(punctuated.ok && isValidCnj(punctuated.value)).toBe(true);
      for (let i = 0; i < 20; i++) {
        for (const ch of DIGITS) if (ch !== full[i]) expect(isValidCnj(replaceAt(full, i, ch)), `${full} @${i}=${ch}`).toBe(false);
      }
    }
  });
});

describe('CPF', () => {
  it('accepts the REFERENCE.md example, punctuated or not', () => {
    expect(isValidCpf('092.065.297-22')).toBe(true);
    expect(isValidCpf('09206529722')).toBe(true);
    expect(expectedDigits(parseCpf('092.065.297-00'))).toBe('22');
    expect(oracleCpfDigits('092065297')).toBe('22');
  });
  it('rejects all-equal digits even though their digits compute', () => {
    for (const d of DIGITS) expect(isValidCpf(d.repeat(11))).toBe(false);
  });
  it('rejects wrong check digits, lengths and letters', () => {
    expect(isValidCpf('092.065.297-23')).toBe(false);
    expect(isValidCpf('0920652972')).toBe(false);
    expect(isValidCpf('0920652972a')).toBe(false);
  });
  it('property: digits the oracle computes validate; any check-digit change fails; body changes agree with the oracle', () => {
    const r = rng(11);
    let altered = 0, caught = 0;
    for (let k = 0; k < 400; k++) {
      const body = pick(r, DIGITS, 9);
      const full = body + oracleCpfDigits(body);
      if (new Set(full).size === 1) continue;
      expect(isValidCpf(full)).toBe(true);
      for (let i = 0; i < 11; i++) {
        for (const ch of DIGITS) {
          if (ch === full[i]) continue;
          const alt = replaceAt(full, i, ch);
          const valid = isValidCpf(alt);
          expect(valid, alt).toBe(oracleCpf(alt));
          if (i >= 9) expect(valid, alt).toBe(false);
          altered++;
          if (!valid) caught++;
        }
      }
    }
    // Mod 11 maps remainders 0 and 1 to the same digit, so a few body changes go unseen; nearly all are caught.
    expect(caught / altered).toBeGreaterThan(0.99);
  });
});

describe('CNPJ, numeric and alphanumeric', () => {
  it('computes the REFERENCE.md alphanumeric examples', () => {
    expect(expectedDigits(parseCnpj('12ABC34501DE00'))).toBe('35');
    expect(expectedDigits(parseCnpj('A1B2C3D4E5F600'))).toBe('68');
    expect([oracleCnpjDigits('12ABC34501DE'), oracleCnpjDigits('A1B2C3D4E5F6')]).toEqual(['35', '68']);
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('A1B2C3D4E5F668')).toBe(true);
  });
  it('reads letters case-insensitively', () => {
    expect(expectedDigits(parseCnpj('12abc34501de00'))).toBe('35');
    expect(isValidCnpj('12.abc.345/01de-35')).toBe(true);
  });
  it('validates a numeric CNPJ the classic way', () => {
    // 11.222.333/0001-81 is the usual textbook example.
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11222333000182')).toBe(false);
  });
  it('rejects letters in the check digits, wrong lengths and all-equal digits', () => {
    expect(isValidCnpj('12ABC34501DE3A')).toBe(false);
    expect(isValidCnpj('12ABC34501DE355')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
  });
  it('property: digits the oracle computes validate; any check-digit change fails; body changes agree with the oracle', () => {
    const r = rng(14);
    for (let k = 0; k < 200; k++) {
      const body = pick(r, k % 2 ? ALNUM : DIGITS, 12);
      const full = body + oracleCnpjDigits(body);
      expect(isValidCnpj(full), full).toBe(true);
      for (let i = 0; i < 14; i++) {
        for (const ch of i < 12 ? ALNUM : DIGITS) {
          if (ch === full[i]) continue;
          const alt = replaceAt(full, i, ch);
          expect(isValidCnpj(alt), alt).toBe(oracleCnpj(alt));
          if (i >= 12) expect(isValidCnpj(alt), alt).toBe(false);
        }
      }
    }
  });
});
