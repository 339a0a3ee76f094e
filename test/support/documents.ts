// Documents lists for tests.
import { cpfCheckDigits } from '../../src/sandbox/check-digits.js';

/** `n` distinct CPFs with valid check digits (REFERENCE.md), so the list reader accepts every line. */
export function cpfs(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const body = String(100_000_001 + i * 7919).padStart(9, '0').slice(0, 9);
    if (/^(\d)\1*$/.test(body)) continue;
    out.push(body + cpfCheckDigits(body));
  }
  return out;
}
