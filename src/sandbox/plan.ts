// The numeric skeleton of one lawsuit: everything that does not depend on the time of observation, derived
// from hash(seed, i). Strings and objects are built later, only for lawsuits actually returned.
//
// Index i is a first-instance case (a base) unless it is odd and drawn as the second instance of the case
// just before it (a twin): either an appeal heard under the base's own number, or an interlocutory appeal
// (Agravo de Instrumento), which real tribunals number anew, at the appellate body (OOOO 0000). Everything
// about the case itself (kind, parties, subjects, court) comes from the base, so every instance of one
// case agrees with the others.

import { KINDS, PRIVATE_KINDS, type CaseKind } from './case-kinds.js';
import { cnjCheckDigits, formatCnj } from './check-digits.js';
import type { PublicEntities, PublicEntity } from './public-entities.js';
import { cumulate, hash, Perm, unit, uuidFrom, weighted } from './random.js';
import { placesFor, TRIBUNALS, type TribunalDef } from './tribunals.js';

export const DAY_MS = 86_400_000;
/** Lawsuits are distributed uniformly over these years; those after the clock do not exist yet. */
const FIRST_DISTRIBUTION = Date.UTC(2008, 0, 1);
const LAST_DISTRIBUTION = Date.UTC(2027, 11, 31);

export type AppealKind = 'none' | 'appeal' | 'interlocutory';

export interface Plan {
  index: number;
  /** Index of the first-instance lawsuit of this case (itself when it is one). */
  base: number;
  instance: number;
  appeal: AppealKind;
  kind: CaseKind;
  /** The public entity that stands in the case, for the kinds that have one. */
  entity: PublicEntity | undefined;
  tribunal: TribunalDef;
  /** OOOO of the first-instance unit. */
  origin: string;
  city: string;
  courtPick: number;
  classCode: string;
  subjectCodes: string[];
  amount: number;
  /** Distribution of the first instance (the case's parties are those of that date). */
  baseDistributionMs: number;
  distributionMs: number;
  secrecy: number;
  stepsTotal: number;
  gapDays: number;
  /** How the lawsuit's life ends once all its steps are past. */
  ending: 'archived' | 'cancelled' | 'reactivated' | 'open';
  crawlCycleMs: number;
  crawlOffsetMs: number;
  readonly code: string;
  /** The provider's id of this instance: searchable always, shown only by some tribunals (TribunalDef.showsLawsuitId). */
  readonly lawsuitId: string;
  hasAttachments: boolean;
  freeJustice: boolean | undefined;
}

/** Share of odd indexes that are the second instance of the case just before them. */
const TWIN_PERCENT = 12;
/** Share of cases with a public entity on one side (tax enforcement, criminal actions, social security...). */
const PUBLIC_PERCENT = 30;
/** Share of the second instances of kinds that have them that are interlocutory appeals with their own number. */
const INTERLOCUTORY_PERCENT = 25;

const PRIVATE_TRIBUNALS = TRIBUNALS.filter((t) => t.j !== '4');
const PRIVATE_CUM = cumulate(PRIVATE_TRIBUNALS.map((t) => t.weight));
const FEDERAL_TRIBUNALS = TRIBUNALS.filter((t) => t.j === '4');
const FEDERAL_CUM = cumulate(FEDERAL_TRIBUNALS.map((t) => t.weight));

function pickWeighted<T>(items: ReadonlyArray<[T, number]>, u: number): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = u * total;
  for (const [item, w] of items) { if (x < w) return item; x -= w; }
  return items[items.length - 1][0];
}

const yearOf = (ms: number) => String(new Date(ms).getUTCFullYear());

export class Planner {
  private readonly cnjPerm: Perm;
  private readonly idPerm: Perm;
  private readonly pubPerm: Perm;
  constructor(readonly seed: number, readonly count: number, readonly entities: PublicEntities) {
    this.cnjPerm = new Perm(10_000_000, hash(seed, 401));
    this.idPerm = new Perm(2 ** 31, hash(seed, 402));
    this.pubPerm = new Perm(count, hash(seed, 406));
  }

  isTwin(i: number): boolean {
    return (i & 1) === 1 && hash(this.seed, 1, i - 1) % 100 < TWIN_PERCENT;
  }

  baseOf(i: number): number {
    return this.isTwin(i) ? i - 1 : i;
  }

  private isPublicBase(b: number): boolean {
    return hash(this.seed, 30, b) % 100 < PUBLIC_PERCENT;
  }

  /** Base lawsuits in which public entity e stands. */
  lawsuitsOfEntity(e: number): number[] {
    const out: number[] = [];
    const w = this.entities.totalWeight;
    for (const r of this.entities.residuesOf(e)) {
      for (let v = r; v < this.count; v += w) {
        const b = this.pubPerm.backward(v);
        if (!this.isTwin(b) && this.isPublicBase(b)) out.push(b);
      }
    }
    return out;
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

    let kind: CaseKind;
    let entity: PublicEntity | undefined;
    let tribunal: TribunalDef;
    if (this.isPublicBase(base)) {
      entity = this.entities.ofSlot(this.pubPerm.forward(base));
      kind = pickWeighted(entity.kinds, unit(hash(seed, 32, base)));
      tribunal = entity.tribunal ?? weighted(FEDERAL_TRIBUNALS, FEDERAL_CUM, unit(hb(0)));
    } else {
      tribunal = weighted(PRIVATE_TRIBUNALS, PRIVATE_CUM, unit(hb(0)));
      kind = pickWeighted(PRIVATE_KINDS[tribunal.j as '8' | '5'], unit(hash(seed, 32, base)));
    }
    const places = placesFor(tribunal, kind.group, entity?.city);
    const where = places[hb(5) % places.length];
    const origin = where.origins[hb(6) % where.origins.length];
    const baseDist = FIRST_DISTRIBUTION + Math.floor(unit(hb(1)) * (LAST_DISTRIBUTION - FIRST_DISTRIBUTION));

    let appeal: AppealKind = 'none';
    let classCode = kind.classes[hb(7) % kind.classes.length];
    let distributionMs = baseDist;
    if (twin) {
      appeal = kind.interlocutoryAppeals && hi(0) % 100 < INTERLOCUTORY_PERCENT ? 'interlocutory' : 'appeal';
      // An interlocutory appeal attacks a decision taken while the case runs; an appeal, the judgment.
      distributionMs = appeal === 'interlocutory'
        ? baseDist + (20 + (hi(1) % 400)) * DAY_MS + (hi(2) % DAY_MS)
        : baseDist + (180 + (hi(1) % 720)) * DAY_MS + (hi(2) % DAY_MS);
      classCode = appeal === 'interlocutory' ? '202' : kind.appealClass;
    }

    const nSubjects = 1 + (hb(2) % 10 < 6 ? 0 : hb(2) % 10 < 9 ? 1 : 2);
    const subjectCodes: string[] = [];
    for (let k = 0; k < nSubjects; k++) {
      const s = kind.subjects[hash(seed, 20 + k, base) % kind.subjects.length];
      if (!subjectCodes.includes(s)) subjectCodes.push(s);
    }
    const ha = hb(3);
    const range = kind.amountLog10;
    const amount = !range || ha % 25 === 0 ? 0 : Math.round(10 ** (range[0] + unit(ha) * (range[1] - range[0]))) + (ha % 100) / 100;
    const hs = hb(4) % 1000;
    // Family cases run under judicial secrecy (segredo de justiça) as a rule.
    const secrecy = kind === KINDS.alimony
      ? (hs < 300 ? 1 : hs < 750 ? 2 : hs < 950 ? 3 : 5)
      : (hs < 900 ? 0 : hs < 940 ? 1 : hs < 960 ? 2 : hs < 980 ? 3 : hs < 995 ? 4 : 5);
    const hot = hi(3) % 100 < 6;
    const gapDays = hot ? 2 + (hi(4) % 6) : 8 + (hi(4) % 55);
    const stepsTotal = 3 + Math.floor(unit(hi(5)) ** 2 * 55);
    const he = hi(6) % 100;
    const ending = he < 55 ? 'archived' : he < 58 ? 'cancelled' : he < 62 ? 'reactivated' : 'open';
    const crawlCycleMs = (1 + (hi(7) % 30)) * DAY_MS;
    const crawlOffsetMs = hi(8) % crawlCycleMs;
    const own = appeal === 'interlocutory';
    // The number and the id are strings with check digits: built only when asked for (a search verifies
    // thousands of candidates and needs neither).
    let code: string | undefined;
    let lawsuitId: string | undefined;
    const planner = this;
    return {
      index: i, base, instance: twin ? 2 : 1, appeal, kind, entity, tribunal, origin, city: where.city, courtPick: unit(hi(9)),
      classCode, subjectCodes, amount, baseDistributionMs: baseDist, distributionMs, secrecy, stepsTotal, gapDays, ending,
      crawlCycleMs, crawlOffsetMs,
      get code() {
        if (code === undefined) {
          const n7 = String(planner.cnjPerm.forward(own ? i : base)).padStart(7, '0');
          const year = yearOf(own ? distributionMs : baseDist);
          const numberOrigin = own ? '0000' : origin;
          code = formatCnj(n7, cnjCheckDigits(n7, year, tribunal.j, tribunal.tr, numberOrigin), year, tribunal.j, tribunal.tr, numberOrigin);
        }
        return code;
      },
      get lawsuitId() {
        return (lawsuitId ??= planner.lawsuitId(i));
      },
      hasAttachments: hi(10) % 100 < 25, freeJustice: hi(11) % 3 === 0 ? undefined : hi(11) % 3 === 1,
    };
  }

  /** When the service database last crawled lawsuit i, as seen at time t (lags t by less than 30 days). */
  snapshotMs(p: Plan, t: number): number {
    return p.crawlOffsetMs + Math.floor((t - p.crawlOffsetMs) / p.crawlCycleMs) * p.crawlCycleMs;
  }
}
