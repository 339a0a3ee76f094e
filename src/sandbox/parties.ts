// Who takes part in each lawsuit, and as what. Party slots of all lawsuits are dealt to people through seeded
// bijections (Perm), so the inverse question "which lawsuits is person p in" walks only p's own slots. The parties of a
// case are decided once, by its first instance (base): every instance of one case names the same parties (an
// appeal may add a lawyer), on the sides that instance gives them: the party that lost appeals, the party an interim
// decision went against files the agravo, the debtor brings the embargos. Parties are as real ones are: no one on
// both sides, third parties only where the law admits them, a defendant who answers has a lawyer, and a big
// litigant or a public body is represented by the handful of firms (or attorneys) it retains in the state, not by
// whoever the slot deals.

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
/** The law firms a big litigant retains in a state (a public body: its teams of attorneys), and their lawyers on a case. */
const FIRMS = 4;
const FIRM_LAWYERS = 3;
/** Kinds whose cases admit third parties (Law 9.099/95 art. 10 keeps them out of the small-claims courts). */
const THIRD_PARTIES: ReadonlySet<string> = new Set(['civil', 'lease', 'titleExecution', 'stateFazenda', 'federalCivil']);

/** What each side is called, by class: [the claimant's side, the other]. */
const ROLES: Readonly<Record<string, readonly [string, string]>> = {
  985: ['Reclamante', 'Reclamado'], 1125: ['Reclamante', 'Reclamado'],
  159: ['Exequente', 'Executado'], 1116: ['Exequente', 'Executado'], 156: ['Exequente', 'Executado'], 12078: ['Exequente', 'Executado'], 1114: ['Exequente', 'Executado'],
  172: ['Embargante', 'Embargado'], 1118: ['Embargante', 'Embargado'],
  300: ['Autor', 'Acusado'], 11037: ['Autor', 'Acusado'],
  11541: ['Representante', 'Representado'],
  198: ['Apelante', 'Apelado'], 417: ['Apelante', 'Apelado'],
  460: ['Recorrente', 'Recorrido'], 1009: ['Recorrente', 'Recorrido'], 1032: ['Recorrente', 'Recorrido'], 1008: ['Recorrente', 'Recorrido'],
  202: ['Agravante', 'Agravado'],
};
const rolesOf = (classCode: string): readonly [string, string] => ROLES[classCode] ?? ['Autor', 'Réu'];

/** A big litigant or a public body, as the owner of its counsel (companies and entities in one key space). */
type Client = { kind: 'company' | 'entity'; person: number };
const ENTITY_KEYS = 1_000_000;
const clientKey = (c: Client) => (c.kind === 'company' ? c.person : ENTITY_KEYS + c.person);

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
    if (big) return c.bigOf(this.bigPerm.forward(base * COMP_SLOTS + j));
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
  /** Lawyer s of firm f that a big litigant or public body retains in state section u. */
  private counselOf(key: number, f: number, s: number, u: number): number {
    return this.lawyers.fullOf(u, hash(this.seed, 641, key, f, s));
  }

  /** Base lawsuits (first instance) in whose slots an individual may stand; a superset, to be verified. */
  candidatesOfIndividual(p: number): number[] {
    const out: number[] = [];
    const space = this.count * IND_SLOTS;
    for (let v = p; v < space; v += this.individuals.count) out.push(Math.floor(this.indPerm.backward(v) / IND_SLOTS));
    return out;
  }
  candidatesOfCompany(k: number): number[] {
    const c = this.companies;
    const space = this.count * COMP_SLOTS;
    if (k < c.big) return c.slotsOfBig(k, space).map((v) => Math.floor(this.bigPerm.backward(v) / COMP_SLOTS));
    const out: number[] = [];
    if (c.isAlphanumeric(k)) {
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
   * The big litigants and public bodies (of `entities` entities) that retain lawyer l, each with the firms l works
   * for: their lawsuits in l's state sent to one of those firms are candidates too (filterRetained keeps those).
   */
  clientsOfLawyer(l: number, entities: number): Array<Client & { firms: number[] }> {
    const u = this.lawyers.sectionOf(l);
    const out: Array<Client & { firms: number[] }> = [];
    const clients: Client[] = [
      ...Array.from({ length: this.companies.big }, (_, k): Client => ({ kind: 'company', person: k })),
      ...Array.from({ length: entities }, (_, e): Client => ({ kind: 'entity', person: e })),
    ];
    for (const c of clients) {
      const key = clientKey(c);
      const firms: number[] = [];
      for (let f = 0; f < FIRMS; f++) for (let s = 0; s < FIRM_LAWYERS; s++) if (this.counselOf(key, f, s, u) === l && !firms.includes(f)) firms.push(f);
      if (firms.length > 0) out.push({ ...c, firms });
    }
    return out;
  }

  /** Of a client's bases, those that may have sent the case to one of `firms` (on either side): a cheap superset. */
  filterRetained(bases: number[], firms: readonly number[]): number[] {
    return bases.filter((b) => firms.includes(hash(this.seed, 620, b) % FIRMS) || firms.includes(hash(this.seed, 622, b) % FIRMS));
  }

  /**
   * Who the parties of a lawsuit are, as indexes only: enough to answer "does person p stand in lawsuit i",
   * which a search asks of thousands of candidates, without building a name or a document. The claimant's side
   * comes first, then the other; a lawyer listed as a party, then third parties, after them.
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
    let p = main(kind.passive, 'Passive', 1);
    // No one is on both sides: a company drawn against itself, or a person against themself, gives way to another person.
    if (p.kind === a.kind && p.person === a.person) p = { kind: 'individual', person: this.individualAt(b, 1), side: 'Passive', lawyers: [] };
    if (p.kind === 'individual' && a.kind === 'individual' && p.person === a.person) p = { ...p, person: this.individualAt(b, 3) };
    const uf = plan.uf;
    // The Ministério Público acts through its own members, not through lawyers.
    const prosecutes = a.kind === 'entity' && ['stateProsecutor', 'federalProsecutor', 'electoralProsecutor'].includes(plan.entity!.role);
    const clientOf = (q: PartySkeleton) => (q.kind === 'entity' || (q.kind === 'company' && this.companies.isBig(q.person)) ? clientKey(q as Client) : undefined);
    // Which of its firms a client sends to this case, by side.
    const firm = (q: PartySkeleton) => h(q === a ? 20 : 22) % FIRMS;
    const counsel = (q: PartySkeleton, n: number, slots: number): void => {
      const client = clientOf(q);
      for (let s = 0; s < n; s++) q.lawyers.push(client === undefined ? this.lawyerAt(b, slots + s, uf) : this.counselOf(client, firm(q), s, sectionIndex(uf)));
    };
    counsel(a, prosecutes ? 0 : 1 + (h(2) % 3 === 0 ? 1 : 0), 0);
    // A defendant who never answers has no lawyer; one who does (a public body, an accused person always) has one or two.
    counsel(p, plan.defendantUnrepresented ? 0 : 1 + (h(3) % 4 === 0 ? 1 : 0), 2);
    // At the second instance a party may take on a lawyer of its own for the appeal.
    if (plan.instance >= 2 && hash(this.seed, 620, plan.index) % 10 < 3) {
      const joins = hash(this.seed, 621, plan.index) % 2 === 0 && !prosecutes ? a : p;
      const client = clientOf(joins);
      joins.lawyers.push(client === undefined ? this.lawyerAt(b, joins === a ? 4 : 5, uf) : this.counselOf(client, firm(joins), FIRM_LAWYERS - 1, sectionIndex(uf)));
    }
    const out: PartySkeleton[] = [a, p];
    // The spec's irregularity: a lawyer the tribunal does not tie to a party is listed among the parties (the
    // side's only lawyer, so that an intern is never left alone for it).
    if (p.lawyers.length === 1 && h(4) % 100 < 8) out.push({ kind: 'lawyer', person: p.lawyers.shift()!, side: 'Passive', lawyers: [] });
    if (THIRD_PARTIES.has(kind.name)) {
      const extras = h(5) % 100 < 20 ? (h(5) % 100 < 6 ? 2 : 1) : 0;
      for (let s = 0; s < extras; s++) {
        const q: PartySkeleton = { kind: 'individual', person: this.individualAt(b, 2 + s), side: h(6 + s) % 3 === 0 ? 'Unknown' : 'Interested', lawyers: [] };
        if (!out.some((x) => x.kind === 'individual' && x.person === q.person)) out.push(q);
      }
    }
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

  /** Whether the claimant is a woman (an individual whose first name is a woman's). */
  claimantIsWoman(plan: Plan): boolean {
    const [a] = this.skeleton(plan);
    return a.kind === 'individual' && this.individuals.isWoman(a.person);
  }

  /**
   * The parties of a lawsuit as the universe knows them (documents never masked), the claimant first. `swapped`:
   * the defendant stands on this instance's active side (it appeals, files the agravo, brings the embargos).
   */
  parties(plan: Plan, swapped = false): InternalParty[] {
    const [activeRole, passiveRole] = rolesOf(plan.classCode);
    const flip = (s: SideName): SideName => (!swapped ? s : s === 'Active' ? 'Passive' : s === 'Passive' ? 'Active' : s);
    return this.skeleton(plan).map((q): InternalParty => {
      const side = flip(q.side);
      const personType = side === 'Active' ? activeRole : side === 'Passive' ? passiveRole : q.side === 'Unknown' ? 'Desconhecido' : 'Terceiro Interessado';
      const lawyers = q.lawyers.map((l): InternalLawyer => ({ lawyer: l, name: this.lawyers.name(l), oab: this.lawyers.oab(l), side }));
      switch (q.kind) {
        case 'entity': {
          const e = plan.entity!;
          return { kind: 'entity', person: q.person, name: e.name, document: e.document, documentType: 'CNPJ', side, personType, lawyers };
        }
        case 'company':
          return { kind: 'company', person: q.person, name: this.companies.name(q.person), document: this.companies.document(q.person), documentType: 'CNPJ', side, personType, lawyers };
        case 'individual':
          return { kind: 'individual', person: q.person, name: this.individuals.name(q.person), document: this.individuals.document(q.person), documentType: 'CPF', side, personType, lawyers };
        case 'lawyer':
          return { kind: 'lawyer', person: q.person, name: this.lawyers.name(q.person), document: this.lawyers.oab(q.person), documentType: 'OAB', side, personType: 'Advogado', lawyers: [] };
      }
    });
  }
}
