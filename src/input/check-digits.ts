// Check digits of Brazilian identifiers (REFERENCE.md). Everything here is pure and works on compact keys
// (punctuation already removed) unless the function says otherwise, so the reader can tell a shape problem
// from a check-digit problem and name the expected digits in its rejection reason.

/** Separators users type in punctuated keys: `092.065.297-22`, `12.ABC.345/01DE-35`, `0710802-55.2018.8.02.0001`. */
const PUNCTUATION = /[\s./-]/g;

/** Remove the separators of punctuated keys; other characters are kept so that shape checks can still see them. */
export function stripPunctuation(key: string): string {
  return key.replace(PUNCTUATION, '');
}

function allSameChar(s: string): boolean {
  return s.length > 0 && [...s].every((c) => c === s[0]);
}

function mod11Digit(sum: number): number {
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The two CPF check digits of a 9-digit body, as a 2-character string. */
export function cpfCheckDigits(body9: string): string {
  if (!/^\d{9}$/.test(body9)) throw new RangeError('a CPF body is 9 digits');
  const d = [...body9].map(Number);
  const d1 = mod11Digit(d.reduce((s, v, i) => s + v * (10 - i), 0));
  const d2 = mod11Digit([...d, d1].reduce((s, v, i) => s + v * (11 - i), 0));
  return `${d1}${d2}`;
}

/** True for an 11-digit CPF (punctuation allowed) whose check digits match; all-equal digits are never valid. */
export function isValidCpf(key: string): boolean {
  const c = stripPunctuation(key);
  if (!/^\d{11}$/.test(c) || allSameChar(c)) return false;
  return cpfCheckDigits(c.slice(0, 9)) === c.slice(9);
}

const CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/**
 * The two CNPJ check digits of a 12-character body of [0-9A-Z] (alphanumeric CNPJ, issued since July 2026:
 * each character counts as its ASCII code minus 48, which leaves the numeric CNPJ unchanged).
 * Lower-case letters are accepted and read as upper case.
 */
export function cnpjCheckDigits(body12: string): string {
  const body = body12.toUpperCase();
  if (!/^[0-9A-Z]{12}$/.test(body)) throw new RangeError('a CNPJ body is 12 characters of 0-9 or A-Z');
  const v = [...body].map((c) => c.charCodeAt(0) - 48);
  const d1 = mod11Digit(v.reduce((s, x, i) => s + x * CNPJ_W1[i], 0));
  const d2 = mod11Digit([...v, d1].reduce((s, x, i) => s + x * CNPJ_W2[i], 0));
  return `${d1}${d2}`;
}

/** True for a 14-character CNPJ (numeric or alphanumeric, any letter case, punctuation allowed) whose check digits match. */
export function isValidCnpj(key: string): boolean {
  const c = stripPunctuation(key).toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(c) || allSameChar(c)) return false;
  return cnpjCheckDigits(c.slice(0, 12)) === c.slice(12);
}

/** A decimal string modulo 97, digit by digit: 20-digit CNJ numbers exceed 2^53. */
function mod97(digits: string): number {
  let r = 0;
  for (let i = 0; i < digits.length; i++) r = (r * 10 + (digits.charCodeAt(i) - 48)) % 97;
  return r;
}

/**
 * The CNJ check digits DD (ISO 7064 mod 97-10) of the 18 other digits, given in the number's own order
 * NNNNNNN AAAA J TR OOOO (that is, the 20-digit number without its DD).
 */
export function cnjCheckDigits(base18: string): string {
  if (!/^\d{18}$/.test(base18)) throw new RangeError('a CNJ number without its check digits is 18 digits');
  return String(98 - mod97(`${base18}00`)).padStart(2, '0');
}

/** True for a CNJ number, 20 digits or punctuated (NNNNNNN-DD.AAAA.J.TR.OOOO), whose check digits match. */
export function isValidCnj(key: string): boolean {
  const c = stripPunctuation(key);
  if (!/^\d{20}$/.test(c)) return false;
  // Valid when N7 AAAA J TR OOOO DD, read as one number, is 1 mod 97.
  return mod97(c.slice(0, 7) + c.slice(9) + c.slice(7, 9)) === 1;
}

/** The 18 digits a CNJ number's DD is computed from (its 20 digits without DD). */
export function cnjBase(digits20: string): string {
  return digits20.slice(0, 7) + digits20.slice(9);
}

/** 20 digits -> `NNNNNNN-DD.AAAA.J.TR.OOOO`, the form the API uses for a lawsuit's `code`. */
export function formatCnj(digits20: string): string {
  if (!/^\d{20}$/.test(digits20)) throw new RangeError('a CNJ number is 20 digits');
  const d = digits20;
  return `${d.slice(0, 7)}-${d.slice(7, 9)}.${d.slice(9, 13)}.${d.slice(13, 14)}.${d.slice(14, 16)}.${d.slice(16, 20)}`;
}
