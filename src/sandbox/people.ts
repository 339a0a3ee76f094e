// The people of the universe: individuals (CPF), companies (CNPJ, alphanumeric for those registered from July
// 2026) and lawyers (OAB, by section).
// Each is an index; its document and name are pure functions of the index, and both can be inverted
// (document -> index, name -> indexes), which is how searches avoid scanning the lawsuits.

import { cnpjCheckDigits, cpfCheckDigits } from './check-digits.js';
import { BIG_BANKS, BIG_LITIGANTS, companyName, NAME_FORMS, type Sector } from './company-names.js';
import { OAB_ISSUED, OAB_LOWEST } from './oab-sections.js';
import { ENTITY_ROOTS } from './public-entities.js';
import { hash, Perm } from './random.js';
import { normalizeName } from './text.js';
import { FIRST_NAMES, SURNAMES, UFS, WOMEN_FIRST_NAMES } from './vocab.js';

function dedupe(list: readonly string[]): string[] {
  const seen = new Set<string>();
  return list.filter((x) => { const k = normalizeName(x); if (seen.has(k)) return false; seen.add(k); return true; });
}
const FIRST = dedupe(FIRST_NAMES);
const SUR = dedupe(SURNAMES);
const FIRST_IX = new Map(FIRST.map((n, i) => [normalizeName(n), i]));
const SUR_IX = new Map(SUR.map((n, i) => [normalizeName(n), i]));
/** Number of distinct three-part personal names. */
const PERSON_NAME_SPACE = FIRST.length * SUR.length * (SUR.length - 1);

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
  /** Whether p's first name is a woman's. */
  isWoman(p: number): boolean {
    const name = this.name(p);
    return WOMEN_FIRST_NAMES.has(name.slice(0, name.indexOf(' ')));
  }
  withName(normalized: string): number[] {
    const m = personNameIndex(normalized);
    return m === undefined ? [] : this.names.withNameNumber(m);
  }
}

/** Share of each section's lawyers who are interns (estagiários, OAB suffix E). */
const INTERN_SHARE = 0.04;
const UF_INDEX = new Map(UFS.map((uf, k) => [uf, k]));

/**
 * Lawyers, in one block per OAB section (state), each block as large as the section's share of the country's
 * roll: [start, start + full) lawyers, then the section's interns. A lawyer's OAB number is a seeded bijection of
 * their place in the block onto the numbers the section has issued, so that the number can be inverted.
 */
export class Lawyers {
  private readonly names: NamePool;
  readonly count: number;
  /** Per section (UFS order): first index, lawyers (not interns), whole block. */
  readonly start: number[] = [];
  readonly full: number[] = [];
  readonly size: number[] = [];
  /** Cumulative count of full lawyers before each section (the national pool of out-of-state counsel). */
  readonly fullBefore: number[] = [];
  readonly fullTotal: number;
  private readonly numberPerm: Perm[];
  constructor(wanted: number, private readonly seed: number) {
    const roll = UFS.reduce((s, uf) => s + OAB_ISSUED[uf], 0);
    let start = 0;
    let fullBefore = 0;
    this.numberPerm = UFS.map((uf, k) => {
      const issued = OAB_ISSUED[uf] - OAB_LOWEST + 1;
      const size = Math.min(issued, Math.max(4, Math.round((wanted * OAB_ISSUED[uf]) / roll)));
      const full = Math.max(1, size - Math.round(size * INTERN_SHARE));
      this.start.push(start);
      this.size.push(size);
      this.full.push(full);
      this.fullBefore.push(fullBefore);
      start += size;
      fullBefore += full;
      return new Perm(issued, hash(seed, 202, k));
    });
    this.count = start;
    this.fullTotal = fullBefore;
    this.names = new NamePool(this.count, Math.max(1, Math.min(PERSON_NAME_SPACE, Math.floor(this.count * 0.9))), PERSON_NAME_SPACE, hash(seed, 201));
  }
  name(l: number): string {
    return personName(this.names.nameNumber(l));
  }
  /** Section (index in UFS) of lawyer l. */
  sectionOf(l: number): number {
    let lo = 0;
    let hi = this.start.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.start[mid] <= l) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  isIntern(l: number): boolean {
    const u = this.sectionOf(l);
    return l - this.start[u] >= this.full[u];
  }
  /** A lawyer (never an intern) of section u, by a slot value v. */
  fullOf(u: number, v: number): number {
    return this.start[u] + (v % this.full[u]);
  }
  /** A member of section u, intern or not, by a slot value v. */
  anyOf(u: number, v: number): number {
    return this.start[u] + (v % this.size[u]);
  }
  /** A lawyer of any section, by a slot value v (counsel from out of state). */
  nationalOf(v: number): number {
    const k = v % this.fullTotal;
    let u = 0;
    while (u + 1 < this.fullBefore.length && this.fullBefore[u + 1] <= k) u++;
    return this.start[u] + (k - this.fullBefore[u]);
  }
  /** Normalised OAB: number without leading zeros, UF, optional supplementary letter (E: intern). */
  oab(l: number): string {
    const u = this.sectionOf(l);
    const number = this.numberPerm[u].forward(l - this.start[u]) + OAB_LOWEST;
    const letter = this.isIntern(l) ? 'E' : hash(this.seed, 203, l) % 41 === 0 ? 'A' : '';
    return `${number}${UFS[u]}${letter}`;
  }
  fromOab(normalized: string): number | undefined {
    const m = /^(\d+)([A-Z]{2})[A-Z]?$/.exec(normalized);
    if (!m) return undefined;
    const u = UF_INDEX.get(m[2]);
    if (u === undefined) return undefined;
    const n = Number(m[1]) - OAB_LOWEST;
    if (n < 0 || n >= this.numberPerm[u].size) return undefined;
    const offset = this.numberPerm[u].backward(n);
    if (offset >= this.size[u]) return undefined;
    const l = this.start[u] + offset;
    return this.oab(l) === normalized ? l : undefined;
  }
  withName(normalized: string): number[] {
    const m = personNameIndex(normalized);
    return m === undefined ? [] : this.names.withNameNumber(m);
  }
}

export const sectionIndex = (uf: string): number => UF_INDEX.get(uf) ?? 0;

const CNPJ_ROOT_SPACE = 100_000_000;
const B36_7 = 36 ** 7;
const ALNUM_MUL = 7919;
const ALNUM_ADD = 1_234_567_891;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const COMPANY_NAME_SPACE = NAME_FORMS.length * SUR.length;
const BIG_NAME_SPACE = BIG_LITIGANTS.length * UFS.length;
const BANKS = BIG_BANKS.length;
const BANK_BY_DOCUMENT = new Map(BIG_BANKS.map((b, k) => [b.document, k]));
/** Share, in tenths, of the big litigants' lawsuits that are the big banks' (the largest litigants of all). */
const BANK_TENTHS = 3;
/** CNPJ roots no generated company takes: the public entities' and the big banks'. */
const RESERVED_ROOTS: readonly number[] = [...new Set([...ENTITY_ROOTS, ...BIG_BANKS.map((b) => b.document.slice(0, 8))])].map(Number);
const RESERVED = new Set(RESERVED_ROOTS);

/** Name number m: form m mod forms, surname the rest. */
function smallCompanyName(m: number): string {
  return companyName(NAME_FORMS[m % NAME_FORMS.length], SUR[Math.floor(m / NAME_FORMS.length) % SUR.length]);
}
/** Big litigant b: a big bank (the first ones), or one of the other big names, by region. */
function bigCompanyName(b: number): string {
  if (b < BANKS) return BIG_BANKS[b].name;
  const m = (b - BANKS) % BIG_NAME_SPACE;
  const word = BIG_LITIGANTS[m % BIG_LITIGANTS.length].word;
  const region = Math.floor(m / BIG_LITIGANTS.length);
  return region === 0 ? `${word} S.A.` : `${word} ${UFS[(region + 24) % UFS.length]} S.A.`;
}
/** Small-company names parsed back: `head surname [tail]`, heads of one or two words. */
const FORM_BY_NAME = new Map<string, number>();
NAME_FORMS.forEach((f, k) => {
  for (const s of SUR) FORM_BY_NAME.set(normalizeName(companyName(f, s)), k + NAME_FORMS.length * SUR_IX.get(normalizeName(s))!);
});

/** Alphanumeric CNPJs are issued to companies registered from this day on (REFERENCE.md: July 2026). */
const ALPHANUMERIC_CNPJ_FROM = Date.UTC(2026, 6, 1);
const DAY_MS = 86_400_000;

/**
 * Company indexes [0, big) are the big litigants, the big banks first; [big, big + numeric) other companies with numeric CNPJs,
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
  /**
   * The big litigant a big-company slot value deals to: a big bank for BANK_TENTHS of the values, another big
   * litigant for the rest (value v = 10a + d: d < BANK_TENTHS picks bank a mod banks).
   */
  bigOf(v: number): number {
    const a = Math.floor(v / 10);
    const d = v % 10;
    return d < BANK_TENTHS ? a % BANKS : BANKS + ((a * (10 - BANK_TENTHS) + d - BANK_TENTHS) % (this.big - BANKS));
  }
  /** Every slot value below `space` bigOf deals to big litigant k (bigOf's inverse). */
  slotsOfBig(k: number, space: number): number[] {
    const out: number[] = [];
    if (k < BANKS) {
      for (let a = k; a * 10 < space; a += BANKS) for (let d = 0; d < BANK_TENTHS && a * 10 + d < space; d++) out.push(a * 10 + d);
      return out;
    }
    const others = 10 - BANK_TENTHS;
    for (let x = k - BANKS; ; x += this.big - BANKS) {
      const v = Math.floor(x / others) * 10 + (x % others) + BANK_TENTHS;
      if (v >= space) return out;
      out.push(v);
    }
  }
  /** The business its name tells. */
  sector(k: number): Sector {
    if (k < BANKS) return 'bank';
    if (k < this.big) return BIG_LITIGANTS[((k - BANKS) % BIG_NAME_SPACE) % BIG_LITIGANTS.length].sector;
    return NAME_FORMS[this.smallNames.nameNumber(k - this.big) % NAME_FORMS.length].sector;
  }
  isAlphanumeric(k: number): boolean {
    return k >= this.alnumStart;
  }
  /** Registration of a company holding an alphanumeric CNPJ (between July 2026 and the end of 2027). */
  registeredMs(k: number): number {
    return this.isAlphanumeric(k) ? ALPHANUMERIC_CNPJ_FROM + (hash(this.seed, 306, k) % 540) * DAY_MS : Number.NEGATIVE_INFINITY;
  }
  /** The CNPJ root of company k: its own, unless a public entity or a big bank holds it (then a spare one). */
  private rootOf(k: number): number {
    const root = this.rootPerm.forward(k);
    if (!RESERVED.has(root)) return root;
    for (let t = this.count + RESERVED_ROOTS.indexOf(root); ; t += RESERVED_ROOTS.length) {
      const spare = this.rootPerm.forward(t);
      if (!RESERVED.has(spare)) return spare;
    }
  }
  document(k: number): string {
    if (k < BANKS) return BIG_BANKS[k].document;
    const root = this.rootOf(k);
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
    const bank = BANK_BY_DOCUMENT.get(doc);
    if (bank !== undefined) return bank < this.big ? bank : undefined;
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
    let k = this.rootPerm.backward(root);
    // A spare root stands for the company whose own root is reserved.
    if (k >= this.count) k = this.rootPerm.backward(RESERVED_ROOTS[(k - this.count) % RESERVED_ROOTS.length]);
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
    return FORM_BY_NAME.get(normalized);
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
