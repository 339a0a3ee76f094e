// The synthetic universe: N lawsuits that exist only as functions of (seed, index, time). Nothing is
// materialised, so a million lawsuits cost no more memory than a thousand; the inverse lookups (document,
// name, CNJ number, lawsuit id -> lawsuits) walk the seeded bijections of plan.ts and parties.ts.

import { isValidCnj } from './check-digits.js';
import type { Levels } from './dialect.js';
import { buildLawsuit, type Json, type RelatedLawsuit, type Relation, type Shape } from './lawsuit-object.js';
import { Cast, type InternalParty, type PartyKind } from './parties.js';
import { Planner, type AppealKind, type Plan } from './plan.js';
import { PublicEntities } from './public-entities.js';
import { normalizeName } from './text.js';
import { UFS } from './vocab.js';
import { lifeOf, secondInstanceDistribution, sidesSwapped, stepsUpTo, type StepPoint } from './timeline.js';

/** How a case names the child it has: an appeal (to the appellate or a superior court), an agravo, an execution, embargos. */
const RELATION: Record<Exclude<AppealKind, 'none'>, Relation> = {
  appeal: 'appeal', superior: 'appeal', interlocutory: 'interlocutory_appeal', execution: 'execution', dependency: 'dependency',
};

interface UniverseOptions {
  /** Seed of every generated value. Default 1. */
  seed?: number;
  /** Number of lawsuit instances. Default 20000; works at 1,000,000 with constant memory. */
  lawsuits?: number;
}

export interface Observation {
  plan: Plan;
  readonly parties: InternalParty[];
  readonly steps: StepPoint[];
  /** The instant whose state is shown: t itself on demand, else the database's last crawl before t. */
  observedMs: number;
}

interface LawsuitViewOptions {
  onDemand?: boolean;
  shape?: Shape;
  privileged?: boolean;
  /** The dialect's level model (dialect.ts): headers for document searches, no tribunal without last_step. Default 'one'. */
  levels?: Levels;
  /** The read asked `with_attachments` (a whole lawsuit lists its attachments only then). */
  withAttachments?: boolean;
}

export class Universe {
  readonly seed: number;
  readonly count: number;
  readonly planner: Planner;
  readonly cast: Cast;
  readonly entities: PublicEntities;

  constructor(opts: UniverseOptions = {}) {
    this.seed = opts.seed ?? 1;
    this.count = Math.max(2, Math.floor(opts.lawsuits ?? 20000));
    this.cast = new Cast(this.seed, this.count);
    this.entities = new PublicEntities();
    this.planner = new Planner(this.seed, this.count);
    this.planner.sectorOf = (p) => this.cast.sectorOf(p);
    this.planner.claimantIsWoman = (p) => this.cast.claimantIsWoman(p);
    this.planner.twinDistribution = (base, kind, i) => secondInstanceDistribution(this.planner, base, kind, i);
  }

  plan(i: number): Plan {
    return this.planner.plan(i);
  }

  /** The parties of a lawsuit on the sides its instance gives them (the party that appeals is the active one). */
  private partiesOf(plan: Plan): InternalParty[] {
    return this.cast.parties(plan, plan.appeal !== 'none' && sidesSwapped(this.planner, plan));
  }

  parties(i: number): InternalParty[] {
    return this.partiesOf(this.plan(i));
  }

  /**
   * The lawsuits of the same case that a lawsuit names at instant `ms`: the child born from it, once distributed;
   * from the child, its origin.
   */
  related(plan: Plan, ms: number): RelatedLawsuit[] {
    if (plan.appeal !== 'none') {
      const origin = this.plan(plan.base);
      return [{ code: origin.code, instance: origin.instance, relation: 'origin' }];
    }
    const kind = this.planner.twinKind(plan.index);
    if (kind === 'none') return [];
    const child = this.plan(plan.index + 1);
    return child.distributionMs <= ms ? [{ code: child.code, instance: child.instance, relation: RELATION[kind] }] : [];
  }

  /** Which instant of lawsuit i a caller at time t sees (the database lags by its crawl cycle, < 30 days). */
  observedAt(plan: Plan, t: number, onDemand: boolean): number {
    return onDemand ? t : this.planner.snapshotMs(plan, t);
  }

  /** The first instant a caller sees lawsuit p: its distribution on demand, else the database's first crawl after it. */
  visibleFrom(plan: Plan, onDemand: boolean): number {
    return onDemand ? plan.distributionMs : this.planner.firstCrawlFrom(plan, plan.distributionMs);
  }

  /** The date of lawsuit i's first step after instant `ms` (Infinity once its life has no more). */
  nextStepAfter(i: number, ms: number): number {
    return lifeOf(this.planner, this.plan(i)).find((s) => s.dateMs > ms)?.dateMs ?? Number.POSITIVE_INFINITY;
  }

  /** The state of lawsuit i as seen at t, or undefined if it does not exist (yet) for that caller. */
  observe(i: number, t: number, onDemand = false): Observation | undefined {
    const plan = this.plan(i);
    const observedMs = this.observedAt(plan, t, onDemand);
    if (plan.distributionMs > observedMs) return undefined;
    // Parties and steps are built when first asked for: a search filters most candidates on the plan alone.
    let parties: InternalParty[] | undefined;
    let steps: StepPoint[] | undefined;
    const planner = this.planner;
    const of = (p: Plan) => this.partiesOf(p);
    return {
      plan, observedMs,
      get parties() { return (parties ??= of(plan)); },
      get steps() { return (steps ??= stepsUpTo(planner, plan, observedMs)); },
    };
  }

  render(o: Observation, shape: Shape = 'full', privileged = false, levels: Levels = 'one', withAttachments = false): Json {
    return buildLawsuit(this.seed, o.plan, o.parties, o.steps, o.observedMs, { shape, privileged, levels, withAttachments }, this.related(o.plan, o.observedMs));
  }

  /** The lawsuit object of index i at time t. */
  lawsuit(i: number, t: number, opts: LawsuitViewOptions = {}): Json | undefined {
    const o = this.observe(i, t, opts.onDemand ?? false);
    return o && this.render(o, opts.shape ?? 'full', opts.privileged ?? false, opts.levels ?? 'one', opts.withAttachments ?? false);
  }

  /** Whether person `person` of pool `kind` is a party of lawsuit i (lawyers aside). */
  private holds(i: number, kind: PartyKind, person: number): boolean {
    // A public entity stands in every case of its cells (cells.ts): where the case was filed says so, without a plan.
    if (kind === 'entity') return this.planner.entityOf(i) === person;
    return this.cast.skeleton(this.plan(i)).some((q) => q.kind === kind && q.person === person);
  }

  /**
   * The lawsuits among these bases and their second instances that pass `keep`. Each instance is checked on its
   * own: an appeal names the parties of its first instance, but may add a lawyer of its own.
   */
  private withTwins(bases: Iterable<number>, keep: (i: number) => boolean): number[] {
    const out = new Set<number>();
    for (const b of bases) {
      if (b >= this.count || this.planner.isTwin(b)) continue;
      if (keep(b)) out.add(b);
      if (b + 1 < this.count && this.planner.isTwin(b + 1) && keep(b + 1)) out.add(b + 1);
    }
    return [...out].sort((a, c) => a - c);
  }

  /** Lawsuits where a party holds this CPF or CNPJ (normalised: digits, CNPJ letters upper case). */
  lawsuitsOfDocument(doc: string): number[] {
    const c = this.cast;
    if (doc.length === 11) {
      const p = c.individuals.fromDocument(doc);
      if (p === undefined) return [];
      return this.withTwins(c.candidatesOfIndividual(p), (i) => this.holds(i, 'individual', p));
    }
    const named = this.entities.fromDocument(doc);
    if (named.length > 0) {
      return this.withTwins(named.flatMap((e) => this.planner.lawsuitsOfEntity(e)), (i) => named.some((e) => this.holds(i, 'entity', e)));
    }
    const k = c.companies.fromDocument(doc);
    if (k === undefined) return [];
    return this.withTwins(c.candidatesOfCompany(k), (i) => this.holds(i, 'company', k));
  }

  /** Lawsuits where this lawyer acts, tied to a party or listed as a party (normalised OAB). */
  lawsuitsOfOab(oab: string): number[] {
    const l = this.cast.lawyers.fromOab(oab);
    if (l === undefined) return [];
    // A lawyer a big litigant or a public body retains is in that client's lawsuits.
    const uf = UFS[this.cast.lawyers.sectionOf(l)];
    const clients = this.cast.clientsOfLawyer(l, this.entities.list.length).flatMap((c) => {
      const bases = c.kind === 'company' ? this.cast.candidatesOfCompany(c.person) : this.planner.lawsuitsOfEntity(c.person);
      return this.cast.filterRetained(bases, c.firms).filter((b) => this.planner.ufOf(b) === uf);
    });
    return this.withTwins([...this.cast.candidatesOfLawyer(l), ...clients], (i) => this.cast.skeleton(this.plan(i)).some(
      (q) => (q.kind === 'lawyer' && q.person === l) || q.lawyers.includes(l)));
  }

  /** Lawsuits with a party of this name (case- and accent-insensitive): homonyms included. */
  lawsuitsOfName(name: string): number[] {
    const n = normalizeName(name);
    const c = this.cast;
    const bases: number[] = [];
    for (const p of c.individuals.withName(n)) bases.push(...c.candidatesOfIndividual(p));
    for (const k of c.companies.withName(n)) bases.push(...c.candidatesOfCompany(k));
    for (const l of c.lawyers.withName(n)) bases.push(...c.candidatesOfLawyer(l));
    for (const e of this.entities.withName(n)) bases.push(...this.planner.lawsuitsOfEntity(e));
    return this.withTwins(bases, (i) => this.parties(i).some((q) => normalizeName(q.name) === n));
  }

  /**
   * Every instance under this CNJ number (digits compared; check digits must be valid): a first instance and
   * the appeal heard under its number, or a case with a number of its own (an agravo, a superior court's case, an
   * execution or embargos). The number leads to its case (numbering.ts); the whole number is then compared.
   */
  lawsuitsOfCnj(code: string): number[] {
    const d = code.replace(/\D/g, '');
    if (d.length !== 20 || !isValidCnj(d)) return [];
    const i = this.planner.indexOfCode(d);
    if (i === undefined || i >= this.count) return [];
    const same = (x: number) => this.plan(x).code.replace(/\D/g, '') === d;
    if (this.planner.isTwin(i)) return same(i) ? [i] : [];
    return this.withTwins([i], same);
  }

  lawsuitsOfId(id: string): number[] {
    const i = this.planner.indexOfLawsuitId(id);
    return i === undefined ? [] : [i];
  }
}
