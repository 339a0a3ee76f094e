// The numeric skeleton of one lawsuit: everything that does not depend on the time of observation, derived
// from hash(seed, i). Strings and objects are built later, only for lawsuits actually returned.
//
// Index i is a first-instance case (a base) unless it is odd and drawn as the second instance of the case
// just before it (a twin): an appeal heard under the base's own number; an interlocutory appeal (Agravo de
// Instrumento), which real tribunals number anew, at the appellate body (OOOO 0000); or, now and then, a superior
// court's case (STJ, TST) reached by appeal from the appellate court, numbered TR 00, OOOO 0000. Everything about
// the case itself (kind, parties, subjects, court, value) comes from the base, so every instance agrees with the
// others; when a twin is distributed comes from the base's life (timeline.ts).

import { KINDS, PRIVATE_KINDS, type CaseKind, type KindName } from './case-kinds.js';
import { cnjCheckDigits, formatCnj } from './check-digits.js';
import type { Sector } from './company-names.js';
import { DAY_MS } from './days.js';
import { minimumWageAt } from './minimum-wage.js';
import type { PublicEntities, PublicEntity } from './public-entities.js';
import { cumulate, hash, Perm, unit, uuidFrom, weighted } from './random.js';
import { placesFor, TRIBUNAL_BY_ACRONYM, TRIBUNALS, type TribunalDef } from './tribunals.js';

/** Lawsuits are distributed uniformly over these years; those after the clock do not exist yet. */
const FIRST_DISTRIBUTION = Date.UTC(2008, 0, 1);
const LAST_DISTRIBUTION = Date.UTC(2027, 11, 31);

export type AppealKind = 'none' | 'appeal' | 'interlocutory' | 'superior';

export interface Plan {
  index: number;
  /** Index of the first-instance lawsuit of this case (itself when it is one). */
  base: number;
  /** 1 first instance, 2 appellate court, 3 superior court. */
  instance: number;
  appeal: AppealKind;
  kind: CaseKind;
  /** The public entity that stands in the case, for the kinds that have one. */
  entity: PublicEntity | undefined;
  /** The tribunal of this instance. */
  tribunal: TribunalDef;
  /** State of the first instance's court (where the case's lawyers mostly come from). */
  uf: string;
  /** OOOO of the first-instance unit. */
  origin: string;
  city: string;
  courtPick: number;
  classCode: string;
  /** Subjects (TPU), drawn by the kind and the counterpart's business: computed when first read. */
  readonly subjectCodes: string[];
  amount: number;
  /** Distribution of the first instance (the case's parties are those of that date). */
  baseDistributionMs: number;
  readonly distributionMs: number;
  secrecy: number;
  /** How fast this court moves the case: its steps' gaps are the stages' gaps times this. */
  pace: number;
  crawlCycleMs: number;
  crawlOffsetMs: number;
  readonly code: string;
  /** The provider's id of this instance: searchable always, shown only by some tribunals (TribunalDef.showsLawsuitId). */
  readonly lawsuitId: string;
  hasAttachments: boolean;
  freeJustice: boolean | undefined;
}

/** Share of odd indexes that are the second instance of the case just before them (kinds with appeals). */
const TWIN_PERCENT = 12;
/** Share of cases with a public entity on one side (tax enforcement, criminal actions, social security...). */
const PUBLIC_PERCENT = 30;
/** Share of the second instances of kinds that have them that are interlocutory appeals with their own number. */
const INTERLOCUTORY_PERCENT = 25;
/** Share of the other second instances, for kinds that can reach one, that are a superior court's case. */
const SUPERIOR_PERCENT = 10;
/** Electoral cases come in election years (even years), from August to early December. */
const ELECTION_SEASON_DAYS = 110;

const isPrivate = (t: TribunalDef) => (t.j === '8' || t.j === '5') && !t.superior;
const PRIVATE_TRIBUNALS = TRIBUNALS.filter(isPrivate);
const PRIVATE_CUM = cumulate(PRIVATE_TRIBUNALS.map((t) => t.weight));
const FEDERAL_TRIBUNALS = TRIBUNALS.filter((t) => t.j === '4');
const FEDERAL_CUM = cumulate(FEDERAL_TRIBUNALS.map((t) => t.weight));
/** The electoral courts by their share of the electorate. */
const ELECTORAL: Array<[TribunalDef, number]> = [[TRIBUNAL_BY_ACRONYM.get('TRE-SP')!, 4], [TRIBUNAL_BY_ACRONYM.get('TRE-RJ')!, 2], [TRIBUNAL_BY_ACRONYM.get('TRE-MG')!, 2]];

function pickWeighted<T>(items: ReadonlyArray<[T, number]>, u: number): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = u * total;
  for (const [item, w] of items) { if (x < w) return item; x -= w; }
  return items[items.length - 1][0];
}

const yearOf = (ms: number) => String(new Date(ms).getUTCFullYear());

/** The first instance's tribunal of a case of this kind brought by (or against) this entity. */
function tribunalOf(kind: CaseKind, entity: PublicEntity | undefined, u: number): TribunalDef {
  if (kind.justice === '6') return pickWeighted(ELECTORAL, u);
  const own = entity?.tribunal;
  if (own && own.j === kind.justice) return own;
  // A state's military court hears the state prosecutor's cases against its military police.
  if (own) return TRIBUNALS.find((t) => t.j === kind.justice && t.uf === own.uf && !t.superior)!;
  if (kind.justice === '4') return weighted(FEDERAL_TRIBUNALS, FEDERAL_CUM, u);
  return weighted(PRIVATE_TRIBUNALS, PRIVATE_CUM, u);
}

export class Planner {
  private readonly cnjPerm: Perm;
  private readonly idPerm: Perm;
  private readonly pubPerm: Perm;
  /** The business of a case's counterpart (parties.ts), which its subjects depend on; set by the universe. */
  sectorOf: (p: Plan) => Sector | undefined = () => undefined;
  /** When second instance i of base case `base` is distributed (timeline.ts: after the base's life); set by the universe. */
  twinDistribution: (base: Plan, kind: AppealKind, i: number) => number = (base) => base.distributionMs;
  constructor(readonly seed: number, readonly count: number, readonly entities: PublicEntities) {
    this.cnjPerm = new Perm(10_000_000, hash(seed, 401));
    this.idPerm = new Perm(2 ** 31, hash(seed, 402));
    this.pubPerm = new Perm(count, hash(seed, 406));
  }

  private isPublicBase(b: number): boolean {
    return hash(this.seed, 30, b) % 100 < PUBLIC_PERCENT;
  }

  /** Kind, entity and first-instance tribunal of base case b, as drawn (before the rite may change the kind). */
  private drawCase(b: number): { kind: CaseKind; entity: PublicEntity | undefined; tribunal: TribunalDef } {
    const seed = this.seed;
    if (this.isPublicBase(b)) {
      const entity = this.entities.ofSlot(this.pubPerm.forward(b));
      const kind = pickWeighted(entity.kinds, unit(hash(seed, 32, b)));
      return { kind, entity, tribunal: tribunalOf(kind, entity, unit(hash(seed, 10, b))) };
    }
    const tribunal = tribunalOf({ justice: '8' } as CaseKind, undefined, unit(hash(seed, 10, b)));
    return { kind: pickWeighted(PRIVATE_KINDS[tribunal.j as '8' | '5'], unit(hash(seed, 32, b))), entity: undefined, tribunal };
  }

  isTwin(i: number): boolean {
    return (i & 1) === 1 && hash(this.seed, 1, i - 1) % 100 < TWIN_PERCENT && this.drawCase(i - 1).kind.appealClass !== undefined;
  }

  baseOf(i: number): number {
    return this.isTwin(i) ? i - 1 : i;
  }

  /** What kind of second instance twin i is (drawn from its own hashes and its base's kind). */
  private appealKindOf(i: number, kind: CaseKind): AppealKind {
    const h = hash(this.seed, 40, i);
    if (kind.interlocutoryAppeals && h % 100 < INTERLOCUTORY_PERCENT) return 'interlocutory';
    return kind.superior && hash(this.seed, 59, i) % 100 < SUPERIOR_PERCENT ? 'superior' : 'appeal';
  }

  twinKind(base: number): AppealKind {
    return base + 1 < this.count && this.isTwin(base + 1) ? this.appealKindOf(base + 1, this.resolvedKind(base)) : 'none';
  }

  /** The kind after the rite: a labour claim up to 40 minimum wages is sumaríssimo, a federal one above 60 leaves the JEF. */
  private resolvedKind(b: number): CaseKind {
    return this.riteOf(b, this.drawCase(b).kind).kind;
  }

  private riteOf(b: number, drawn: CaseKind): { kind: CaseKind; amount: number; distributionMs: number } {
    const ha = hash(this.seed, 13, b);
    const distributionMs = this.distributionOf(b, drawn);
    const range = drawn.amountLog10;
    let amount = !range || ha % 25 === 0 ? 0 : Math.round(10 ** (range[0] + unit(ha) * (range[1] - range[0]))) + (ha % 100) / 100;
    const c = drawn.ceiling;
    if (!c || amount === 0) return { kind: drawn, amount, distributionMs };
    const limit = c.wages * minimumWageAt(distributionMs);
    if (amount <= limit) return { kind: c.within ? KINDS[c.within as KindName] : drawn, amount, distributionMs };
    if (c.above) return { kind: KINDS[c.above as KindName], amount, distributionMs };
    if (c.within) return { kind: drawn, amount, distributionMs };
    // A claim kept under the ceiling: a consumer asks for what the small-claims court can give.
    amount = Math.round(limit * (0.35 + 0.65 * unit(hash(this.seed, 27, b)))) + (ha % 100) / 100;
    return { kind: drawn, amount: Math.min(amount, limit), distributionMs };
  }

  /** Distribution of base b: uniform over the years, electoral cases in an election season. */
  private distributionOf(b: number, kind: CaseKind): number {
    const u = unit(hash(this.seed, 11, b));
    if (kind.justice !== '6') return FIRST_DISTRIBUTION + Math.floor(u * (LAST_DISTRIBUTION - FIRST_DISTRIBUTION));
    const election = 2008 + 2 * Math.floor(u * 10);
    return Date.UTC(election, 7, 16) + Math.floor(unit(hash(this.seed, 12, b)) * ELECTION_SEASON_DAYS * DAY_MS);
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

  /** Subjects of a case: one to three of its kind's, by the counterpart's business where the kind says so. */
  private subjectsOf(base: number, kind: CaseKind, sector: Sector | undefined): string[] {
    const list = (sector && kind.subjectsBySector?.[sector]) || kind.subjects;
    const h = hash(this.seed, 26, base);
    const n = 1 + (h % 10 < 6 ? 0 : h % 10 < 9 ? 1 : 2);
    const out: string[] = [];
    for (let k = 0; k < n; k++) {
      const s = list[hash(this.seed, 20 + k, base) % list.length];
      if (!out.includes(s)) out.push(s);
    }
    return out;
  }

  plan(i: number): Plan {
    const seed = this.seed;
    const base = this.baseOf(i);
    const twin = base !== i;
    const hb = (k: number) => hash(seed, 10 + k, base);
    const hi = (k: number) => hash(seed, 40 + k, i);

    const drawn = this.drawCase(base);
    const { entity } = drawn;
    const { kind, amount, distributionMs: baseDist } = this.riteOf(base, drawn.kind);
    const first = drawn.tribunal;
    const places = placesFor(first, kind.group, entity?.city);
    const where = places[hb(5) % places.length];
    const baseOrigin = where.origins[hb(6) % where.origins.length];

    const appeal: AppealKind = twin ? this.appealKindOf(i, kind) : 'none';
    const tribunal = appeal === 'superior' ? TRIBUNAL_BY_ACRONYM.get(kind.superior!.court)! : first;
    const classCode = appeal === 'interlocutory' ? '202' : appeal === 'superior' ? kind.superior!.class : twin ? kind.appealClass! : kind.classes[hb(7) % kind.classes.length];
    const hs = hb(4) % 1000;
    // Family cases run under judicial secrecy (segredo de justiça) as a rule.
    const secrecy = kind === KINDS.alimony
      ? (hs < 300 ? 1 : hs < 750 ? 2 : hs < 950 ? 3 : 5)
      : (hs < 900 ? 0 : hs < 940 ? 1 : hs < 960 ? 2 : hs < 980 ? 3 : hs < 995 ? 4 : 5);
    // Some courts move a case fast, most at their ordinary pace; an election's courts in days.
    const pace = kind.justice === '6' ? 0.15 : hi(3) % 100 < 6 ? 0.4 : 0.7 + 0.8 * unit(hi(4));
    const { crawlCycleMs, crawlOffsetMs } = this.crawlOf(i);
    // The number and the id are strings with check digits: built only when asked for (a search verifies
    // thousands of candidates and needs neither); a twin's distribution and a case's subjects likewise.
    const own = appeal === 'interlocutory' || appeal === 'superior';
    let code: string | undefined;
    let lawsuitId: string | undefined;
    let distributionMs: number | undefined = twin ? undefined : baseDist;
    let subjects: string[] | undefined;
    const planner = this;
    const plan: Plan = {
      index: i, base, instance: appeal === 'superior' ? 3 : twin ? 2 : 1, appeal, kind, entity, tribunal, uf: first.uf,
      origin: appeal === 'superior' ? '0000' : baseOrigin, city: appeal === 'superior' ? tribunal.cities[0] : where.city, courtPick: unit(hi(9)),
      classCode, amount, baseDistributionMs: baseDist, secrecy, pace, crawlCycleMs, crawlOffsetMs,
      get subjectCodes() {
        return (subjects ??= planner.subjectsOf(base, kind, planner.sectorOf(plan)));
      },
      get distributionMs() {
        return (distributionMs ??= planner.twinDistribution(planner.plan(base), appeal, i));
      },
      get code() {
        if (code === undefined) {
          const n7 = String(planner.cnjPerm.forward(own ? i : base)).padStart(7, '0');
          const year = yearOf(own ? plan.distributionMs : baseDist);
          const numberOrigin = own ? '0000' : baseOrigin;
          code = formatCnj(n7, cnjCheckDigits(n7, year, tribunal.j, tribunal.tr, numberOrigin), year, tribunal.j, tribunal.tr, numberOrigin);
        }
        return code;
      },
      get lawsuitId() {
        return (lawsuitId ??= planner.lawsuitId(i));
      },
      hasAttachments: hi(10) % 100 < 25, freeJustice: hi(11) % 3 === 0 ? undefined : hi(11) % 3 === 1,
    };
    return plan;
  }

  /**
   * How often the service database re-crawls lawsuit i (every 1 to 30 days) and at what phase: drawn from i's own
   * hashes alone, so that whether a lawsuit was re-crawled between two instants is known without its plan.
   */
  crawlOf(i: number): { crawlCycleMs: number; crawlOffsetMs: number } {
    const crawlCycleMs = (1 + (hash(this.seed, 47, i) % 30)) * DAY_MS;
    return { crawlCycleMs, crawlOffsetMs: hash(this.seed, 48, i) % crawlCycleMs };
  }

  /** When the service database last crawled lawsuit i, as seen at time t (lags t by less than 30 days). */
  snapshotMs(p: Pick<Plan, 'crawlCycleMs' | 'crawlOffsetMs'>, t: number): number {
    return p.crawlOffsetMs + Math.floor((t - p.crawlOffsetMs) / p.crawlCycleMs) * p.crawlCycleMs;
  }

  /** The first crawl at or after instant `ms` (a lawsuit distributed at `ms` is in the database from then on). */
  firstCrawlFrom(p: Pick<Plan, 'crawlCycleMs' | 'crawlOffsetMs'>, ms: number): number {
    return p.crawlOffsetMs + Math.ceil((ms - p.crawlOffsetMs) / p.crawlCycleMs) * p.crawlCycleMs;
  }
}
