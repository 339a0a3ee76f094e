// The public entities that stand in cases: municipalities and states (tax enforcement, and as defendants), the
// Ministérios Públicos (criminal actions), the Union's treasury (in tax matters) and the Union (in the others), the
// INSS and the Caixa in the federal courts, each under its real name and CNPJ. Each is a party of many lawsuits,
// like the big companies; which lawsuits is decided by the units' cells (cells.ts), so that "which lawsuits name
// this entity" is a walk over its own share only.

import { KINDS, type CaseKind } from './case-kinds.js';
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

/** Each state's name, its Ministério Público's, and their CNPJs (the state's treasury, the prosecutor's office). */
const STATES: Record<string, { state: [string, string]; prosecutor: [string, string] }> = {
  SP: { state: ['Estado de São Paulo', '46379400000150'], prosecutor: ['Ministério Público do Estado de São Paulo', '01468760000190'] },
  RJ: { state: ['Estado do Rio de Janeiro', '42498600000171'], prosecutor: ['Ministério Público do Estado do Rio de Janeiro', '28305936000140'] },
  MG: { state: ['Estado de Minas Gerais', '18715615000160'], prosecutor: ['Ministério Público do Estado de Minas Gerais', '20971057000145'] },
  RS: { state: ['Estado do Rio Grande do Sul', '87934675000196'], prosecutor: ['Ministério Público do Estado do Rio Grande do Sul', '93802833000157'] },
  PR: { state: ['Estado do Paraná', '76416940000128'], prosecutor: ['Ministério Público do Estado do Paraná', '78206307000130'] },
  BA: { state: ['Estado da Bahia', '13937032000160'], prosecutor: ['Ministério Público do Estado da Bahia', '04142491000166'] },
  PE: { state: ['Estado de Pernambuco', '10571982000125'], prosecutor: ['Ministério Público do Estado de Pernambuco', '24417065000103'] },
  DF: { state: ['Distrito Federal', '00394601000126'], prosecutor: ['Ministério Público do Distrito Federal e Territórios', '26989715000293'] },
  CE: { state: ['Estado do Ceará', '07954480000179'], prosecutor: ['Ministério Público do Estado do Ceará', '06928790000156'] },
  AL: { state: ['Estado de Alagoas', '12200192000169'], prosecutor: ['Ministério Público do Estado de Alagoas', '12473062000108'] },
};

/** The municipalities' CNPJs, by city. */
const MUNICIPALITIES: Record<string, string> = {
  'São Paulo': '46395000000139', Campinas: '51885242000140', Santos: '58200015000183', 'Ribeirão Preto': '56024581000156',
  Sorocaba: '46634044000174', Guarulhos: '46319000000150', 'Rio de Janeiro': '42498733000148', Niterói: '28521748000159',
  'Duque de Caxias': '29138328000150', 'Nova Iguaçu': '29138278000101', 'Belo Horizonte': '18715383000140', Uberlândia: '18431312000115',
  Contagem: '18715391000196', 'Juiz de Fora': '18338178000102', 'Porto Alegre': '92963560000160', 'Caxias do Sul': '88830609000139',
  Pelotas: '87455531000157', Curitiba: '76417005000186', Londrina: '75771477000170', Maringá: '76282656000106',
  Salvador: '13927801000149', 'Feira de Santana': '14043574000151', Recife: '10565000000192', Olinda: '10404184000109',
  Fortaleza: '07954605000160', Maceió: '12200135000180',
};

/** The federal bodies: the Union's treasury (PGFN) and the Union itself (AGU), the INSS, the MPF, the Caixa. */
const FEDERAL = {
  treasury: ['União - Fazenda Nacional', '00394460005887'], union: ['União', '26994558000123'], inss: ['Instituto Nacional do Seguro Social - INSS', '29979036000140'],
  prosecutor: ['Ministério Público Federal', '26989715000102'], bank: ['Caixa Econômica Federal', '00360305000104'],
} as const;

/** The entities of the universe, in a fixed order (their index is their position). */
function buildEntities(): Array<Omit<PublicEntity, 'index'>> {
  const out: Array<Omit<PublicEntity, 'index'>> = [];
  for (const t of TRIBUNALS.filter((x) => x.j === '8')) {
    const { state, prosecutor } = STATES[t.uf];
    // The Federal District is state and municipality at once: it collects both kinds of tax.
    const stateKinds: Array<[CaseKind, number]> = t.uf === 'DF'
      ? [[KINDS.stateTax, 3], [KINDS.municipalTax, 3], [KINDS.stateFazenda, 3]]
      : [[KINDS.stateTax, 3], [KINDS.stateFazenda, 2]];
    out.push({ name: state[0], document: state[1], role: 'state', tribunal: t, kinds: stateKinds, weight: Math.max(1, Math.round(t.weight * 1.5)) });
    // Where the state has a military court, its prosecutor also accuses military police officers there (a small share).
    const militaryCourt = TRIBUNALS.some((m) => m.j === '9' && m.uf === t.uf);
    const prosecutorKinds: Array<[CaseKind, number]> = militaryCourt ? [[KINDS.stateCriminal, 100], [KINDS.stateMilitary, 1.5]] : [[KINDS.stateCriminal, 1]];
    out.push({ name: prosecutor[0], document: prosecutor[1], role: 'stateProsecutor', tribunal: t, kinds: prosecutorKinds, weight: Math.max(1, Math.round(t.weight * 1.2)) });
    if (t.uf === 'DF') continue;
    t.cities.forEach((city, k) => {
      // The capital (first city) carries most of a state's municipal cases.
      const share = k === 0 ? 1.6 : 0.5;
      out.push({
        name: `Município ${ofCity(city)}`, document: MUNICIPALITIES[city], role: 'municipality', tribunal: t, city,
        kinds: [[KINDS.municipalTax, 5], [KINDS.stateFazenda, 1]], weight: Math.max(1, Math.round(t.weight * share)),
      });
    });
  }
  // The Fazenda Nacional (PGFN) stands for the Union in tax matters only; the AGU, as "União", in the others.
  out.push({ name: FEDERAL.treasury[0], document: FEDERAL.treasury[1], role: 'union', kinds: [[KINDS.federalTax, 1]], weight: 13 });
  out.push({ name: FEDERAL.union[0], document: FEDERAL.union[1], role: 'union', kinds: [[KINDS.federalCivil, 1]], weight: 3 });
  out.push({ name: FEDERAL.inss[0], document: FEDERAL.inss[1], role: 'inss', kinds: [[KINDS.socialSecurity, 1]], weight: 14 });
  out.push({ name: FEDERAL.prosecutor[0], document: FEDERAL.prosecutor[1], role: 'federalProsecutor', kinds: [[KINDS.federalCriminal, 1]], weight: 4 });
  out.push({ name: FEDERAL.bank[0], document: FEDERAL.bank[1], role: 'federalBank', kinds: [[KINDS.federalCivil, 1]], weight: 6 });
  // Electoral representations, about 0.4% of all cases (election years only). The electoral prosecutor is the MPF
  // acting before the electoral courts, and is named by the MPF's CNPJ.
  out.push({ name: 'Ministério Público Eleitoral', document: FEDERAL.prosecutor[1], role: 'electoralProsecutor', kinds: [[KINDS.electoral, 1]], weight: 6 });
  return out;
}

/** The public entities, fixed for every universe: real bodies with their real CNPJs. */
export const ENTITIES: readonly PublicEntity[] = buildEntities().map((d, index) => ({ ...d, index }));
/** Total of the entities' weights (their shares of the public cases). */
export const ENTITY_WEIGHT = ENTITIES.reduce((s, e) => s + e.weight, 0);

export class PublicEntities {
  readonly list: readonly PublicEntity[] = ENTITIES;
  private readonly byDocument = new Map<string, number[]>();
  private readonly byName = new Map<string, number>();

  constructor() {
    for (const e of ENTITIES) {
      this.byDocument.set(e.document, [...(this.byDocument.get(e.document) ?? []), e.index]);
      this.byName.set(normalizeName(e.name), e.index);
    }
  }

  /** The entities named by a CNPJ (the MPF's names the electoral prosecutor too). */
  fromDocument(doc: string): readonly number[] {
    return this.byDocument.get(doc) ?? [];
  }

  withName(normalized: string): number[] {
    const e = this.byName.get(normalized);
    return e === undefined ? [] : [e];
  }
}

/** The roots (first eight digits) of the entities' CNPJs: no company of the universe is given one. */
export const ENTITY_ROOTS: readonly string[] = [...new Set(ENTITIES.map((e) => e.document.slice(0, 8)))];
