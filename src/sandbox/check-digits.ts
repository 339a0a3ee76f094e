// The sandbox's own check-digit arithmetic (REFERENCE.md), kept apart from src/input on purpose: the two
// readings of the rules must agree in the tests, not by sharing code.

function mod11Digit(sum: number): number {
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The two CPF check digits of a 9-digit body. */
export function cpfCheckDigits(body9: string): string {
  let s1 = 0;
  for (let i = 0; i < 9; i++) s1 += (body9.charCodeAt(i) - 48) * (10 - i);
  const d1 = mod11Digit(s1);
  let s2 = 0;
  for (let i = 0; i < 9; i++) s2 += (body9.charCodeAt(i) - 48) * (11 - i);
  s2 += d1 * 2;
  return `${d1}${mod11Digit(s2)}`;
}

const CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** The two CNPJ check digits of a 12-character body of [0-9A-Z] (value = ASCII code - 48). */
export function cnpjCheckDigits(body12: string): string {
  let s1 = 0;
  for (let i = 0; i < 12; i++) s1 += (body12.charCodeAt(i) - 48) * CNPJ_W1[i];
  const d1 = mod11Digit(s1);
  let s2 = 0;
  for (let i = 0; i < 12; i++) s2 += (body12.charCodeAt(i) - 48) * CNPJ_W2[i];
  s2 += d1 * CNPJ_W2[12];
  return `${d1}${mod11Digit(s2)}`;
}

/** Remainder of a long digit string modulo 97, in chunks so no precision is lost past 2^53. */
function mod97(digits: string): number {
  let r = 0;
  for (let i = 0; i < digits.length; i += 7) {
    const chunk = digits.slice(i, i + 7);
    r = Number(`${r}${chunk}`) % 97;
  }
  return r;
}

/** CNJ check digits DD for N7 AAAA J TR OOOO (ISO 7064 mod 97-10). */
export function cnjCheckDigits(n7: string, year: string, j: string, tr: string, origin: string): string {
  const dd = 98 - mod97(`${n7}${year}${j}${tr}${origin}00`);
  return String(dd).padStart(2, '0');
}

/** Whether a CNJ number (punctuated or not) has valid check digits. */
export function isValidCnj(code: string): boolean {
  const d = code.replace(/\D/g, '');
  if (d.length !== 20) return false;
  return mod97(`${d.slice(0, 7)}${d.slice(9)}${d.slice(7, 9)}`) === 1;
}

export function formatCnj(n7: string, dd: string, year: string, j: string, tr: string, origin: string): string {
  return `${n7}-${dd}.${year}.${j}.${tr}.${origin}`;
}

export function formatCpf(d: string): string {
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}

export function formatCnpj(d: string): string {
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
}
