// CNJ lawsuit numbers `NNNNNNN-DD.AAAA.J.TR.OOOO` (CNJ Resolution 65/2008): ISO 7064 mod 97-10 check digits
// per REFERENCE.md; the normal form is the punctuated one, the form the API gives a lawsuit's `code`.
import { fail, stripPunctuation, type Parsed } from './parsed.js';

/** A decimal string modulo 97, digit by digit: 20-digit CNJ numbers exceed 2^53. */
function mod97(digits: string): number {
  let r = 0;
  for (let i = 0; i < digits.length; i++) r = (r * 10 + (digits.charCodeAt(i) - 48)) % 97;
  return r;
}

/**
 * The CNJ check digits DD of the 18 other digits, given in the number's own order NNNNNNN AAAA J TR OOOO
 * (the 20-digit number without its DD).
 */
function cnjCheckDigits(base18: string): string {
  if (!/^\d{18}$/.test(base18)) throw new RangeError('a CNJ number without its check digits is 18 digits');
  return String(98 - mod97(`${base18}00`)).padStart(2, '0');
}

/** 20 digits -> `NNNNNNN-DD.AAAA.J.TR.OOOO`. */
function formatCnj(digits20: string): string {
  if (!/^\d{20}$/.test(digits20)) throw new RangeError('a CNJ number is 20 digits');
  const d = digits20;
  return `${d.slice(0, 7)}-${d.slice(7, 9)}.${d.slice(9, 13)}.${d.slice(13, 14)}.${d.slice(14, 16)}.${d.slice(16, 20)}`;
}

/** The CNJ number in its normal (punctuated) form, or what is wrong with it. */
export function parseCnj(text: string): Parsed {
  const c = stripPunctuation(text.trim());
  if (!/^\d+$/.test(c)) return fail('CNJ number has characters other than digits and punctuation');
  if (c.length !== 20) return fail(`CNJ number must have 20 digits, got ${c.length}`);
  const expected = cnjCheckDigits(c.slice(0, 7) + c.slice(9));
  if (expected !== c.slice(7, 9)) return fail(`CNJ check digits do not match (expected ${expected}, got ${c.slice(7, 9)})`);
  return { ok: true, value: formatCnj(c) };
}

/**
 * The normal form of text shaped like a CNJ number (20 digits, any punctuation), check digits not
 * considered; undefined for any other shape. A payload's code with a wrong DD keeps one key all the same.
 */
export function cnjShape(text: string): string | undefined {
  const t = text.trim();
  if (!/^[\d\s./-]+$/.test(t)) return undefined;
  const c = stripPunctuation(t);
  return c.length === 20 ? formatCnj(c) : undefined;
}
