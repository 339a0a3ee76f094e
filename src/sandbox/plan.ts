// The numeric skeleton of one lawsuit: everything that does not depend on the time of observation, derived
// from hash(seed, i). Strings and objects are built later, only for lawsuits actually returned.
//
// Index i is a first-instance case (a base) unless it is odd and drawn as the child of the case just before it
// (a twin): an appeal heard under the base's own number; an interlocutory appeal (Agravo de Instrumento), which the
// appellate body numbers anew (OOOO 0000); now and then a superior court's case (STJ, TST) reached by appeal from
// the appellate court, numbered TR 00, OOOO 0000; or, at the base's own unit and under a number of its own,
// distributed by dependency, the execution of its judgment or the debtor's embargos against it. Where a base is
// filed and when (its unit, year and place in the year, hence its number) is read off its index (cells.ts);
// everything else about the case (kind, parties, subjects, value) comes from the base, so every instance agrees
// with the others; when a twin is distributed comes from the base's life (timeline.ts).

import { KINDS, type CaseKind, type Topic } from './case-kinds.js';
import { filingInstant, localYear } from './calendar.js';
import { Slots, type Slot } from './cells.js';
import { cnjCheckDigits, formatCnj } from './check-digits.js';
import type { Sector } from './company-names.js';
import { systemOf } from './court-systems.js';
import { DAY_MS } from './days.js';
import { minimumWageIn } from './minimum-wage.js';
import { localInstantOf, Numbering, type OwnNumberChild } from './numbering.js';
import type { PublicEntity } from './public-entities.js';
import { hash, Perm, unit, uuidFrom } from './random.js';
import { tpuSubject } from './tpu.js';
import { TRIBUNAL_BY_ACRONYM, type TribunalDef } from './tribunals.js';
import { seatOf, unitByCode, type Unit } from './units.js';

export type AppealKind = 'none' | 'appeal' | 'interlocutory' | 'superior' | 'execution' | 'dependency';

export interface Plan {
  index: number;
  /** Index of the first-instance lawsuit of this case (itself when it is one). */
  base: number;
  /** 1 first instance (a base, or an execution or embargos opened from it), 2 appellate court, 3 superior court. */
  instance: number;
  appeal: AppealKind;
  kind: CaseKind;
  /** The public entity that stands in the case, for the kinds that have one. */
  entity: PublicEntity | undefined;
  /** The tribunal of this instance. */
  tribunal: TribunalDef;
  /** The case's first-instance unit. */
  unit: Unit;
  /** State of the first instance's unit (where the case's lawyers mostly come from). */
  uf: string;
  /** The state whose calendar and clock this instance's court keeps (the unit's; an appellate court's seat). */
  courtUf: string;
  /** OOOO of this instance's number: the unit's, or 0000 for a number of the appellate body or a superior court. */
  origin: string;
  /** Where the number's unit sits (the county is the city's). */
  city: string;
  state: string;
  courtPick: number;
  /** What the case is about, where its kind draws topics (a crime, a benefit): computed when first read. */
  readonly topic: Topic | undefined;
  readonly classCode: string;
  /** Subjects (TPU), drawn by the kind, its topic and the counterpart's business: computed when first read. */
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
  /** The procedural system the case lives in (court-systems.ts), as of its distribution. */
  readonly system: string;
  /** The provider's id of this instance: searchable always, shown only by some tribunals (TribunalDef.showsLawsuitId). */
  readonly lawsuitId: string;
  hasAttachments: boolean;
  /** The defendant has no lawyer, and so never answers: the case runs in default (revelia), and has no child. */
  defendantUnrepresented: boolean;
}

/** Share of defendants (private parties of civil, labour and execution cases) who never take a lawyer. */
const UNREPRESENTED_PERCENT = 20;
/** Tribunals whose system (e-SAJ) gives the execution of a judgment a number of its own. */
const EXECUTION_APART: ReadonlySet<string> = new Set(['TJSP', 'TJCE', 'TJAL']);

const pick = <T>(items: ReadonlyArray<readonly [T, number]>, u: number): T => {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = u * total;
  for (const [item, w] of items) { if (x < w) return item; x -= w; }
  return items[items.length - 1][0];
};

/** The class of a list by the law in force at `ms` ([from ms, class], newest last). */
const classAt = (list: ReadonlyArray<readonly [number, string]>, ms: number): string => {
  let c = list[0][1];
  for (const [from, code] of list) if (from <= ms) c = code;
  return c;
};

/** Whether a subject exists at `ms` (a subject named after a law exists from that law). */
const exists = (code: string, ms: number) => (tpuSubject(code).since ?? 0) <= ms;

/** Plans kept (a few hundred small objects). */
const KEPT_PLANS = 256;

export class Planner {
  private readonly idPerm: Perm;
  private readonly kept = new Map<number, Plan>();
  /** The child each recent base can have: a lawsuit's rendering asks it of its case several times. */
  private readonly children = new Map<number, AppealKind>();
  readonly slots: Slots;
  readonly numbering: Numbering;
  /** The business of a case's counterpart (parties.ts), which its subjects depend on; set by the universe. */
  sectorOf: (p: Plan) => Sector | undefined = () => undefined;
  /** Whether the claimant is a woman (parties.ts), which a topic may require; set by the universe. */
  claimantIsWoman: (p: Plan) => boolean = () => true;
  /** When second instance i of base case `base` is distributed (timeline.ts: after the base's life); set by the universe. */
  twinDistribution: (base: Plan, kind: AppealKind, i: number) => number = (base) => base.distributionMs;
  constructor(readonly seed: number, readonly count: number) {
    this.idPerm = new Perm(2 ** 31, hash(seed, 402));
    this.slots = new Slots(seed, count);
    this.numbering = new Numbering(seed, this.slots);
  }

  /** Where base b is filed, who brings it there and what kind of case it is (before the rite may change the kind). */
  private drawCase(b: number): { slot: Slot; kind: CaseKind; entity: PublicEntity | undefined } {
    const slot = this.slots.slotOf(b);
    return { slot, kind: pick(slot.cell.kinds, unit(hash(this.seed, 32, b))), entity: slot.cell.entity };
  }

  /** Whether base b's defendant never takes a lawyer: a private party of a case where one may stay silent. */
  private unrepresented(b: number, kind: CaseKind): boolean {
    const mayBeSilent = kind.passive !== 'entity' && kind.procedure !== 'criminal' && kind.procedure !== 'electoral';
    return mayBeSilent && hash(this.seed, 603, b) % 100 < UNREPRESENTED_PERCENT;
  }

  /**
   * The child base b can have, read off its place in its unit's year (numbering.ts: an eighth of the places have
   * one, and numbers each kind apart from its own places): a superior court's case, an agravo, an execution or
   * embargos where its kind has them, else an appeal. A case whose defendant never answers has none.
   */
  private childOf(b: number): AppealKind {
    const kept = this.children.get(b);
    if (kept) return kept;
    const child = this.drawChild(b);
    if (this.children.size >= KEPT_PLANS * 4) this.children.delete(this.children.keys().next().value!);
    this.children.set(b, child);
    return child;
  }

  private drawChild(b: number): AppealKind {
    const { slot, kind: drawn } = this.drawCase(b);
    const at = this.numbering.childAt(slot);
    if (at === undefined) return 'none';
    const kind = this.riteOf(b, drawn, slot.year).kind;
    if (kind.appealClass === undefined || this.unrepresented(b, kind)) return 'none';
    switch (at) {
      case 'superior': return kind.superior ? 'superior' : 'appeal';
      case 'interlocutory': return kind.interlocutoryAppeals ? 'interlocutory' : 'appeal';
      case 'execution': return kind.children?.execution && EXECUTION_APART.has(slot.unit.tribunal.acronym) ? 'execution' : 'appeal';
      case 'dependency': return kind.children?.dependency ? 'dependency' : 'appeal';
      default: return 'appeal';
    }
  }

  /** Whether index i is the child of the case before it: i is odd and that case's place in its year gives it one. */
  isTwin(i: number): boolean {
    return (i & 1) === 1 && this.childOf(i - 1) !== 'none';
  }

  baseOf(i: number): number {
    return this.isTwin(i) ? i - 1 : i;
  }

  twinKind(base: number): AppealKind {
    return base + 1 < this.count && this.isTwin(base + 1) ? this.childOf(base) : 'none';
  }

  /** The kind after the rite, and the value: a labour claim up to 40 minimum wages is sumaríssimo, a consumer asks what the JEC can give. */
  private riteOf(b: number, drawn: CaseKind, year: number): { kind: CaseKind; amount: number } {
    const ha = hash(this.seed, 13, b);
    const range = drawn.amountLog10;
    if (!range || ha % 25 === 0) return { kind: drawn, amount: 0 };
    const cents = (ha % 100) / 100;
    const c = drawn.ceiling ?? KINDS.socialSecurity.ceiling;
    const limit = c.wages * minimumWageIn(year);
    let [lo, hi] = range;
    // The unit already says which side of the federal small-claims ceiling a social-security claim is on (cells.ts).
    if (drawn === KINDS.socialSecurity) hi = Math.min(hi, Math.log10(limit));
    if (drawn === KINDS.socialSecurityOrdinary) lo = Math.max(lo, Math.log10(limit) + 1e-6);
    let amount = Math.round(10 ** (lo + unit(ha) * (hi - lo))) + cents;
    if (drawn === KINDS.socialSecurity) amount = Math.min(amount, limit);
    if (!drawn.ceiling) return { kind: drawn, amount };
    if (drawn.ceiling.within) return { kind: amount <= limit ? KINDS[drawn.ceiling.within as keyof typeof KINDS] : drawn, amount };
    if (drawn.ceiling.above || amount <= limit) return { kind: drawn, amount };
    // A claim kept under the ceiling: a consumer asks for what the small-claims court can give.
    amount = Math.round(limit * (0.35 + 0.65 * unit(hash(this.seed, 27, b)))) + cents;
    return { kind: drawn, amount: Math.min(amount, limit) };
  }

  /** The instant base b was distributed: its place in its unit's year, at a filing hour of that day. */
  private distributionOf(b: number, slot: Slot): { ms: number; sequence: number } {
    const { sequence, fraction } = this.numbering.base(b, slot);
    return { ms: filingInstant(localInstantOf(slot.unit, slot.year, fraction), slot.unit.uf), sequence };
  }

  /** The state of base b's unit (its lawyers' section, mostly). */
  ufOf(b: number): string {
    return this.slots.slotOf(b).unit.uf;
  }

  /** The public entity that stands in lawsuit i's case (its cell's), if any. */
  entityOf(i: number): number | undefined {
    return this.slots.slotOf(this.baseOf(i)).cell.entity?.index;
  }

  /** Base lawsuits in which public entity e stands. */
  lawsuitsOfEntity(e: number): number[] {
    return this.slots.indexesOfEntity(e).filter((b) => !this.isTwin(b));
  }

  /** The index a CNJ number (digits) would be the lawsuit of, if any (before verification of the whole number). */
  indexOfCode(d: string): number | undefined {
    const [j, tr, origin] = [d.slice(13, 14), d.slice(14, 16), d.slice(16, 20)];
    const year = Number(d.slice(9, 13));
    const superior = tr === '00' ? (j === '3' ? TRIBUNAL_BY_ACRONYM.get('STJ') : j === '5' ? TRIBUNAL_BY_ACRONYM.get('TST') : undefined) : undefined;
    if (tr === '00') return superior && origin === '0000' ? this.numbering.indexOf(superior, undefined, year, Number(d.slice(0, 7)), origin) : undefined;
    if (origin === '0000') {
      const court = [...TRIBUNAL_BY_ACRONYM.values()].find((t) => t.j === j && t.tr === tr && !t.superior);
      return court && this.numbering.indexOf(court, undefined, year, Number(d.slice(0, 7)), origin);
    }
    const u = unitByCode(j, tr, origin);
    const i = u && this.numbering.indexOf(u.tribunal, u, year, Number(d.slice(0, 7)), origin);
    return i !== undefined && i < this.count ? i : undefined;
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

  /** A case's topic: drawn by its weight; a topic only a woman claims goes to the next one when the claimant is a man. */
  topicOf(base: number, kind: CaseKind, woman: () => boolean): Topic | undefined {
    const topics = kind.topics;
    if (!topics) return undefined;
    const drawn = pick(topics.map((t) => [t, t.weight] as const), unit(hash(this.seed, 33, base)));
    if (!drawn.woman || woman()) return drawn;
    return topics.find((t) => !t.woman)!;
  }

  /** Subjects of a case: its topic's, or one to three of its kind's (by the counterpart's business), all existing at `ms`. */
  subjectsOf(base: number, kind: CaseKind, topic: Topic | undefined, sector: Sector | undefined, ms: number): string[] {
    if (topic) return topic.subjects.filter((s) => exists(s, ms));
    const list = ((sector && kind.subjectsBySector?.[sector]) || kind.subjects).filter((s) => exists(s, ms));
    const h = hash(this.seed, 26, base);
    const n = 1 + (h % 10 < 6 ? 0 : h % 10 < 9 ? 1 : 2);
    const out: string[] = [];
    for (let k = 0; k < n; k++) {
      const s = list[hash(this.seed, 20 + k, base) % list.length];
      if (!out.includes(s)) out.push(s);
    }
    return out;
  }

  /** The secrecy level: family cases and domestic violence by law; tax executions, small claims and elections never. */
  secrecyOf(kind: CaseKind, topic: Topic | undefined, h: number): number {
    const hs = h % 1000;
    if (kind === KINDS.alimony) return hs < 300 ? 1 : hs < 750 ? 2 : hs < 950 ? 3 : 5;
    if (topic?.secret) return hs < 600 ? 1 : hs < 900 ? 2 : 3;
    if (kind.procedure === 'taxExecution' || kind.procedure === 'electoral' || kind.classes.includes('436')) return 0;
    // Elsewhere now and then (a judge's order: a company's accounts, a patient's records), at the same levels' shares.
    return hs < 960 ? 0 : hs < 976 ? 1 : hs < 984 ? 2 : hs < 992 ? 3 : hs < 998 ? 4 : 5;
  }

  /**
   * Lawsuit i's plan. The last few are kept: rendering a lawsuit reads its case's other instance (the related
   * lawsuit, the appellant's side, the child's date) and a search verifies a case and its twin in a row.
   */
  plan(i: number): Plan {
    const kept = this.kept.get(i);
    if (kept) return kept;
    const p = this.draw(i);
    if (this.kept.size >= KEPT_PLANS) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(i, p);
    return p;
  }

  private draw(i: number): Plan {
    const seed = this.seed;
    const base = this.baseOf(i);
    const twin = base !== i;
    const hi = (k: number) => hash(seed, 40 + k, i);
    const { slot, kind: drawn, entity } = this.drawCase(base);
    const { kind, amount } = this.riteOf(base, drawn, slot.year);
    const u = slot.unit;
    const appeal: AppealKind = twin ? this.childOf(base) : 'none';
    const tribunal = appeal === 'superior' ? TRIBUNAL_BY_ACRONYM.get(kind.superior!.court)! : u.tribunal;
    const instance = appeal === 'superior' ? 3 : appeal === 'appeal' || appeal === 'interlocutory' ? 2 : 1;
    const own = appeal === 'interlocutory' || appeal === 'superior';
    const where = own ? seatOf(tribunal) : { city: u.city, uf: u.uf };
    const { sequence, ms } = this.distributionOf(base, slot);
    const { crawlCycleMs, crawlOffsetMs } = this.crawlOf(i);
    return new CasePlan(this, slot, sequence, {
      index: i, base, instance, appeal, kind, entity, tribunal, unit: u, uf: u.uf, courtUf: instance === 1 ? u.uf : seatOf(tribunal).uf,
      origin: own ? '0000' : u.origin, city: where.city, state: where.uf,
      // An execution and embargos go to the very court of the case they depend on.
      courtPick: unit(appeal === 'execution' || appeal === 'dependency' ? hash(seed, 49, base) : hi(9)),
      amount, baseDistributionMs: ms,
      // Some courts move a case fast, most at their ordinary pace; an election's courts in days.
      pace: kind.justice === '6' ? 0.15 : hi(3) % 100 < 6 ? 0.4 : 0.7 + 0.8 * unit(hi(4)),
      crawlCycleMs, crawlOffsetMs, hasAttachments: hi(10) % 100 < 25, defendantUnrepresented: this.unrepresented(base, kind),
    });
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


/** The plain fields of a plan, drawn at once. */
type Drawn = Omit<Plan, 'topic' | 'classCode' | 'subjectCodes' | 'distributionMs' | 'code' | 'system' | 'lawsuitId' | 'secrecy'>;

/**
 * A plan: its plain fields, and what is built only when asked for (a search verifies thousands of candidates and
 * needs none of it): the topic, the class, the subjects, a twin's date, the number, the system, the id.
 */
// The plain fields are copied in from the drawing: declaration merging gives the class their types.
interface CasePlan extends Drawn {}
class CasePlan implements Plan {
  readonly secrecy: number;
  /** null: not drawn yet (a topic only a woman claims waits for the parties). */
  private topicDrawn: Topic | undefined | null;
  private codeBuilt?: string;
  private idBuilt?: string;
  private dateOfTwin?: number;
  private subjectsDrawn?: string[];

  constructor(private readonly planner: Planner, private readonly slot: Slot, private readonly sequence: number, drawn: Drawn) {
    Object.assign(this, drawn);
    // A topic that does not depend on the parties is known at once (a crime decides the class, the law the secrecy).
    this.topicDrawn = this.kind.topics?.some((t) => t.woman) ? null : planner.topicOf(this.base, this.kind, () => true);
    this.secrecy = planner.secrecyOf(this.kind, this.topicDrawn ?? undefined, hash(planner.seed, 14, this.base));
  }

  get topic(): Topic | undefined {
    if (this.topicDrawn === null) this.topicDrawn = this.planner.topicOf(this.base, this.kind, () => this.planner.claimantIsWoman(this));
    return this.topicDrawn;
  }

  get classCode(): string {
    const kind = this.kind;
    switch (this.appeal) {
      case 'interlocutory': return '202';
      case 'superior': return kind.superior!.class;
      case 'appeal': return kind.appealClass!;
      case 'execution': return classAt(kind.children!.execution!, this.distributionMs);
      case 'dependency': return kind.children!.dependency!;
      default: {
        const t = this.topic;
        return t?.classes ? classAt(t.classes, this.baseDistributionMs) : kind.classes[hash(this.planner.seed, 17, this.base) % kind.classes.length];
      }
    }
  }

  get subjectCodes(): string[] {
    return (this.subjectsDrawn ??= this.planner.subjectsOf(this.base, this.kind, this.topic, this.planner.sectorOf(this), this.baseDistributionMs));
  }

  get distributionMs(): number {
    if (this.appeal === 'none') return this.baseDistributionMs;
    return (this.dateOfTwin ??= this.planner.twinDistribution(this.planner.plan(this.base), this.appeal, this.index));
  }

  /** A number's year is its case's distribution year (an appeal is heard under its first instance's number). */
  private get numberYear(): number {
    return this.appeal === 'none' || this.appeal === 'appeal' ? this.slot.year : localYear(this.distributionMs, this.courtUf);
  }

  get system(): string {
    return systemOf(this.tribunal, this.numberYear, this.origin).system;
  }

  get code(): string {
    if (this.codeBuilt === undefined) {
      const year = this.numberYear;
      const t = this.tribunal;
      const own = this.appeal !== 'none' && this.appeal !== 'appeal';
      const n7 = String(own ? this.planner.numbering.child(this.appeal as OwnNumberChild, this.base, this.slot, year, t, this.origin) : this.sequence).padStart(7, '0');
      const y = String(year);
      this.codeBuilt = formatCnj(n7, cnjCheckDigits(n7, y, t.j, t.tr, this.origin), y, t.j, t.tr, this.origin);
    }
    return this.codeBuilt;
  }

  get lawsuitId(): string {
    return (this.idBuilt ??= this.planner.lawsuitId(this.index));
  }
}
