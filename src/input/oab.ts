// OAB (Brazilian bar) registrations come written many ways: `123456SP`, `SP123456`, `DF0012345`,
// `123.456/SP`, `OAB/SP 123.456`, with an optional supplementary letter (`123456SPA`, `SP123456A`).
// The search key is one form (README, "Spec gaps"): `<number without leading zeros><UF>[letter]`.

/** The 27 sections of the OAB, one per federative unit. */
export const UFS: ReadonlySet<string> = new Set([
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA',
  'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SE', 'SP', 'TO',
]);

export interface Oab { number: string; uf: string; letter?: string; key: string }
export type OabResult = ({ ok: true } & Oab) | { ok: false; reason: string };

// Numbers are up to 6 significant digits, often zero-padded to 7; we tolerate one more pad digit.
const UF_FIRST = /^([A-Z]{2})(\d{1,8})([A-Z])?$/;
const NUMBER_FIRST = /^(\d{1,8})([A-Z]{2})([A-Z])?$/;

function compact(raw: string): string {
  // `OAB/SP 123.456`, `OAB-SP 123456`: the prefix is decoration, not part of the key.
  return raw.trim().toUpperCase().replace(/^OAB[\s/:-]*/, '').replace(/[\s./:-]/g, '');
}

/** True when the text has the shape of an OAB registration (whatever its UF), for search type inference. */
export function looksLikeOab(raw: string): boolean {
  const c = compact(raw);
  return UF_FIRST.test(c) || NUMBER_FIRST.test(c);
}

/** Parse and normalise an OAB registration; the reason says what is wrong when it cannot be used. */
export function parseOab(raw: string): OabResult {
  const c = compact(raw);
  let uf: string, digits: string, letter: string | undefined;
  const a = UF_FIRST.exec(c);
  const b = a ? null : NUMBER_FIRST.exec(c);
  if (a) [, uf, digits, letter] = a;
  else if (b) [, digits, uf, letter] = b;
  else return { ok: false, reason: `OAB "${raw.trim()}" is not a number with its state (e.g. 123456SP or SP123456)` };
  if (!UFS.has(uf)) return { ok: false, reason: `OAB state "${uf}" is not a Brazilian UF` };
  const number = digits.replace(/^0+/, '');
  if (number === '') return { ok: false, reason: 'OAB number is zero' };
  if (number.length > 6) return { ok: false, reason: `OAB number ${number} has more than 6 digits` };
  const key = `${number}${uf}${letter ?? ''}`;
  return letter ? { ok: true, number, uf, letter, key } : { ok: true, number, uf, key };
}
