// Who takes part in each lawsuit. Party slots of all lawsuits are dealt to people through seeded bijections
// (Perm), so the inverse question "which lawsuits is person p in" walks only p's own slots. The parties of a
// case are decided once, by its first instance (base): every instance of one case names the same parties (an
// appeal may add a lawyer), whichever kind of appeal it is.

import type { Side } from './case-kinds.js';
import type { Sector } from './company-names.js';
import { Companies, Individuals, Lawyers, sectionIndex } from './people.js';
import { hash, Perm, unit } from './random.js';
import type { Plan } from './plan.js';
import type { SideName } from './vocab.js';

export type PartyKind = 'individual' | 'company' | 'lawyer' | 'entity';

interface InternalLawyer { lawyer: number; name: string; oab: string; side: SideName }

/** A party as indexes: its pool, its index there, its side, its lawyers' indexes. */
interface PartySkeleton { kind: PartyKind; person: number; side: SideName; lawyers: number[] }

export interface InternalParty {
  kind: PartyKind;
  /** Index in the pool of its kind (public entities: their index in PublicEntities). */
  person: number;
  name: string;
  /** CPF, CNPJ, or normalised OAB for a lawyer listed as a party. */
  document: string;
  documentType: 'CPF' | 'CNPJ' | 'OAB';
  side: SideName;
  personType: string;
  lawyers: InternalLawyer[];
}

const IND_SLOTS = 4;
const COMP_SLOTS = 2;
/** 0-1 the active side's lawyers, 2-3 the passive side's, 4-5 lawyers joining at the second instance. */
const LAW_SLOTS = 6;
/** Slots of a side's second lawyer: the only ones an intern may take, beside the side's first lawyer. */
const SECOND_LAWYER = new Set([1, 3]);
/** Share of the other slots given to counsel from another state's section (large firms act nationwide). */
const OUT_OF_STATE_PERCENT = 8;
/** Among the company slots of lawsuits distributed since July 2026, share going to the new companies. */
const NEW_COMPANY_PERCENT = 25;

export class Cast {
  readonly individuals: Individuals;
  readonly companies: Companies;
  readonly lawyers: Lawyers;
  private readonly indPerm: Perm;
  private readonly bigPerm: Perm;
  private readonly smallPerm: Perm;
  private readonly lawPerm: Perm;

  constructor(private readonly seed: number, private readonly count: number) {
    this.individuals = new Individuals(Math.ceil(count * 1.5) + 10, seed);
    const big = Math.max(10, Math.min(270, Math.round(count / 2000)));
    const small = Math.ceil(count / 25) + 10;
    const alnum = Math.max(4, Math.ceil(small * 0.05));
    this.companies = new Companies(big, small - alnum, alnum, seed);
    this.lawyers = new Lawyers(Math.ceil(count / 6) + 10, seed);
    this.indPerm = new Perm(count * IND_SLOTS, hash(seed, 501));
    this.bigPerm = new Perm(count * COMP_SLOTS, hash(seed, 502));
    this.smallPerm = new Perm(count * COMP_SLOTS, hash(seed, 504));
    this.lawPerm = new Perm(count * LAW_SLOTS, hash(seed, 503));
  }

  private individualAt(base: number, j: number): number {
    return this.indPerm.forward(base * IND_SLOTS + j) % this.individuals.count;
  }
  private companyAt(base: number, j: number, big: boolean, distributionMs: number): number {
    const c = this.companies;
    if (big) return this.bigPerm.forward(base * COMP_SLOTS + j) % c.big;
    const v = this.smallPerm.forward(base * COMP_SLOTS + j);
    if (hash(this.seed, 305, base, j) % 100 < NEW_COMPANY_PERCENT) {
      const k = c.alnumStart + (v % c.alnum);
      // A company cannot be sued (or sue) before it exists; the slot then goes to an older one.
      if (c.registeredMs(k) <= distributionMs) return k;
    }
    return c.big + (v % c.numeric);
  }
  /**
   * The lawyer of slot j of a case whose first instance sits in state `uf`: of the state's section as a rule, from
   * any section now and then; a side's second lawyer may be an intern of the state's section.
   */
  private lawyerAt(base: number, j: number, uf: string): number {
    const v = this.lawPerm.forward(base * LAW_SLOTS + j);
    const u = sectionIndex(uf);
    if (SECOND_LAWYER.has(j)) return this.lawyers.anyOf(u, v);
    return hash(this.seed, 631, base, j) % 100 < OUT_OF_STATE_PERCENT ? this.lawyers.nationalOf(v) : this.lawyers.fullOf(u, v);
  }

  /** Base lawsuits (first instance) in whose slots an individual may stand; a superset, to be verified. */
  candidatesOfIndividual(p: number): number[] {
    const out: number[] = [];
    const space = this.count * IND_SLOTS;
    for (let v = p; v < space; v += this.individuals.count) out.push(Math.floor(this.indPerm.backward(v) / IND_SLOTS));
    return out;
  }
  candidatesOfCompany(k: number): number[] {
    const out: number[] = [];
    const c = this.companies;
    const space = this.count * COMP_SLOTS;
    if (k < c.big) {
      for (let v = k; v < space; v += c.big) out.push(Math.floor(this.bigPerm.backward(v) / COMP_SLOTS));
    } else if (c.isAlphanumeric(k)) {
      for (let v = k - c.alnumStart; v < space; v += c.alnum) out.push(Math.floor(this.smallPerm.backward(v) / COMP_SLOTS));
    } else {
      for (let v = k - c.big; v < space; v += c.numeric) out.push(Math.floor(this.smallPerm.backward(v) / COMP_SLOTS));
    }
    return out;
  }
  /** Every slot value lawyerAt could map to lawyer l, in each of its three ways (a superset, to be verified). */
  candidatesOfLawyer(l: number): number[] {
    const out: number[] = [];
    const w = this.lawyers;
    const space = this.count * LAW_SLOTS;
    const u = w.sectionOf(l);
    const offset = l - w.start[u];
    const walk = (first: number, step: number) => { for (let v = first; v < space; v += step) out.push(Math.floor(this.lawPerm.backward(v) / LAW_SLOTS)); };
    walk(offset, w.size[u]);
    if (offset < w.full[u]) {
      walk(offset, w.full[u]);
      walk(w.fullBefore[u] + offset, w.fullTotal);
    }
    return out;
  }

  /**
   * Who the parties of a lawsuit are, as indexes only: enough to answer "does person p stand in lawsuit i",
   * which a search asks of thousands of candidates, without building a name or a document.
   */
  skeleton(plan: Plan): PartySkeleton[] {
    const b = plan.base;
    const h = (k: number) => hash(this.seed, 600 + k, b);
    const kind = plan.kind;
    const main = (spec: Side, side: SideName, slot: number): PartySkeleton => {
      if (spec === 'entity') return { kind: 'entity', person: plan.entity!.index, side, lawyers: [] };
      if (unit(h(slot)) < spec.company) {
        return { kind: 'company', person: this.companyAt(b, slot, unit(h(10 + slot)) < spec.big, plan.baseDistributionMs), side, lawyers: [] };
      }
      return { kind: 'individual', person: this.individualAt(b, slot), side, lawyers: [] };
    };
    const a = main(kind.active, 'Active', 0);
    const p = main(kind.passive, 'Passive', 1);
    // The Ministério Público acts through its own members, not through lawyers.
    const prosecutes = a.kind === 'entity' && ['stateProsecutor', 'federalProsecutor', 'electoralProsecutor'].includes(plan.entity!.role);
    const nActiveLawyers = prosecutes ? 0 : 1 + (h(2) % 3 === 0 ? 1 : 0);
    const nPassiveLawyers = h(3) % 10 < 2 ? 0 : 1 + (h(3) % 4 === 0 ? 1 : 0);
    const uf = plan.uf;
    for (let s = 0; s < nActiveLawyers; s++) a.lawyers.push(this.lawyerAt(b, s, uf));
    for (let s = 0; s < nPassiveLawyers; s++) p.lawyers.push(this.lawyerAt(b, 2 + s, uf));
    // At the second instance a party may take on a lawyer of its own for the appeal.
    if (plan.instance >= 2 && hash(this.seed, 620, plan.index) % 10 < 3) {
      const joins = hash(this.seed, 621, plan.index) % 2 === 0 && !prosecutes ? a : p;
      joins.lawyers.push(this.lawyerAt(b, joins === a ? 4 : 5, uf));
    }
    const out: PartySkeleton[] = [a, p];
    // The spec's irregularity: a lawyer the tribunal does not tie to a party is listed among the parties (the
    // side's only lawyer, so that an intern is never left alone for it).
    if (p.lawyers.length === 1 && h(4) % 100 < 8) out.push({ kind: 'lawyer', person: p.lawyers.shift()!, side: 'Passive', lawyers: [] });
    const extras = h(5) % 100 < 20 ? (h(5) % 100 < 6 ? 2 : 1) : 0;
    for (let s = 0; s < extras; s++) out.push({ kind: 'individual', person: this.individualAt(b, 2 + s), side: h(6 + s) % 3 === 0 ? 'Unknown' : 'Interested', lawyers: [] });
    return out;
  }

  /**
   * The business of the case's counterpart: the defendant's when it is a company (or the federal bank), else the
   * plaintiff's; undefined between individuals and public bodies. Subjects are drawn by it.
   */
  sectorOf(plan: Plan): Sector | undefined {
    const [a, p] = this.skeleton(plan);
    for (const q of [p, a]) {
      if (q.kind === 'company') return this.companies.sector(q.person);
      if (q.kind === 'entity' && plan.entity?.role === 'federalBank') return 'bank';
    }
    return undefined;
  }

  /** The parties of a lawsuit as the universe knows them (documents never masked). */
  parties(plan: Plan): InternalParty[] {
    const lawyerOf = (l: number, side: SideName): InternalLawyer => ({ lawyer: l, name: this.lawyers.name(l), oab: this.lawyers.oab(l), side });
    return this.skeleton(plan).map((q): InternalParty => {
      const personType = q.side === 'Active' ? 'Autor' : q.side === 'Passive' ? 'Réu' : q.side === 'Unknown' ? 'Desconhecido' : 'Terceiro Interessado';
      const lawyers = q.lawyers.map((l) => lawyerOf(l, q.side));
      switch (q.kind) {
        case 'entity': {
          const e = plan.entity!;
          return { kind: 'entity', person: q.person, name: e.name, document: e.document, documentType: 'CNPJ', side: q.side, personType, lawyers };
        }
        case 'company':
          return { kind: 'company', person: q.person, name: this.companies.name(q.person), document: this.companies.document(q.person), documentType: 'CNPJ', side: q.side, personType, lawyers };
        case 'individual':
          return { kind: 'individual', person: q.person, name: this.individuals.name(q.person), document: this.individuals.document(q.person), documentType: 'CPF', side: q.side, personType, lawyers };
        case 'lawyer':
          return { kind: 'lawyer', person: q.person, name: this.lawyers.name(q.person), document: this.lawyers.oab(q.person), documentType: 'OAB', side: q.side, personType: 'Advogado', lawyers: [] };
      }
    });
  }
}
