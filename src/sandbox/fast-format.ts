// Hot-path formatting. A lawsuit carries dozens of dates and ids; Date#toISOString and
// Number#toString(16) dominated the cost of generating one, so these do the same with integer arithmetic.

const P2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const P3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Same output as new Date(ms).toISOString() for years 1970..9999. */
export function isoOf(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  let rem = ms - days * 86_400_000;
  // Civil date from days since the epoch (H. Hinnant's algorithm).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const h = Math.floor(rem / 3_600_000);
  rem -= h * 3_600_000;
  const mi = Math.floor(rem / 60_000);
  rem -= mi * 60_000;
  const s = Math.floor(rem / 1000);
  return `${y}-${P2[m]}-${P2[d]}T${P2[h]}:${P2[mi]}:${P2[s]}.${P3[rem - s * 1000]}Z`;
}

/** 8 lowercase hex digits of an unsigned 32-bit value. */
export function hex8(n: number): string {
  return HEX2[(n >>> 24) & 255] + HEX2[(n >>> 16) & 255] + HEX2[(n >>> 8) & 255] + HEX2[n & 255];
}
