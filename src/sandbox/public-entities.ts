// The public entities that stand in cases: municipalities and states (tax enforcement, and as defendants), the
// Ministérios Públicos (criminal actions), the Union's treasury, the INSS and the Caixa in the federal courts.
// Each is a party of many lawsuits, like the big companies; which lawsuits is decided by a seeded bijection of
// the public cases (cast.ts), so that "which lawsuits name this entity" is a walk over its own share only.

import { cnpjCheckDigits } from './check-digits.js';
import { KINDS, type CaseKind } from './case-kinds.js';
import { hashString } from './random.js';
import { ofCity } from './places.js';
import { normalizeName } from './text.js';
import { TRIBUNALS, type TribunalDef } from './tribunals.js';

type EntityRole = 'municipality' | 'state' | 'stateProsecutor' | 'union' | 'inss' | 'federalProsecutor' | 'federalBank' | 'electoralProsecutor';

export interface PublicEntity {
  index: number;
  name: string;
  /** CNPJ, digits only (public entities were all registered long before alphanumeric CNPJs). */
  document: string;
  role: EntityRole;
  /** The entity's own tribunal (state entities); federal ones litigate in every TRF. */
  tribunal?: TribunalDef;
  /** The municipality's city. */
  city?: string;
  /** The kinds of case it stands in, with weights. */
  kinds: Array<[CaseKind, number]>;
  /** Integer share of all public cases. */
  weight: number;
}

const STATE_NAMES: Record<string, [string, string]> = {
  SP: ['Estado de São Paulo', 'Ministério Público do Estado de São Paulo'],
  RJ: ['Estado do Rio de Janeiro', 'Ministério Público do Estado do Rio de Janeiro'],
  MG: ['Estado de Minas Gerais', 'Ministério Público do Estado de Minas Gerais'],
  RS: ['Estado do Rio Grande do Sul', 'Ministério Público do Estado do Rio Grande do Sul'],
  PR: ['Estado do Paraná', 'Ministério Público do Estado do Paraná'],
  BA: ['Estado da Bahia', 'Ministério Público do Estado da Bahia'],
  PE: ['Estado de Pernambuco', 'Ministério Público do Estado de Pernambuco'],
  DF: ['Distrito Federal', 'Ministério Público do Distrito Federal e Territórios'],
  CE: ['Estado do Ceará', 'Ministério Público do Estado do Ceará'],
  AL: ['Estado de Alagoas', 'Ministério Público do Estado de Alagoas'],
};

/** The entities of the universe, in a fixed order (their index is their position). */
function buildEntities(): Array<Omit<PublicEntity, 'index' | 'document'>> {
  const out: Array<Omit<PublicEntity, 'index' | 'document'>> = [];
  for (const t of TRIBUNALS.filter((x) => x.j === '8')) {
    const [stateName, prosecutor] = STATE_NAMES[t.uf];
    // The Federal District is state and municipality at once: it collects both kinds of tax.
    const stateKinds: Array<[CaseKind, number]> = t.uf === 'DF'
      ? [[KINDS.stateTax, 3], [KINDS.municipalTax, 3], [KINDS.stateFazenda, 3]]
      : [[KINDS.stateTax, 3], [KINDS.stateFazenda, 2]];
    out.push({ name: stateName, role: 'state', tribunal: t, kinds: stateKinds, weight: Math.max(1, Math.round(t.weight * 1.5)) });
    // Where the state has a military court, its prosecutor also accuses military police officers there (a small share).
    const militaryCourt = TRIBUNALS.some((m) => m.j === '9' && m.uf === t.uf);
    const prosecutorKinds: Array<[CaseKind, number]> = militaryCourt ? [[KINDS.stateCriminal, 100], [KINDS.stateMilitary, 1.5]] : [[KINDS.stateCriminal, 1]];
    out.push({ name: prosecutor, role: 'stateProsecutor', tribunal: t, kinds: prosecutorKinds, weight: Math.max(1, Math.round(t.weight * 1.2)) });
    if (t.uf === 'DF') continue;
    t.cities.forEach((city, k) => {
      // The capital (first city) carries most of a state's municipal cases.
      const share = k === 0 ? 1.6 : 0.5;
      out.push({ name: `Município ${ofCity(city)}`, role: 'municipality', tribunal: t, city, kinds: [[KINDS.municipalTax, 5], [KINDS.stateFazenda, 1]], weight: Math.max(1, Math.round(t.weight * share)) });
    });
  }
  out.push({ name: 'União - Fazenda Nacional', role: 'union', kinds: [[KINDS.federalTax, 4], [KINDS.federalCivil, 1]], weight: 16 });
  out.push({ name: 'Instituto Nacional do Seguro Social - INSS', role: 'inss', kinds: [[KINDS.socialSecurity, 1]], weight: 14 });
  out.push({ name: 'Ministério Público Federal', role: 'federalProsecutor', kinds: [[KINDS.federalCriminal, 1]], weight: 4 });
  out.push({ name: 'Caixa Econômica Federal', role: 'federalBank', kinds: [[KINDS.federalCivil, 1]], weight: 6 });
  // Electoral representations, about 0.4% of all cases (election years only).
  out.push({ name: 'Ministério Público Eleitoral', role: 'electoralProsecutor', kinds: [[KINDS.electoral, 1]], weight: 6 });
  return out;
}

const ENTITY_DEFS = buildEntities();

export class PublicEntities {
  readonly list: PublicEntity[];
  /** Total of the weights: public case slots are dealt to entities by their residue modulo this. */
  readonly totalWeight: number;
  private readonly byResidue: Int32Array;
  private readonly residues: number[][];
  private readonly byDocument = new Map<string, number>();
  private readonly byName = new Map<string, number>();

  /** `taken` says whether a CNPJ already belongs to a company of the universe; an entity never shares one. */
  constructor(taken: (cnpj: string) => boolean) {
    this.list = ENTITY_DEFS.map((d, index) => {
      let document = '';
      for (let bump = 0; document === '' || taken(document) || this.byDocument.has(document); bump++) {
        const body = String((hashString(`${d.name}#${bump}`) % 100_000_000)).padStart(8, '0') + '0001';
        document = body + cnpjCheckDigits(body);
      }
      this.byDocument.set(document, index);
      this.byName.set(normalizeName(d.name), index);
      return { ...d, index, document };
    });
    this.totalWeight = this.list.reduce((s, e) => s + e.weight, 0);
    this.byResidue = new Int32Array(this.totalWeight);
    this.residues = this.list.map(() => []);
    let r = 0;
    for (const e of this.list) for (let k = 0; k < e.weight; k++) { this.byResidue[r] = e.index; this.residues[e.index].push(r++); }
  }

  /** The entity a public case slot of value v is dealt to. */
  ofSlot(v: number): PublicEntity {
    return this.list[this.byResidue[v % this.totalWeight]];
  }

  /** Residues modulo totalWeight whose slots go to entity e. */
  residuesOf(e: number): readonly number[] {
    return this.residues[e];
  }

  fromDocument(doc: string): number | undefined {
    return this.byDocument.get(doc);
  }

  withName(normalized: string): number[] {
    const e = this.byName.get(normalized);
    return e === undefined ? [] : [e];
  }
}
