// CPF (persons) and CNPJ (companies, numeric or alphanumeric): check digits per REFERENCE.md and one normal form
// each (CPF 11 digits; CNPJ 14 characters, letters upper case), whatever punctuation people write them with.
import { allSameChar, fail, stripPunctuation, type Parsed } from './parsed.js';

function mod11Digit(sum: number): number {
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The two CPF check digits of a 9-digit body, as a 2-character string. */
function cpfCheckDigits(body9: string): string {
  if (!/^\d{9}$/.test(body9)) throw new RangeError('a CPF body is 9 digits');
  const d = [...body9].map(Number);
  const d1 = mod11Digit(d.reduce((s, v, i) => s + v * (10 - i), 0));
  const d2 = mod11Digit([...d, d1].reduce((s, v, i) => s + v * (11 - i), 0));
  return `${d1}${d2}`;
}

const CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/**
 * The two CNPJ check digits of a 12-character body of [0-9A-Z] (alphanumeric CNPJ, issued since July 2026:
 * each character counts as its ASCII code minus 48, which leaves the numeric CNPJ unchanged).
 * Lower-case letters are read as upper case.
 */
function cnpjCheckDigits(body12: string): string {
  const body = body12.toUpperCase();
  if (!/^[0-9A-Z]{12}$/.test(body)) throw new RangeError('a CNPJ body is 12 characters of 0-9 or A-Z');
  const v = [...body].map((c) => c.charCodeAt(0) - 48);
  const d1 = mod11Digit(v.reduce((s, x, i) => s + x * CNPJ_W1[i], 0));
  const d2 = mod11Digit([...v, d1].reduce((s, x, i) => s + x * CNPJ_W2[i], 0));
  return `${d1}${d2}`;
}

/** The CPF in its normal form (11 digits), or what is wrong with it, in words for the person who typed it. */
export function parseCpf(text: string): Parsed {
  const c = stripPunctuation(text.trim());
  if (!/^\d+$/.test(c)) return fail('CPF has characters other than digits and punctuation');
  if (c.length !== 11) return fail(`CPF must have 11 digits, got ${c.length}`);
  if (allSameChar(c)) return fail('CPF with all digits equal is not a valid CPF');
  const expected = cpfCheckDigits(c.slice(0, 9));
  if (expected !== c.slice(9)) return fail(`CPF check digits do not match (expected ${expected}, got ${c.slice(9)})`);
  return { ok: true, value: c };
}

/** The CNPJ in its normal form (14 characters, letters upper case), or what is wrong with it. */
export function parseCnpj(text: string): Parsed {
  const c = stripPunctuation(text.trim()).toUpperCase();
  if (!/^[0-9A-Z]+$/.test(c)) return fail('CNPJ has characters other than letters, digits and punctuation');
  if (c.length !== 14) return fail(`CNPJ must have 14 characters, got ${c.length}`);
  if (!/\d{2}$/.test(c)) return fail('CNPJ must end in two check digits');
  if (allSameChar(c)) return fail('CNPJ with all digits equal is not a valid CNPJ');
  const expected = cnpjCheckDigits(c.slice(0, 12));
  if (expected !== c.slice(12)) return fail(`CNPJ check digits do not match (expected ${expected}, got ${c.slice(12)})`);
  return { ok: true, value: c };
}

/**
 * The normal form of text shaped like a CPF (11 digits) or a CNPJ (12 of [0-9A-Z] then 2 digits), whatever
 * its punctuation and letter case, check digits not considered; undefined for any other shape. Shape, not
 * validity: a payload's mistyped CPF is still stored in the one form, so it can be compared and corrected.
 */
export function documentShape(text: string): string | undefined {
  const t = text.trim();
  if (!/^[0-9A-Za-z\s./-]+$/.test(t)) return undefined;
  const c = stripPunctuation(t).toUpperCase();
  return /^\d{11}$/.test(c) || /^[0-9A-Z]{12}\d{2}$/.test(c) ? c : undefined;
}
