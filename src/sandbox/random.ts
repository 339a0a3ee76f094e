// Deterministic randomness without state: every synthetic value is a pure function of (seed, entity, field),
// so the universe can be regenerated piecewise and never needs to be held in memory. 32-bit integer math only
// (Math.imul) keeps generation cheap: no BigInt on the hot path.

/** Avalanche mix of one 32-bit value (murmur3 finaliser). */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hash of up to five 32-bit integers into a 32-bit unsigned value (fixed arity: it is on the hot path). */
export function hash(a: number, b = 0, c = 0, d = 0, e = 0): number {
  let h = mix32(0x9e3779b9 ^ a);
  h = mix32((h ^ b) + Math.imul(h, 31));
  h = mix32((h ^ c) + Math.imul(h, 31));
  h = mix32((h ^ d) + Math.imul(h, 31));
  return mix32((h ^ e) + Math.imul(h, 31));
}

/** Hash of a string (FNV-1a then mixed), for keys and names. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** Small fast PRNG (mulberry32) for sequences derived from one hash. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Next unsigned 32-bit value. */
  u32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }
  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
}

/** Unit float from a hash value. */
export function unit(h: number): number {
  return (h >>> 0) / 4294967296;
}

function oddInverse(a: number): number {
  // Newton iteration for the inverse of an odd number modulo 2^32.
  let x = a;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x >>> 0;
}

/**
 * A seeded bijection of [0, size) with its inverse. Built from invertible steps on k-bit words (odd
 * multiplication, xor-shift by at least half the width, addition) and cycle-walking back into range.
 * It is what lets the universe answer "which lawsuits name person p" without scanning all of them.
 */
export class Perm {
  private readonly bits: number;
  private readonly mask: number;
  private readonly shift: number;
  private readonly mul: number[] = [];
  private readonly inv: number[] = [];
  private readonly add: number[] = [];

  constructor(readonly size: number, seed: number) {
    if (size < 1 || size > 2 ** 32) throw new RangeError(`Perm size out of range: ${size}`);
    this.bits = Math.max(1, Math.ceil(Math.log2(size)));
    this.mask = this.bits >= 32 ? 0xffffffff : (2 ** this.bits) - 1;
    this.shift = Math.ceil(this.bits / 2) + (this.bits > 1 ? 0 : 1);
    for (let r = 0; r < 3; r++) {
      const m = (hash(seed, r, 1) | 1) >>> 0;
      this.mul.push(m);
      this.inv.push(oddInverse(m));
      this.add.push(hash(seed, r, 2));
    }
  }

  private step(x: number): number {
    const mask = this.mask;
    for (let r = 0; r < 3; r++) {
      x = (Math.imul(x, this.mul[r]) >>> 0) & mask;
      x = (x ^ (x >>> this.shift)) >>> 0;
      x = ((x + this.add[r]) >>> 0) & mask;
    }
    return x >>> 0;
  }

  private unstep(x: number): number {
    const mask = this.mask;
    for (let r = 2; r >= 0; r--) {
      x = ((x - this.add[r]) >>> 0) & mask;
      x = (x ^ (x >>> this.shift)) >>> 0;
      x = (Math.imul(x, this.inv[r]) >>> 0) & mask;
    }
    return x >>> 0;
  }

  forward(x: number): number {
    let y = this.step(x);
    while (y >= this.size) y = this.step(y);
    return y;
  }

  backward(y: number): number {
    let x = this.unstep(y);
    while (x >= this.size) x = this.unstep(x);
    return x;
  }
}

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const DASH = 45;

/**
 * Deterministic UUID (version 4 layout) from four 32-bit words. Built as one flat string from character codes:
 * an id assembled from slices and concatenations keeps every piece alive, several times its own size, and the
 * sandbox holds one per request.
 */
export function uuidFrom(a: number, b: number, c: number, d: number): string {
  const nibbles: number[] = [];
  for (const w of [a >>> 0, b >>> 0, c >>> 0, d >>> 0]) for (let k = 28; k >= 0; k -= 4) nibbles.push((w >>> k) & 15);
  nibbles[12] = 4;
  nibbles[16] = (nibbles[16] & 0x3) | 0x8;
  const codes: number[] = [];
  nibbles.forEach((x, k) => {
    if (k === 8 || k === 12 || k === 16 || k === 20) codes.push(DASH);
    codes.push(HEX_CODES[x]);
  });
  return String.fromCharCode(...codes);
}

/**
 * Deterministic UUID from a seed and a label, for ids of requests, users and responses. Each of its four words
 * comes from a chain of its own (the label hashed four ways): from one chain every id had at most 32 bits of
 * chance in it, and 300,000 response ids of 3,000 requests held 338 duplicates; two nights' responses sharing an
 * id are what the night-twice test once saw as 1,120 responses against 1,121.
 */
export function uuidOf(seed: number, label: string, n = 0): string {
  const word = (k: number): number => hash(seed, hashString(`${k}\u0000${label}`), n, k);
  return uuidFrom(word(1), word(2), word(3), word(4));
}
