// The tribunals of the synthetic universe: CNJ codes (J.TR), the places they sit in with the origin codes
// (OOOO of the CNJ number) of their units there, court names, and each tribunal's quirks in its payloads.
// Origin codes are the real units' where they are well known (TJSP 0100 is the Foro Central Cível, 0050 the
// criminal forum of Barra Funda; TRF3 6182 the tax-enforcement units of São Paulo, 6301 its JEF; TRT2 0001-0090
// are the labour courts of São Paulo city), so that a number tells an analyst where the case runs.

import { ofCity } from './places.js';

/** What kind of unit a case goes to; selects origins and court names. */
export type CaseGroup = 'civil' | 'smallClaims' | 'family' | 'tax' | 'publicLaw' | 'criminal' | 'labour' | 'socialSecurity'
  | 'federalSmallClaims' | 'electoral' | 'military';

export interface Place {
  city: string;
  /** OOOO codes of the units in this city (for labour courts, the Nth code is the Nth Vara do Trabalho). */
  origins: string[];
  /** Only cases of these groups go there (specialised forums); absent: every group without a place of its own. */
  groups?: CaseGroup[];
  /** The city's state, when it is not the tribunal's (a regional federal court covers several states). */
  uf?: string;
}

/** What a tribunal's extra properties may depend on. */
interface ExtrasContext { u: number; instance: number; origin: string; city: string; group: CaseGroup; court: string }

export interface TribunalDef {
  acronym: string; j: string; tr: string; uf: string;
  /** Share of the private cases (state and labour justice) it receives; the others' cases come from public entities. */
  weight: number;
  justiceDescription: string; area: string;
  places: Place[];
  /** Distinct cities of `places`, in order. */
  cities: string[];
  /** A superior court (STJ, TST): reached only by appeal, numbered TR 00, OOOO 0000. */
  superior?: boolean;
  /** Document and name searches of this tribunal leave out steps, attachments, phase and status. */
  sparse?: boolean;
  /** Courts of this tribunal come without code. */
  courtsWithoutCode?: boolean;
  /** last_step is not given by this tribunal. */
  noLastStep?: boolean;
  /** The tribunal's system shows the provider's lawsuit id among its properties (`lawsuit_id`). */
  showsLawsuitId?: boolean;
  /** Extra, tribunal-specific properties on the lawsuit object. */
  extras?: (c: ExtrasContext) => Record<string, unknown>;
}

const STATE = 'JUSTIÇA ESTADUAL';
const LABOUR = 'JUSTIÇA DO TRABALHO';
const FEDERAL = 'JUSTIÇA FEDERAL';
const ELECTORAL = 'JUSTIÇA ELEITORAL';
const STATE_MILITARY = 'JUSTIÇA MILITAR ESTADUAL';
const SUPERIOR = 'TRIBUNAIS SUPERIORES';

/**
 * TJSP's forums by origin code: the Foro Central Cível (0100), the regional forums of the capital numbered as
 * their codes (0002 is the Foro Regional II - Santo Amaro), the central specialised ones, and one forum per
 * other comarca.
 */
const TJSP_FOROS: Record<string, string> = {
  '0100': 'Foro Central Cível', '0002': 'Foro Regional II - Santo Amaro', '0003': 'Foro Regional III - Jabaquara',
  '0004': 'Foro Regional IV - Lapa', '0005': 'Foro Regional V - São Miguel Paulista', '0007': 'Foro Regional VII - Itaquera',
  '0008': 'Foro Regional VIII - Tatuapé', '0009': 'Foro Regional IX - Vila Prudente', '0011': 'Foro Regional XI - Pinheiros',
  '0050': 'Foro Central Criminal Barra Funda', '0053': 'Foro Central - Fazenda Pública/Acidentes', '0090': 'Foro Central - Execuções Fiscais',
};
const tjspForo = (origin: string, city: string) => TJSP_FOROS[origin] ?? `Foro ${ofCity(city)}`;

/** The TRF3 unit type its payloads name, by the kind of case. */
const TRF3_VARA: Partial<Record<CaseGroup, string>> = {
  socialSecurity: 'Vara Previdenciária', federalSmallClaims: 'Juizado Especial Federal', tax: 'Vara de Execuções Fiscais', criminal: 'Vara Criminal',
};

const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, k) => String(from + k).padStart(4, '0'));
const place = (city: string, origins: string[], groups?: CaseGroup[]): Place => (groups ? { city, origins, groups } : { city, origins });
const placeIn = (uf: string, city: string, origins: string[]): Place => ({ city, origins, uf });

type Def = Omit<TribunalDef, 'cities'>;
const DEFS: Def[] = [
  {
    acronym: 'TJSP', j: '8', tr: '26', uf: 'SP', weight: 30, justiceDescription: STATE, area: 'Cível',
    places: [
      place('São Paulo', ['0100', '0002', '0003', '0004', '0005', '0007', '0008', '0009', '0011']),
      place('São Paulo', ['0050'], ['criminal']), place('São Paulo', ['0090'], ['tax']), place('São Paulo', ['0053'], ['publicLaw']),
      place('Campinas', ['0114']), place('Santos', ['0562']), place('Ribeirão Preto', ['0506']), place('Sorocaba', ['0602']), place('Guarulhos', ['0224']),
    ],
    extras: (c) => (c.instance === 1 ? { foro: tjspForo(c.origin, c.city) } : {}),
  },
  {
    acronym: 'TJRJ', j: '8', tr: '19', uf: 'RJ', weight: 10, justiceDescription: STATE, area: 'Cível',
    places: [place('Rio de Janeiro', ['0001', '0209', '0210']), place('Niterói', ['0002']), place('Duque de Caxias', ['0021']), place('Nova Iguaçu', ['0038'])],
  },
  {
    acronym: 'TJMG', j: '8', tr: '13', uf: 'MG', weight: 9, justiceDescription: STATE, area: 'Cível', noLastStep: true, showsLawsuitId: true,
    places: [place('Belo Horizonte', ['0024']), place('Uberlândia', ['0702']), place('Contagem', ['0079']), place('Juiz de Fora', ['0145'])],
  },
  {
    acronym: 'TJRS', j: '8', tr: '21', uf: 'RS', weight: 6, justiceDescription: STATE, area: 'Cível',
    places: [place('Porto Alegre', ['0001']), place('Caxias do Sul', ['0010']), place('Pelotas', ['0022'])],
  },
  {
    acronym: 'TJPR', j: '8', tr: '16', uf: 'PR', weight: 5, justiceDescription: STATE, area: 'Cível', courtsWithoutCode: true,
    places: [place('Curitiba', ['0001']), place('Londrina', ['0014']), place('Maringá', ['0017'])],
  },
  {
    acronym: 'TJBA', j: '8', tr: '05', uf: 'BA', weight: 4, justiceDescription: STATE, area: 'Cível', sparse: true, showsLawsuitId: true,
    places: [place('Salvador', ['0001']), place('Feira de Santana', ['0080'])],
  },
  {
    acronym: 'TJPE', j: '8', tr: '17', uf: 'PE', weight: 3, justiceDescription: STATE, area: 'Cível', showsLawsuitId: true,
    places: [place('Recife', ['0001']), place('Olinda', ['0990'])],
  },
  {
    acronym: 'TJDFT', j: '8', tr: '07', uf: 'DF', weight: 3, justiceDescription: STATE, area: 'Cível',
    places: [place('Brasília', ['0001', '0003', '0007'])],
    extras: (c) => ({ segredo_justica_motivo: null, juizo_100_digital: c.u < 0.4 }),
  },
  {
    acronym: 'TJCE', j: '8', tr: '06', uf: 'CE', weight: 2, justiceDescription: STATE, area: 'Cível', sparse: true, noLastStep: true,
    places: [place('Fortaleza', ['0001'])],
  },
  { acronym: 'TJAL', j: '8', tr: '02', uf: 'AL', weight: 1, justiceDescription: STATE, area: 'Cível', places: [place('Maceió', ['0001'])] },
  {
    acronym: 'TRT2', j: '5', tr: '02', uf: 'SP', weight: 8, justiceDescription: LABOUR, area: 'Trabalhista', showsLawsuitId: true,
    places: [place('São Paulo', range(1, 90)), place('Guarulhos', range(311, 318)), place('Osasco', range(381, 385))],
    // A panel judges only at the second instance.
    extras: (c) => ({ orgao_julgador_colegiado: c.instance >= 2 ? c.court : null }),
  },
  {
    acronym: 'TRT15', j: '5', tr: '15', uf: 'SP', weight: 4, justiceDescription: LABOUR, area: 'Trabalhista', sparse: true, showsLawsuitId: true,
    places: [
      place('Campinas', ['0001', '0032', '0043', '0053', '0092', '0093', '0094', '0095', '0114', '0129', '0130', '0131']),
      place('Sorocaba', ['0003', '0016', '0109', '0135']), place('Jundiaí', ['0002', '0021', '0096', '0097']),
    ],
  },
  {
    acronym: 'TRT1', j: '5', tr: '01', uf: 'RJ', weight: 3, justiceDescription: LABOUR, area: 'Trabalhista', courtsWithoutCode: true, showsLawsuitId: true,
    places: [place('Rio de Janeiro', range(1, 83))],
  },
  {
    acronym: 'TRT3', j: '5', tr: '03', uf: 'MG', weight: 3, justiceDescription: LABOUR, area: 'Trabalhista', showsLawsuitId: true,
    places: [place('Belo Horizonte', range(1, 48))],
  },
  {
    acronym: 'TRF3', j: '4', tr: '03', uf: 'SP', weight: 4, justiceDescription: FEDERAL, area: 'Cível', showsLawsuitId: true,
    places: [
      place('São Paulo', ['6100']), place('São Paulo', ['6182'], ['tax']), place('São Paulo', ['6183'], ['socialSecurity']),
      place('São Paulo', ['6301'], ['federalSmallClaims']), place('São Paulo', ['6181'], ['criminal']), place('Campinas', ['6105']),
      place('Campinas', ['6303'], ['federalSmallClaims']),
    ],
    extras: (c) => (c.instance === 1 ? { vara_federal: TRF3_VARA[c.group] ?? 'Vara Cível' } : {}),
  },
  { acronym: 'TRF1', j: '4', tr: '01', uf: 'DF', weight: 2, justiceDescription: FEDERAL, area: 'Cível', sparse: true, showsLawsuitId: true, places: [place('Brasília', ['3400'])] },
  {
    acronym: 'TRF2', j: '4', tr: '02', uf: 'RJ', weight: 2, justiceDescription: FEDERAL, area: 'Cível',
    places: [place('Rio de Janeiro', ['5101']), place('Rio de Janeiro', ['5151'], ['federalSmallClaims'])],
  },
  {
    acronym: 'TRF4', j: '4', tr: '04', uf: 'RS', weight: 2, justiceDescription: FEDERAL, area: 'Cível', noLastStep: true,
    places: [place('Porto Alegre', ['7100']), placeIn('PR', 'Curitiba', ['7000'])],
  },
  // Electoral courts: their cases are the electoral prosecutor's (public-entities.ts); origin OOOO is the zone.
  {
    acronym: 'TRE-SP', j: '6', tr: '26', uf: 'SP', weight: 0, justiceDescription: ELECTORAL, area: 'Eleitoral',
    places: [place('São Paulo', range(1, 9)), place('Campinas', ['0033', '0274', '0275'])],
  },
  { acronym: 'TRE-RJ', j: '6', tr: '19', uf: 'RJ', weight: 0, justiceDescription: ELECTORAL, area: 'Eleitoral', places: [place('Rio de Janeiro', range(1, 9))] },
  { acronym: 'TRE-MG', j: '6', tr: '13', uf: 'MG', weight: 0, justiceDescription: ELECTORAL, area: 'Eleitoral', places: [place('Belo Horizonte', range(26, 33))] },
  // State military courts (J 9): the three states that have one; origin OOOO is the Auditoria.
  { acronym: 'TJMSP', j: '9', tr: '26', uf: 'SP', weight: 0, justiceDescription: STATE_MILITARY, area: 'Criminal', places: [place('São Paulo', range(1, 4))] },
  { acronym: 'TJMMG', j: '9', tr: '13', uf: 'MG', weight: 0, justiceDescription: STATE_MILITARY, area: 'Criminal', places: [place('Belo Horizonte', range(1, 3))] },
  { acronym: 'TJMRS', j: '9', tr: '21', uf: 'RS', weight: 0, justiceDescription: STATE_MILITARY, area: 'Criminal', places: [place('Porto Alegre', range(1, 2))] },
  // Superior courts, reached by appeal only (REFERENCE.md: TR 00, OOOO 0000).
  { acronym: 'STJ', j: '3', tr: '00', uf: 'DF', weight: 0, superior: true, justiceDescription: SUPERIOR, area: 'Cível', places: [place('Brasília', ['0000'])] },
  { acronym: 'TST', j: '5', tr: '00', uf: 'DF', weight: 0, superior: true, justiceDescription: LABOUR, area: 'Trabalhista', places: [place('Brasília', ['0000'])] },
];

export const TRIBUNALS: TribunalDef[] = DEFS.map((d) => ({ ...d, cities: [...new Set(d.places.map((p) => p.city))] }));
export const TRIBUNAL_CUMULATIVE = ((): number[] => { let s = 0; return TRIBUNALS.map((t) => (s += t.weight)); })();
export const TRIBUNAL_BY_ACRONYM = new Map(TRIBUNALS.map((t) => [t.acronym, t]));

const PLACES_FOR = new Map<string, Place[]>();

/** The places a case of `group` may go to in tribunal `t` (optionally in one city). */
export function placesFor(t: TribunalDef, group: CaseGroup, city?: string): Place[] {
  const key = `${t.acronym}|${group}|${city ?? ''}`;
  let out = PLACES_FOR.get(key);
  if (!out) {
    const inCity = city === undefined ? t.places : t.places.filter((p) => p.city === city);
    const own = inCity.filter((p) => p.groups?.includes(group));
    out = own.length > 0 ? own : inCity.filter((p) => p.groups === undefined);
    PLACES_FOR.set(key, out);
  }
  return out;
}

const FIRST_INSTANCE: Record<CaseGroup, (n: number, fed: boolean) => string> = {
  civil: (n, fed) => (fed ? `${n}ª Vara Federal Cível` : `${n}ª Vara Cível`),
  smallClaims: (n) => (n % 2 ? 'Juizado Especial Cível' : `${n}ª Vara do Juizado Especial Cível`),
  federalSmallClaims: (n) => (n % 2 ? 'Juizado Especial Federal Cível' : `${n}ª Vara Gabinete do Juizado Especial Federal`),
  family: (n) => `${n}ª Vara de Família e Sucessões`,
  tax: (n, fed) => (fed ? `${n}ª Vara de Execuções Fiscais` : n % 2 ? 'Vara de Execuções Fiscais' : `${n}ª Vara da Fazenda Pública`),
  publicLaw: (n, fed) => (fed ? `${n}ª Vara Federal Cível` : `${n}ª Vara da Fazenda Pública`),
  criminal: (n, fed) => (fed ? `${n}ª Vara Federal Criminal` : `${n}ª Vara Criminal`),
  labour: (n) => `${n}ª Vara do Trabalho`,
  socialSecurity: (n) => `${n}ª Vara Previdenciária`,
  electoral: (n) => `${n}ª Zona Eleitoral`,
  military: (n) => `${n}ª Auditoria Militar`,
};
const SECOND_INSTANCE: Record<CaseGroup, (n: number, fed: boolean) => string> = {
  civil: (n, fed) => (fed ? `${n}ª Turma` : `${n}ª Câmara de Direito Privado`),
  smallClaims: (n) => `${n}ª Turma Recursal Cível`,
  federalSmallClaims: (n) => `${n}ª Turma Recursal`,
  family: (n) => `${n}ª Câmara de Direito Privado`,
  tax: (n, fed) => (fed ? `${n}ª Turma` : `${n}ª Câmara de Direito Público`),
  publicLaw: (n, fed) => (fed ? `${n}ª Turma` : `${n}ª Câmara de Direito Público`),
  criminal: (n, fed) => (fed ? `${n}ª Turma` : `${n}ª Câmara de Direito Criminal`),
  labour: (n) => `${n}ª Turma`,
  socialSecurity: (n) => `${n}ª Turma`,
  electoral: () => 'Pleno',
  military: (n) => `${1 + (n % 2)}ª Câmara`,
};
/** The STJ's panels by matter (public law 1st-2nd, private law 3rd-4th, criminal 5th-6th); the TST has eight. */
function superiorPanel(t: TribunalDef, group: CaseGroup, u: number): string {
  if (t.acronym === 'TST') return `${1 + Math.floor(u * 8)}ª Turma`;
  const first = group === 'criminal' ? 5 : group === 'tax' || group === 'publicLaw' ? 1 : 3;
  return `${first + Math.floor(u * 2)}ª Turma`;
}

/** Units whose origin code numbers them (labour courts, electoral zones, military auditorias). */
const NUMBERED_BY_ORIGIN: ReadonlySet<CaseGroup> = new Set(['labour', 'electoral', 'military']);

/**
 * The court's name. A labour court is the Vara do Trabalho its origin code numbers (0015 in São Paulo is the
 * 15ª), an electoral zone and a military auditoria likewise; other first-instance units draw their number from `u`.
 */
export function courtName(t: TribunalDef, group: CaseGroup, instance: number, u: number, city: string, origin: string): string {
  const fed = t.j === '4';
  if (t.superior) return superiorPanel(t, group, u);
  if (instance >= 2) return SECOND_INSTANCE[group](1 + Math.floor(u * 12), fed);
  if (NUMBERED_BY_ORIGIN.has(group)) {
    const n = group === 'labour' ? (t.places.find((x) => x.city === city && x.origins.includes(origin))?.origins.indexOf(origin) ?? 0) + 1 : Number(origin);
    return `${FIRST_INSTANCE[group](n, fed)} ${ofCity(city)}`;
  }
  return `${FIRST_INSTANCE[group](1 + Math.floor(u * 9), fed)} ${ofCity(city)}`;
}
