// Who takes part in each lawsuit. Party slots of all lawsuits are dealt to people through seeded bijections
// (Perm), so the inverse question "which lawsuits is person p in" walks only p's own slots.

import { Companies, Individuals, Lawyers } from './people.js';
import { hash, Perm } from './random.js';
import type { Plan } from './plan.js';
import type { SideName } from './vocab.js';

export type PartyKind = 'individual' | 'company' | 'lawyer';

export interface InternalLawyer { lawyer: number; name: string; oab: string; side: SideName }

export interface InternalParty {
  kind: PartyKind;
  /** Index in the pool of its kind. */
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
const LAW_SLOTS = 4;
/** Share of company slots that go to the few big litigants. */
const BIG_SHARE = 0.3;

export class Cast {
  readonly individuals: Individuals;
  readonly companies: Companies;
  readonly lawyers: Lawyers;
  private readonly indPerm: Perm;
  private readonly compPerm: Perm;
  private readonly lawPerm: Perm;
  private readonly bigCut: number;

  constructor(private readonly seed: number, private readonly count: number) {
    this.individuals = new Individuals(Math.ceil(count * 1.5) + 10, seed);
    const big = Math.max(10, Math.min(270, Math.round(count / 2000)));
    this.companies = new Companies(big, Math.ceil(count / 25) + 10, seed);
    this.lawyers = new Lawyers(Math.ceil(count / 6) + 10, seed);
    this.indPerm = new Perm(count * IND_SLOTS, hash(seed, 501));
    this.compPerm = new Perm(count * COMP_SLOTS, hash(seed, 502));
    this.lawPerm = new Perm(count * LAW_SLOTS, hash(seed, 503));
    this.bigCut = Math.floor(count * COMP_SLOTS * BIG_SHARE);
  }

  private individualAt(base: number, j: number): number {
    return this.indPerm.forward(base * IND_SLOTS + j) % this.individuals.count;
  }
  private companyAt(base: number, j: number): number {
    const v = this.compPerm.forward(base * COMP_SLOTS + j);
    const c = this.companies;
    return v < this.bigCut ? v % c.big : c.big + ((v - this.bigCut) % c.small);
  }
  private lawyerAt(base: number, j: number): number {
    return this.lawPerm.forward(base * LAW_SLOTS + j) % this.lawyers.count;
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
    if (k < c.big) for (let v = k; v < this.bigCut; v += c.big) out.push(Math.floor(this.compPerm.backward(v) / COMP_SLOTS));
    else for (let v = this.bigCut + (k - c.big); v < space; v += c.small) out.push(Math.floor(this.compPerm.backward(v) / COMP_SLOTS));
    return out;
  }
  candidatesOfLawyer(l: number): number[] {
    const out: number[] = [];
    const space = this.count * LAW_SLOTS;
    for (let v = l; v < space; v += this.lawyers.count) out.push(Math.floor(this.lawPerm.backward(v) / LAW_SLOTS));
    return out;
  }

  /** The parties of a lawsuit as the universe knows them (documents never masked). Twins share their base's. */
  parties(plan: Plan): InternalParty[] {
    const b = plan.base;
    const h = (k: number) => hash(this.seed, 600 + k, b);
    const j = plan.tribunal.j;
    const isFiscal = plan.classCode === '1116';
    let activeCompany: boolean;
    let passiveCompany: boolean;
    if (j === '5') { activeCompany = false; passiveCompany = h(0) % 10 < 9; }
    else if (isFiscal) { activeCompany = true; passiveCompany = h(0) % 10 < 4; }
    else { activeCompany = h(0) % 100 < 35; passiveCompany = h(1) % 100 < 60; }
    const out: InternalParty[] = [];
    const lawyerOf = (slot: number, side: SideName): InternalLawyer => {
      const l = this.lawyerAt(b, slot);
      return { lawyer: l, name: this.lawyers.name(l), oab: this.lawyers.oab(l), side };
    };
    const main = (side: SideName, company: boolean, slot: number): InternalParty => {
      if (company) {
        const k = this.companyAt(b, slot);
        return { kind: 'company', person: k, name: this.companies.name(k), document: this.companies.document(k), documentType: 'CNPJ', side, personType: side === 'Active' ? 'Autor' : 'Réu', lawyers: [] };
      }
      const p = this.individualAt(b, slot);
      return { kind: 'individual', person: p, name: this.individuals.name(p), document: this.individuals.document(p), documentType: 'CPF', side, personType: side === 'Active' ? 'Autor' : 'Réu', lawyers: [] };
    };
    const a = main('Active', activeCompany, 0);
    const p = main('Passive', passiveCompany, 1);
    const nActiveLawyers = 1 + (h(2) % 3 === 0 ? 1 : 0);
    const nPassiveLawyers = h(3) % 10 < 2 ? 0 : 1 + (h(3) % 4 === 0 ? 1 : 0);
    for (let s = 0; s < nActiveLawyers; s++) a.lawyers.push(lawyerOf(s, 'Active'));
    for (let s = 0; s < nPassiveLawyers; s++) p.lawyers.push(lawyerOf(2 + s, 'Passive'));
    out.push(a, p);
    // The spec's irregularity: a lawyer the tribunal does not tie to a party is listed among the parties.
    if (p.lawyers.length > 0 && h(4) % 100 < 8) {
      const lw = p.lawyers.shift()!;
      out.push({ kind: 'lawyer', person: lw.lawyer, name: lw.name, document: lw.oab, documentType: 'OAB', side: 'Passive', personType: 'Advogado', lawyers: [] });
    }
    const extras = h(5) % 100 < 20 ? (h(5) % 100 < 6 ? 2 : 1) : 0;
    for (let s = 0; s < extras; s++) {
      const q = this.individualAt(b, 2 + s);
      const side: SideName = h(6 + s) % 3 === 0 ? 'Unknown' : 'Interested';
      out.push({ kind: 'individual', person: q, name: this.individuals.name(q), document: this.individuals.document(q), documentType: 'CPF', side, personType: side === 'Unknown' ? 'Desconhecido' : 'Terceiro Interessado', lawyers: [] });
    }
    return out;
  }
}
