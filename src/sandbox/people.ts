// The people of the universe: individuals (CPF), companies (CNPJ, alphanumeric for those registered from July
// 2026) and lawyers (OAB).
// Each is an index; its document and name are pure functions of the index, and both can be inverted
// (document -> index, name -> indexes), which is how searches avoid scanning the lawsuits.

import { cnpjCheckDigits, cpfCheckDigits } from './check-digits.js';
import { hash, Perm, unit } from './random.js';
import { normalizeName } from './text.js';
import { BIG_LITIGANT_WORDS, COMPANY_HEADS, COMPANY_TAILS, FIRST_NAMES, SURNAMES, UFS } from './vocab.js';

function dedupe(list: readonly string[]): string[] {
  const seen = new Set<string>();
  return list.filter((x) => { const k = normalizeName(x); if (seen.has(k)) return false; seen.add(k); return true; });
}
const FIRST = dedupe(FIRST_NAMES);
const SUR = dedupe(SURNAMES);
const FIRST_IX = new Map(FIRST.map((n, i) => [normalizeName(n), i]));
const SUR_IX = new Map(SUR.map((n, i) => [normalizeName(n), i]));
/** Number of distinct three-part personal names. */
export const PERSON_NAME_SPACE = FIRST.length * SUR.length * (SUR.length - 1);

function personName(m: number): string {
  const f = m % FIRST.length;
  const r = Math.floor(m / FIRST.length);
  const s1 = r % SUR.length;
  const s2 = (s1 + 1 + Math.floor(r / SUR.length)) % SUR.length;
  return `${FIRST[f]} ${SUR[s1]} ${SUR[s2]}`;
}

function personNameIndex(normalized: string): number | undefined {
  const parts = normalized.split(' ');
  if (parts.length !== 3) return undefined;
  const f = FIRST_IX.get(parts[0]);
  const s1 = SUR_IX.get(parts[1]);
  const s2 = SUR_IX.get(parts[2]);
  if (f === undefined || s1 === undefined || s2 === undefined || s1 === s2) return undefined;
  const k = (s2 - s1 - 1 + SUR.length) % SUR.length;
  return f + FIRST.length * (s1 + SUR.length * k);
}

/**
 * A pool of `size` named entities whose names come from a smaller space of `nameSpace` names: index p has name
 * number perm(p) mod nameSpace, so homonyms exist and "who is called X" is a short arithmetic walk.
 */
class NamePool {
  private readonly perm: Perm;
  /** Spreads the pool's name numbers over the whole vocabulary, so that small pools still look varied. */
  private readonly spread: Perm;
  constructor(readonly size: number, readonly nameSpace: number, vocabulary: number, seed: number) {
    this.perm = new Perm(size, seed);
    this.spread = new Perm(vocabulary, hash(seed, 7));
  }
  /** Index in the vocabulary of p's name. */
  nameNumber(p: number): number {
    return this.spread.forward(this.perm.forward(p) % this.nameSpace);
  }
  withNameNumber(vocabIndex: number): number[] {
    const m = this.spread.backward(vocabIndex);
    const out: number[] = [];
    if (m >= this.nameSpace) return out;
    for (let v = m; v < this.size; v += this.nameSpace) out.push(this.perm.backward(v));
    return out;
  }
}

const CPF_SPACE = 1_000_000_000;

export class Individuals {
  private readonly names: NamePool;
  private readonly cpfPerm: Perm;
  constructor(readonly count: number, seed: number) {
    this.names = new NamePool(count, Math.max(1, Math.min(PERSON_NAME_SPACE, Math.floor(count * 0.8))), PERSON_NAME_SPACE, hash(seed, 101));
    this.cpfPerm = new Perm(CPF_SPACE, hash(seed, 102));
  }
  name(p: number): string {
    return personName(this.names.nameNumber(p));
  }
  /** CPF, 11 digits. */
  document(p: number): string {
    const body = String(this.cpfPerm.forward(p)).padStart(9, '0');
    return body + cpfCheckDigits(body);
  }
  fromDocument(doc: string): number | undefined {
    if (!/^\d{11}$/.test(doc)) return undefined;
    const p = this.cpfPerm.backward(Number(doc.slice(0, 9)));
    return p < this.count && this.document(p) === doc ? p : undefined;
  }
  withName(normalized: string): number[] {
    const m = personNameIndex(normalized);
    return m === undefined ? [] : this.names.withNameNumber(m);
  }
}

const OAB_SPACE = 998_000;
const OAB_UF_WEIGHTS = UFS.map((uf) => ({ SP: 30, RJ: 12, MG: 10, RS: 7, PR: 6, BA: 4, DF: 4, PE: 3, CE: 3 } as Record<string, number>)[uf] ?? 1);
const OAB_UF_CUM = ((): number[] => { let s = 0; return OAB_UF_WEIGHTS.map((w) => (s += w)); })();

export class Lawyers {
  private readonly names: NamePool;
  private readonly oabPerm: Perm;
  constructor(readonly count: number, private readonly seed: number) {
    this.names = new NamePool(count, Math.max(1, Math.min(PERSON_NAME_SPACE, Math.floor(count * 0.9))), PERSON_NAME_SPACE, hash(seed, 201));
    this.oabPerm = new Perm(Math.max(count, OAB_SPACE), hash(seed, 202));
  }
  name(l: number): string {
    return personName(this.names.nameNumber(l));
  }
  /** Normalised OAB: number without leading zeros, UF, optional supplementary letter. */
  oab(l: number): string {
    const number = this.oabPerm.forward(l) + 1000;
    const h = hash(this.seed, 203, l);
    const x = unit(h) * OAB_UF_CUM[OAB_UF_CUM.length - 1];
    let i = 0;
    while (OAB_UF_CUM[i] <= x) i++;
    const letter = h % 41 === 0 ? 'A' : h % 53 === 0 ? 'E' : '';
    return `${number}${UFS[i]}${letter}`;
  }
  fromOab(normalized: string): number | undefined {
    const m = /^(\d+)([A-Z]{2})[A-Z]?$/.exec(normalized);
    if (!m) return undefined;
    const n = Number(m[1]) - 1000;
    if (n < 0 || n >= Math.max(this.count, OAB_SPACE)) return undefined;
    const l = this.oabPerm.backward(n);
    return l < this.count && this.oab(l) === normalized ? l : undefined;
  }
  withName(normalized: string): number[] {
    const m = personNameIndex(normalized);
    return m === undefined ? [] : this.names.withNameNumber(m);
  }
}

const CNPJ_ROOT_SPACE = 100_000_000;
const B36_7 = 36 ** 7;
const ALNUM_MUL = 7919;
const ALNUM_ADD = 1_234_567_891;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const COMPANY_NAME_SPACE = COMPANY_HEADS.length * SUR.length * COMPANY_TAILS.length;
const BIG_NAME_SPACE = BIG_LITIGANT_WORDS.length * UFS.length;

function smallCompanyName(m: number): string {
  const h = m % COMPANY_HEADS.length;
  const r = Math.floor(m / COMPANY_HEADS.length);
  return `${COMPANY_HEADS[h]} ${SUR[r % SUR.length]} ${COMPANY_TAILS[Math.floor(r / SUR.length)]}`;
}
function bigCompanyName(b: number): string {
  const m = b % BIG_NAME_SPACE;
  const word = BIG_LITIGANT_WORDS[m % BIG_LITIGANT_WORDS.length];
  const region = Math.floor(m / BIG_LITIGANT_WORDS.length);
  return region === 0 ? `${word} S.A.` : `${word} ${UFS[(region + 24) % UFS.length]} S.A.`;
}

/** Alphanumeric CNPJs are issued to companies registered from this day on (REFERENCE.md: July 2026). */
export const ALPHANUMERIC_CNPJ_FROM = Date.UTC(2026, 6, 1);
const DAY_MS = 86_400_000;

/**
 * Company indexes [0, big) are the big litigants; [big, big + numeric) other companies with numeric CNPJs,
 * registered before any lawsuit of the universe; [big + numeric, count) companies registered from July 2026,
 * which hold the new alphanumeric CNPJs and so can only stand in lawsuits distributed since.
 */
export class Companies {
  private readonly smallNames: NamePool;
  private readonly rootPerm: Perm;
  private nameIndex?: Map<string, number[]>;
  readonly count: number;
  readonly alnumStart: number;
  constructor(readonly big: number, readonly numeric: number, readonly alnum: number, private readonly seed: number) {
    this.count = big + numeric + alnum;
    this.alnumStart = big + numeric;
    const small = numeric + alnum;
    this.smallNames = new NamePool(Math.max(1, small), Math.max(1, Math.min(COMPANY_NAME_SPACE, small)), COMPANY_NAME_SPACE, hash(seed, 301));
    this.rootPerm = new Perm(CNPJ_ROOT_SPACE, hash(seed, 302));
  }
  isBig(k: number): boolean {
    return k < this.big;
  }
  name(k: number): string {
    return k < this.big ? bigCompanyName(k) : smallCompanyName(this.smallNames.nameNumber(k - this.big));
  }
  isAlphanumeric(k: number): boolean {
    return k >= this.alnumStart;
  }
  /** Registration of a company holding an alphanumeric CNPJ (between July 2026 and the end of 2027). */
  registeredMs(k: number): number {
    return this.isAlphanumeric(k) ? ALPHANUMERIC_CNPJ_FROM + (hash(this.seed, 306, k) % 540) * DAY_MS : Number.NEGATIVE_INFINITY;
  }
  document(k: number): string {
    const root = this.rootPerm.forward(k);
    const h = hash(this.seed, 304, k);
    const branch = h % 10 < 8 ? '0001' : `000${2 + (h % 7)}`;
    let body: string;
    if (this.isAlphanumeric(k)) {
      const scrambled = (Math.floor(root / 26) * ALNUM_MUL + ALNUM_ADD) % B36_7;
      body = LETTERS[root % 26] + scrambled.toString(36).toUpperCase().padStart(7, '0') + branch;
    } else {
      body = String(root).padStart(8, '0') + branch;
    }
    return body + cnpjCheckDigits(body);
  }
  fromDocument(doc: string): number | undefined {
    if (!/^[0-9A-Z]{12}\d{2}$/.test(doc)) return undefined;
    let root: number;
    if (/^[A-Z]/.test(doc)) {
      const scrambled = BigInt(parseInt(doc.slice(1, 8), 36));
      const inv = modInverse(BigInt(ALNUM_MUL), BigInt(B36_7));
      const q = Number((((scrambled - BigInt(ALNUM_ADD)) % BigInt(B36_7) + BigInt(B36_7)) * inv) % BigInt(B36_7));
      root = q * 26 + LETTERS.indexOf(doc[0]);
    } else {
      root = Number(doc.slice(0, 8));
    }
    if (!Number.isFinite(root) || root >= CNPJ_ROOT_SPACE) return undefined;
    const k = this.rootPerm.backward(root);
    return k < this.count && this.document(k) === doc ? k : undefined;
  }
  withName(normalized: string): number[] {
    // Company names are few (a bounded vocabulary), so a lazily built exact index is cheap.
    if (!this.nameIndex) {
      const ix = new Map<string, number[]>();
      const add = (name: string, k: number) => { const key = normalizeName(name); const l = ix.get(key); if (l) l.push(k); else ix.set(key, [k]); };
      for (let b = 0; b < this.big; b++) add(bigCompanyName(b), b);
      this.nameIndex = ix;
    }
    const out = [...(this.nameIndex.get(normalized) ?? [])];
    const m = this.smallNameNumber(normalized);
    if (m !== undefined) for (const s of this.smallNames.withNameNumber(m)) out.push(this.big + s);
    return out;
  }
  private smallNameNumber(normalized: string): number | undefined {
    const heads = COMPANY_HEADS.map(normalizeName);
    const tails = COMPANY_TAILS.map(normalizeName);
    const sp = normalized.indexOf(' ');
    const h = heads.indexOf(normalized.slice(0, sp));
    if (sp < 0 || h < 0) return undefined;
    const rest = normalized.slice(sp + 1);
    const sp2 = rest.indexOf(' ');
    if (sp2 < 0) return undefined;
    const s = SUR_IX.get(rest.slice(0, sp2));
    const t = tails.indexOf(rest.slice(sp2 + 1));
    if (s === undefined || t < 0) return undefined;
    return h + COMPANY_HEADS.length * (s + SUR.length * t);
  }
}

function modInverse(a: bigint, m: bigint): bigint {
  let [r0, r1] = [a % m, m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}
