// The numeric skeleton of one lawsuit: everything that does not depend on the time of observation, derived
// from hash(seed, i). Strings and objects are built later, only for lawsuits actually returned.

import { cnjCheckDigits, formatCnj } from './check-digits.js';
import { hash, Perm, unit, uuidFrom, weighted } from './random.js';
import { CLASSES, SUBJECTS, TRIBUNALS, TRIBUNAL_CUMULATIVE, type TribunalDef } from './vocab.js';

export const DAY_MS = 86_400_000;
/** Lawsuits are distributed uniformly over these years; those after the clock do not exist yet. */
const FIRST_DISTRIBUTION = Date.UTC(2008, 0, 1);
const LAST_DISTRIBUTION = Date.UTC(2027, 11, 31);

export interface Plan {
  index: number;
  /** Index of the first-instance lawsuit whose number this one shares (itself when not an appeal). */
  base: number;
  instance: number;
  tribunal: TribunalDef;
  origin: string;
  city: string;
  courtPick: number;
  classCode: string;
  subjectCodes: string[];
  amount: number;
  distributionMs: number;
  secrecy: number;
  stepsTotal: number;
  gapDays: number;
  /** How the lawsuit's life ends once all its steps are past. */
  ending: 'archived' | 'cancelled' | 'reactivated' | 'open';
  crawlCycleMs: number;
  crawlOffsetMs: number;
  code: string;
  lawsuitId: string;
  hasAttachments: boolean;
  freeJustice: boolean | undefined;
}

const CLASSES_BY = new Map<string, typeof CLASSES>();
function classesFor(j: string, instance: number): typeof CLASSES {
  const k = `${j}:${instance}`;
  let list = CLASSES_BY.get(k);
  if (!list) { list = CLASSES.filter((c) => c.justices.includes(j) && c.instance === instance); CLASSES_BY.set(k, list); }
  return list;
}

/** Share of odd indexes that are the second instance (appeal) of the lawsuit just before them. */
const TWIN_PERCENT = 12;

export class Planner {
  private readonly cnjPerm: Perm;
  private readonly idPerm: Perm;
  constructor(readonly seed: number, readonly count: number) {
    this.cnjPerm = new Perm(10_000_000, hash(seed, 401));
    this.idPerm = new Perm(2 ** 31, hash(seed, 402));
  }

  isTwin(i: number): boolean {
    return (i & 1) === 1 && hash(this.seed, 1, i - 1) % 100 < TWIN_PERCENT;
  }

  baseOf(i: number): number {
    return this.isTwin(i) ? i - 1 : i;
  }

  /** Index whose CNJ sequence number is n7, if any (before verification of the whole number). */
  indexOfSequence(n7: number): number | undefined {
    if (n7 < 0 || n7 >= 10_000_000) return undefined;
    const b = this.cnjPerm.backward(n7);
    return b < this.count ? b : undefined;
  }

  indexOfLawsuitId(id: string): number | undefined {
    const m = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{4}([0-9a-f]{8})$/.exec(id.toLowerCase());
    if (!m) return undefined;
    const d = parseInt(m[1], 16);
    if (d >= 2 ** 31) return undefined;
    const i = this.idPerm.backward(d);
    return i < this.count && this.lawsuitId(i) === id.toLowerCase() ? i : undefined;
  }

  lawsuitId(i: number): string {
    return uuidFrom(hash(this.seed, 403, i), hash(this.seed, 404, i), hash(this.seed, 405, i), this.idPerm.forward(i));
  }

  plan(i: number): Plan {
    const seed = this.seed;
    const base = this.baseOf(i);
    const twin = base !== i;
    const hb = (k: number) => hash(seed, 10 + k, base);
    const hi = (k: number) => hash(seed, 40 + k, i);
    const tribunal = weighted(TRIBUNALS, TRIBUNAL_CUMULATIVE, unit(hb(0)));
    const baseDist = FIRST_DISTRIBUTION + Math.floor(unit(hb(1)) * (LAST_DISTRIBUTION - FIRST_DISTRIBUTION));
    const distributionMs = twin ? baseDist + (180 + (hi(0) % 720)) * DAY_MS + (hi(1) % DAY_MS) : baseDist;
    const instance = twin ? 2 : 1;
    const classes = classesFor(tribunal.j, instance);
    const classCode = classes[hi(2) % classes.length].code;
    const nSubjects = 1 + (hb(2) % 10 < 6 ? 0 : hb(2) % 10 < 9 ? 1 : 2);
    const subjectCodes: string[] = [];
    for (let k = 0; k < nSubjects; k++) {
      const s = SUBJECTS[hash(seed, 20 + k, base) % SUBJECTS.length].code;
      if (!subjectCodes.includes(s)) subjectCodes.push(s);
    }
    const ha = hb(3);
    const amount = ha % 20 === 0 ? 0 : Math.round(Math.exp(6 + unit(ha) * 8)) / 100 * 100 + (ha % 100) / 100;
    const hs = hb(4) % 1000;
    const secrecy = hs < 900 ? 0 : hs < 940 ? 1 : hs < 960 ? 2 : hs < 980 ? 3 : hs < 995 ? 4 : 5;
    const hot = hi(3) % 100 < 6;
    const gapDays = hot ? 2 + (hi(4) % 6) : 8 + (hi(4) % 55);
    const stepsTotal = 3 + Math.floor(unit(hi(5)) ** 2 * 55);
    const he = hi(6) % 100;
    const ending = he < 55 ? 'archived' : he < 58 ? 'cancelled' : he < 62 ? 'reactivated' : 'open';
    const crawlCycleMs = (1 + (hi(7) % 30)) * DAY_MS;
    const crawlOffsetMs = hi(8) % crawlCycleMs;
    const city = tribunal.cities[hb(5) % tribunal.cities.length];
    const origin = String(1 + (hb(6) % 700)).padStart(4, '0');
    const n7 = String(this.cnjPerm.forward(base)).padStart(7, '0');
    const year = String(new Date(baseDist).getUTCFullYear());
    const dd = cnjCheckDigits(n7, year, tribunal.j, tribunal.tr, origin);
    return {
      index: i, base, instance, tribunal, origin, city, courtPick: unit(hi(9)), classCode, subjectCodes, amount,
      distributionMs, secrecy, stepsTotal, gapDays, ending, crawlCycleMs, crawlOffsetMs,
      code: formatCnj(n7, dd, year, tribunal.j, tribunal.tr, origin), lawsuitId: this.lawsuitId(i),
      hasAttachments: hi(10) % 100 < 25, freeJustice: hi(11) % 3 === 0 ? undefined : hi(11) % 3 === 1,
    };
  }

  /** When the service database last crawled lawsuit i, as seen at time t (lags t by less than 30 days). */
  snapshotMs(p: Plan, t: number): number {
    return p.crawlOffsetMs + Math.floor((t - p.crawlOffsetMs) / p.crawlCycleMs) * p.crawlCycleMs;
  }
}
