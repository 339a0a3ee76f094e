// OAB (Brazilian bar) registrations come written many ways: `123456SP`, `SP123456`, `DF0012345`,
// `123.456/SP`, `OAB/SP 123.456`, `OAB/SP nº 123.456`, with an optional supplementary letter (`123456SPA`,
// `SP123456A`). One normal form (README, "Spec gaps"): `<number without leading zeros><UF>[letter]`.
import { fail, quoted } from './parsed.js';
import { isUf, type Uf } from './uf.js';

interface Oab {
  /** The registration number without leading zeros, 1 to 6 digits. */
  number: string;
  uf: Uf;
  /** The supplementary registration's letter, when there is one. */
  letter?: string;
  /** The normal form `<number><UF>[letter]`. */
  value: string;
}
type OabResult = ({ ok: true } & Oab) | { ok: false; reason: string };

// Numbers are up to 6 significant digits, often zero-padded to 7; one more pad digit is tolerated.
const UF_FIRST = /^([A-Z]{2})(\d{1,8})([A-Z])?$/;
const NUMBER_FIRST = /^(\d{1,8})([A-Z]{2})([A-Z])?$/;

function compact(text: string): string {
  // `OAB/SP 123.456`, `OAB-SP nº 123456`: the prefix and the "number" sign are decoration, not the key.
  return text.trim().toUpperCase()
    .replace(/^OAB[\s/:-]*/, '')
    .replace(/N[º°]/g, '')
    .replace(/[\s./:-]/g, '');
}

/** True when the text has the shape of an OAB registration, whatever its UF (for search type inference). */
export function looksLikeOab(text: string): boolean {
  const c = compact(text);
  return UF_FIRST.test(c) || NUMBER_FIRST.test(c);
}

/** Parse an OAB registration into its parts and normal form; the reason says what is wrong otherwise. */
export function parseOab(text: string): OabResult {
  const c = compact(text);
  let uf: string, digits: string, letter: string | undefined;
  const a = UF_FIRST.exec(c);
  const b = a ? null : NUMBER_FIRST.exec(c);
  if (a) [, uf, digits, letter] = a;
  else if (b) [, digits, uf, letter] = b;
  else return fail(`OAB ${quoted(text.trim())} is not a number with its state (e.g. 123456SP or SP123456)`);
  if (!isUf(uf)) return fail(`OAB state "${uf}" is not a Brazilian UF`);
  const number = digits.replace(/^0+/, '');
  if (number === '') return fail('OAB number is zero');
  if (number.length > 6) return fail(`OAB number ${number} has more than 6 digits`);
  const value = `${number}${uf}${letter ?? ''}`;
  return letter ? { ok: true, number, uf, letter, value } : { ok: true, number, uf, value };
}
