// The analyst's second reading (issue 38): what gave the sandbox away on nearly every page of 4,800 lawsuits, as
// rules over public lawsuit objects and the lawsuits they name in related_lawsuits. Written from what a Brazilian
// litigation analyst knows (the courts' calendar and clock, who is called what in which class, the number bands of
// the courts' systems and their units' yearly volumes, the law in force, real public bodies and banks), never from
// the sandbox's tables: each rule answers a reason when a lawsuit fails it.

import { flaggedBy, type Lawsuit } from './analyst-checklist.js';

export interface Case {
  /** The lawsuit read. */
  l: Lawsuit;
  /** The lawsuits its related_lawsuits name, as read (each found by its number and instance). */
  related: Lawsuit[];
  /** Related items no lawsuit answers to. */
  missing: string[];
}
export interface Rule { id: string; what: string; check(c: Case): string | undefined }

const DAY = 86_400_000;
const classOf = (l: Lawsuit) => String(l.classifications?.[0]?.code ?? '');
const code = (s: Lawsuit) => String(s.step_type ?? '');
const text = (s: Lawsuit) => String(s.content ?? '');
const stepsOf = (l: Lawsuit): Lawsuit[] => [...(l.steps ?? [])].sort((a, b) => Date.parse(a.step_date) - Date.parse(b.step_date));
const date = (s: Lawsuit) => Date.parse(s.step_date);
const docs = (l: Lawsuit, side: string) => new Set<string>((l.parties ?? []).filter((p: Lawsuit) => p.side === side && p.person_type !== 'Advogado' && p.document).map((p: Lawsuit) => p.document));
/** Step contents hidden (the highest secrecy hides them even from a credential): the text rules cannot read them. */
const hidden = (l: Lawsuit) => (l.steps ?? []).some((s: Lawsuit) => s.content === undefined);
const originOf = (c: Case) => c.related.find((r, k) => c.l.related_lawsuits[k]?.relation === 'origin');

// ---- The courts' calendar and clock -------------------------------------------------------------------------

/** Easter Sunday, 2007-2036 (the Church's tables). */
const EASTER: Record<number, string> = {
  2007: '04-08', 2008: '03-23', 2009: '04-12', 2010: '04-04', 2011: '04-24', 2012: '04-08', 2013: '03-31', 2014: '04-20', 2015: '04-05',
  2016: '03-27', 2017: '04-16', 2018: '04-01', 2019: '04-21', 2020: '04-12', 2021: '04-04', 2022: '04-17', 2023: '04-09', 2024: '03-31',
  2025: '04-20', 2026: '04-05', 2027: '03-28', 2028: '04-16', 2029: '04-01', 2030: '04-21', 2031: '04-13', 2032: '03-28', 2033: '04-17',
  2034: '04-09', 2035: '03-25', 2036: '04-13',
};
/** Holidays the courts close for, by local date: the national ones, Carnival, Good Friday and Corpus Christi. */
function isHoliday(y: number, m: number, d: number, uf: string): boolean {
  const md = `${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  if (['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '12-25'].includes(md)) return true;
  if (md === '11-20' && (y >= 2024 || uf === 'RJ')) return true; // national from Law 14.759/2023; Rio's own before
  if ((uf === 'SP' && md === '07-09') || (uf === 'RJ' && md === '04-23')) return true;
  const easter = Date.parse(`${y}-${EASTER[y]}T00:00:00Z`);
  const t = Date.UTC(y, m - 1, d);
  return [-48, -47, -2, 60].some((k) => easter + k * DAY === t);
}
/** The forensic recess: 20 December to 6 January. */
const inRecess = (m: number, d: number) => (m === 12 && d >= 20) || (m === 1 && d <= 6);
/** No hearing nor session from 20 December to 20 January (CPC art. 220 §2; CLT art. 775-A). */
const inSuspension = (m: number, d: number) => (m === 12 && d >= 20) || (m === 1 && d <= 20);

const ZONES: Record<string, string> = {
  SP: 'America/Sao_Paulo', RJ: 'America/Sao_Paulo', MG: 'America/Sao_Paulo', RS: 'America/Sao_Paulo', PR: 'America/Sao_Paulo', DF: 'America/Sao_Paulo',
  SC: 'America/Sao_Paulo', ES: 'America/Sao_Paulo', BA: 'America/Bahia', PE: 'America/Recife', CE: 'America/Fortaleza', AL: 'America/Maceio',
};
const formats = new Map<string, Intl.DateTimeFormat>();
/** The court's local date and time of an instant (the IANA time zone database, summer times included). */
function localTime(iso: string, uf: string): { y: number; m: number; d: number; weekday: number; hour: number; minute: number } {
  let f = formats.get(uf);
  if (!f) formats.set(uf, (f = new Intl.DateTimeFormat('en-US', { timeZone: ZONES[uf], year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short', hourCycle: 'h23' })));
  const parts = Object.fromEntries(f.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return {
    y: Number(parts.year), m: Number(parts.month), d: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute),
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday),
  };
}
const isCourtDay = (t: ReturnType<typeof localTime>, uf: string) => t.weekday > 0 && t.weekday < 6 && !isHoliday(t.y, t.m, t.d, uf) && !inRecess(t.m, t.d);

/** The state a tribunal's appellate body (and so its second-instance acts) sits in. */
const SEAT: Record<string, string> = {
  TJSP: 'SP', TJRJ: 'RJ', TJMG: 'MG', TJRS: 'RS', TJPR: 'PR', TJBA: 'BA', TJPE: 'PE', TJDFT: 'DF', TJCE: 'CE', TJAL: 'AL',
  TRT1: 'RJ', TRT2: 'SP', TRT3: 'MG', TRT15: 'SP', TRF1: 'DF', TRF2: 'RJ', TRF3: 'SP', TRF4: 'RS',
  'TRE-SP': 'SP', 'TRE-RJ': 'RJ', 'TRE-MG': 'MG', TJMSP: 'SP', TJMMG: 'MG', TJMRS: 'RS', STJ: 'DF', TST: 'DF',
};
/** Where a lawsuit's acts happen: the first instance's unit, or the court above's seat. */
const courtState = (l: Lawsuit) => (l.instance === 1 ? String(l.state) : SEAT[l.tribunal_acronym]);

/** Hearings, judgment sessions and the official journal: the court's own, on its days, in office hours. */
const SITTINGS = new Set(['970', '237', '238', '239', '200', '92']);
/** What parties file electronically (petitions, a case brought): any day, at any hour people work. */
const FILED = new Set(['85', '26']);

function sittingOnCourtDays({ l }: Case): string | undefined {
  const uf = courtState(l);
  for (const s of stepsOf(l)) {
    if (!SITTINGS.has(code(s))) continue;
    const t = localTime(s.step_date, uf);
    if (!isCourtDay(t, uf)) return `${code(s)} "${text(s)}" on ${t.y}-${t.m}-${t.d} (${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][t.weekday]}) in ${uf}`;
    if (t.hour < 8 || t.hour >= 20) return `${code(s)} "${text(s)}" at ${t.hour}:${String(t.minute).padStart(2, '0')} in ${uf}`;
    if (code(s) !== '92' && date(s) >= Date.UTC(2016, 2, 18) && inSuspension(t.m, t.d)) return `${code(s)} "${text(s)}" on ${t.y}-${t.m}-${t.d}, deadlines suspended`;
  }
  return undefined;
}

function courtActsOnCourtDays({ l }: Case): string | undefined {
  const uf = courtState(l);
  const bad = stepsOf(l).find((s) => {
    if (FILED.has(code(s)) || SITTINGS.has(code(s))) return false;
    const t = localTime(s.step_date, uf);
    return !isCourtDay(t, uf) || t.hour < 8 || t.hour >= 20;
  });
  return bad && `${code(bad)} "${text(bad)}" at ${bad.step_date} (${uf})`;
}

function plausibleHours({ l }: Case): string | undefined {
  const uf = courtState(l);
  const bad = stepsOf(l).find((s) => localTime(s.step_date, uf).hour < 6);
  return bad && `${code(bad)} "${text(bad)}" at ${bad.step_date} (${uf}, before 6:00)`;
}

// ---- Roles ---------------------------------------------------------------------------------------------------

/** What the two sides are called, by class. */
const ROLES: Record<string, [string, string]> = {
  985: ['Reclamante', 'Reclamado'], 1125: ['Reclamante', 'Reclamado'],
  159: ['Exequente', 'Executado'], 1116: ['Exequente', 'Executado'], 156: ['Exequente', 'Executado'], 12078: ['Exequente', 'Executado'], 1114: ['Exequente', 'Executado'],
  172: ['Embargante', 'Embargado'], 1118: ['Embargante', 'Embargado'],
  283: ['Autor', 'Réu'], 10943: ['Autor', 'Réu'], 290: ['Autor', 'Réu'], 300: ['Autor', 'Acusado'], 11037: ['Autor', 'Acusado'],
  11541: ['Representante', 'Representado'], 7: ['Autor', 'Réu'], 436: ['Autor', 'Réu'], 69: ['Autor', 'Réu'],
  198: ['Apelante', 'Apelado'], 417: ['Apelante', 'Apelado'], 460: ['Recorrente', 'Recorrido'], 1009: ['Recorrente', 'Recorrido'],
  1032: ['Recorrente', 'Recorrido'], 1008: ['Recorrente', 'Recorrido'], 202: ['Agravante', 'Agravado'],
};

function rolesFollowClass({ l }: Case): string | undefined {
  const roles = ROLES[classOf(l)];
  if (!roles) return `class ${classOf(l)} the analyst cannot name the roles of`;
  for (const p of l.parties ?? []) {
    if (p.person_type === 'Advogado') continue;
    const want = p.side === 'Active' ? roles[0] : p.side === 'Passive' ? roles[1] : undefined;
    if (want && p.person_type !== want) return `class ${classOf(l)}: ${p.side} party "${p.name}" is ${p.person_type}, not ${want}`;
  }
  return undefined;
}

const JUDGMENTS = new Set(['219', '220', '221', '471']);
const DECISIONS = new Set(['332', '785', '3']);

/** The party that lost appeals; the party a decision went against files the agravo. */
function appellantLost(c: Case): string | undefined {
  const l = c.l;
  const origin = originOf(c);
  if (l.instance === 1 || !origin) return undefined;
  const appellant = docs(l, 'Active');
  if (appellant.size === 0) return undefined; // names hidden (secrecy)
  const claimant = docs(origin, 'Active');
  const defendant = docs(origin, 'Passive');
  const isIn = (set: Set<string>) => [...appellant].every((d) => set.has(d));
  const before = stepsOf(origin).filter((s) => date(s) < Date.parse(l.distribution_date));
  if (classOf(l) === '202') {
    const decision = [...before].reverse().find((s) => DECISIONS.has(code(s)));
    if (!decision) return undefined; // appealedDecisionShown names it
    const against = code(decision) === '785' ? claimant : defendant;
    return isIn(against) ? undefined : `agravo against "${text(decision)}" filed by the other side`;
  }
  const judgment = [...before].reverse().find((s) => JUDGMENTS.has(code(s)));
  if (!judgment || code(judgment) === '221') return undefined;
  const loser = code(judgment) === '219' ? defendant : claimant;
  return isIn(loser) ? undefined : `${classOf(l)} after "${text(judgment)}" brought by the winner`;
}

// ---- Numbers ---------------------------------------------------------------------------------------------------

/**
 * The sequence bands of the courts' systems, by tribunal and the system a crawler names: PJe of the labour courts
 * numbers from 1000001 in the TRT2, 0100001 in the TRT1, 0010001 in the TRT3 and TRT15; eproc from 5000001; TJSP's
 * digital e-SAJ from 1000001 (its physical records, 0000001), its agravos from 2000001...; what a court kept on paper
 * or in a system of its own, from 0000001. [first-instance bands, appellate (OOOO 0000) bands].
 */
const BANDS: Record<string, [number[], number[]]> = {
  'TJSP ESAJ': [[0, 1_000_000], [0, 2_000_000]], 'TJAL ESAJ': [[0, 700_000], [0]], 'TJCE ESAJ': [[0, 200_000], [0]],
  'TJRJ PJe': [[800_000], [0]], 'TJMG PJe': [[5_000_000], [0]], 'TJBA PJe': [[8_000_000], [8_000_000]], 'TJDFT PJe': [[700_000], [700_000]],
  'TJPE PJe': [[0], [0]], 'TJRS eproc': [[5_000_000], [5_000_000]], 'TJPR Projudi': [[0], [0]],
  'TRT2 PJe': [[1_000_000], [1_000_000]], 'TRT1 PJe': [[100_000], [100_000]], 'TRT3 PJe': [[10_000], [10_000]], 'TRT15 PJe': [[10_000], [10_000]],
  'TRF1 PJe': [[1_000_000], [1_000_000]], 'TRF3 PJe': [[5_000_000], [5_000_000]], 'TRF2 eproc': [[5_000_000], [5_000_000]], 'TRF4 eproc': [[5_000_000], [5_000_000]],
  'TRE-SP PJe': [[600_000], [600_000]], 'TRE-RJ PJe': [[600_000], [600_000]], 'TRE-MG PJe': [[600_000], [600_000]],
};
/**
 * Most cases one unit numbers in a year, by tribunal (the largest of its units: a central forum, an
 * appellate body's original cases); units known to be smaller have their own figure.
 */
const MOST_A_YEAR: Record<string, number> = {
  TJSP: 1_000_000, TJRJ: 400_000, TJMG: 300_000, TJRS: 300_000, TJPR: 200_000, TJBA: 200_000, TJPE: 150_000, TJDFT: 150_000, TJCE: 150_000, TJAL: 60_000,
  TRF1: 250_000, TRF2: 100_000, TRF3: 250_000, TRF4: 200_000, STJ: 500_000, TST: 400_000,
  // A Vara do Trabalho, an electoral zone, a military auditoria: a few thousand a year at most.
  TRT1: 5_000, TRT2: 5_000, TRT3: 5_000, TRT15: 5_000, 'TRE-SP': 2_000, 'TRE-RJ': 2_000, 'TRE-MG': 2_000, TJMSP: 2_000, TJMMG: 2_000, TJMRS: 2_000,
};
/** What the TRTs number at their appellate bodies (their own original cases). */
const APPELLATE_MOST: Record<string, number> = { TRT1: 100_000, TRT2: 150_000, TRT3: 100_000, TRT15: 100_000 };

function numberACourtIssues({ l }: Case): string | undefined {
  const d = String(l.code).replace(/\D/g, '');
  const seq = Number(d.slice(0, 7));
  const origin = d.slice(16, 20);
  const source = String(l.crawler?.source_name ?? '');
  const system = source.split(' - ')[1]?.replace(/ 2º grau$/, '');
  const court = l.tribunal_acronym as string;
  // The number is the origin's (an appeal keeps it): its tribunal is the one J.TR names.
  const known = BANDS[`${court} ${system}`];
  const bands = known ? known[origin === '0000' ? 1 : 0] : [0];
  const most = origin === '0000' ? APPELLATE_MOST[court] ?? MOST_A_YEAR[court] : MOST_A_YEAR[court];
  if (most === undefined) return `a court the analyst does not know: ${court}`;
  if (!bands.some((b) => seq > b && seq <= b + most)) return `${l.code} (${source}): sequence ${seq} outside ${bands.map((b) => `${b + 1}-${b + most}`).join(' or ')}`;
  return undefined;
}

/** The states each tribunal's units sit in. */
const STATES: Record<string, string[]> = {
  TRF1: ['DF', 'GO', 'MG', 'BA', 'MT', 'PA', 'AM', 'MA', 'PI', 'TO', 'AC', 'AP', 'RO', 'RR'], TRF2: ['RJ', 'ES'], TRF3: ['SP', 'MS'], TRF4: ['RS', 'PR', 'SC'],
  STJ: ['DF'], TST: ['DF'],
};
/** Units the analyst knows by their number: J.TR.OOOO -> city. */
const UNIT_CITIES: Record<string, string> = {
  '8.26.0100': 'São Paulo', '8.26.0050': 'São Paulo', '8.26.0053': 'São Paulo', '8.26.0090': 'São Paulo', '8.26.0224': 'Guarulhos',
  '8.26.0114': 'Campinas', '8.26.0562': 'Santos', '8.26.0506': 'Ribeirão Preto', '8.26.0602': 'Sorocaba', '8.26.0000': 'São Paulo',
  '8.19.0001': 'Rio de Janeiro', '8.19.0002': 'Niterói', '8.19.0000': 'Rio de Janeiro', '8.13.0024': 'Belo Horizonte', '8.13.0702': 'Uberlândia',
  '8.13.0000': 'Belo Horizonte', '8.21.0001': 'Porto Alegre', '8.21.0000': 'Porto Alegre', '8.16.0001': 'Curitiba', '8.16.0000': 'Curitiba',
  '8.05.0001': 'Salvador', '8.05.0000': 'Salvador', '8.17.0001': 'Recife', '8.07.0001': 'Brasília', '8.06.0001': 'Fortaleza', '8.02.0001': 'Maceió',
  '4.03.6100': 'São Paulo', '4.03.6182': 'São Paulo', '4.03.6301': 'São Paulo', '4.03.6105': 'Campinas', '4.03.0000': 'São Paulo',
  '4.04.7100': 'Porto Alegre', '4.04.7000': 'Curitiba', '4.04.0000': 'Porto Alegre', '4.01.3400': 'Brasília', '4.01.0000': 'Brasília',
  '4.02.5101': 'Rio de Janeiro', '4.02.0000': 'Rio de Janeiro', '5.02.0001': 'São Paulo', '5.02.0000': 'São Paulo', '5.15.0000': 'Campinas',
  '3.00.0000': 'Brasília', '5.00.0000': 'Brasília',
};

function placeOfTheUnit({ l }: Case): string | undefined {
  const d = String(l.code).replace(/\D/g, '');
  const unit = `${d[13]}.${d.slice(14, 16)}.${d.slice(16, 20)}`;
  if (l.county !== l.city) return `county ${l.county} is not the unit's city ${l.city}`;
  const states = STATES[l.tribunal_acronym] ?? [SEAT[l.tribunal_acronym]];
  if (!states.includes(l.state)) return `${l.tribunal_acronym} unit in ${l.state}`;
  const city = UNIT_CITIES[unit];
  return city && city !== l.city ? `${unit} is ${city}, not ${l.city}` : undefined;
}

// ---- Related lawsuits ------------------------------------------------------------------------------------------

const INVERSE: Record<string, string[]> = {
  origin: ['appeal', 'interlocutory_appeal', 'execution', 'dependency'], appeal: ['origin'], interlocutory_appeal: ['origin'], execution: ['origin'], dependency: ['origin'],
};

function relatedExistAndNameBack(c: Case): string | undefined {
  if (c.missing.length > 0) return `names ${c.missing[0]}, which no lawsuit answers to`;
  for (const [k, item] of (c.l.related_lawsuits ?? []).entries()) {
    const other = c.related[k];
    const back = (other.related_lawsuits ?? []).find((x: Lawsuit) => x.code === c.l.code && x.instance === c.l.instance);
    if (!back) return `${item.relation} ${item.code}#${item.instance} does not name it back`;
    if (!INVERSE[item.relation].includes(back.relation)) return `${item.relation} ${item.code} names it back as ${back.relation}`;
  }
  return undefined;
}

function dependencyNamesItsCase(c: Case): string | undefined {
  const first = stepsOf(c.l)[0];
  const byDependency = first && code(first) === '26' && /dependência/.test(text(first));
  const origin = originOf(c);
  if (byDependency && !(origin && text(first).includes(origin.code))) return `"${text(first)}" with no origin named`;
  if (c.l.instance === 1 && origin && first && !byDependency && first.content !== undefined) return `a case opened from ${origin.code} "${text(first)}"`;
  return undefined;
}

/** The origin shows what was appealed: a judgment before an appeal, a decision (never a mere order) before an agravo. */
function appealedDecisionShown(c: Case): string | undefined {
  const origin = originOf(c);
  if (!origin || c.l.instance === 1 || !origin.steps) return undefined;
  const before = stepsOf(origin).filter((s) => date(s) < Date.parse(c.l.distribution_date));
  const wanted = classOf(c.l) === '202' ? DECISIONS : JUDGMENTS;
  if (hidden(origin)) return undefined;
  return before.some((s) => wanted.has(code(s))) ? undefined : `${classOf(c.l)} ${c.l.distribution_date.slice(0, 10)}: the origin shows no ${classOf(c.l) === '202' ? 'decision' : 'judgment'} before it`;
}

function openedAfterItsCause(c: Case): string | undefined {
  const origin = originOf(c);
  if (!origin || c.l.instance !== 1 || !origin.steps || hidden(origin)) return undefined;
  const at = Date.parse(c.l.distribution_date);
  const cls = classOf(c.l);
  if (['156', '12078', '1114'].includes(cls) && !stepsOf(origin).some((s) => code(s) === '848' && date(s) < at)) return 'an execution of a judgment not yet final';
  if (['172', '1118'].includes(cls) && !stepsOf(origin).some((s) => /citação/.test(text(s)) && date(s) < at)) return 'embargos before the debtor was summoned';
  return undefined;
}

// ---- The law in force ------------------------------------------------------------------------------------------

const CPC_2015 = Date.UTC(2016, 2, 18);
const CPP_REFORM = Date.UTC(2008, 7, 22);

function lawInForce({ l }: Case): string | undefined {
  for (const s of stepsOf(l)) {
    const t = text(s);
    const at = date(s);
    if (/art\. (523|921|535|1\.015|1\.009)\b[^)]*do CPC/.test(t) && at < CPC_2015) return `"${t}" on ${s.step_date.slice(0, 10)}, before the 2015 code`;
    if (/art\. (475-J|791|730|522)\b[^)]*do CPC/.test(t) && at >= CPC_2015) return `"${t}" on ${s.step_date.slice(0, 10)}, under the 2015 code`;
    if (/resposta à acusação/.test(t) && at < CPP_REFORM) return `"${t}" on ${s.step_date.slice(0, 10)}, before Law 11.719/2008`;
  }
  const dist = Date.parse(l.distribution_date);
  if (classOf(l) === '10943' && dist < CPP_REFORM) return 'the summary criminal rite before Law 11.719/2008';
  if (classOf(l) === '12078' && dist < CPC_2015) return 'a fulfilment against the Fazenda before the 2015 code';
  return undefined;
}

/** Subjects named after a rule that came later: internet propaganda (Law 12.034/2009), known falsehoods (Res. TSE 23.610/2019). */
const SUBJECT_SINCE: Record<string, number> = { 11679: Date.UTC(2009, 8, 29), 12635: Date.UTC(2019, 11, 18) };

function subjectsInTheirYear({ l }: Case): string | undefined {
  const bad = (l.subjects ?? []).find((s: Lawsuit) => SUBJECT_SINCE[s.code] && Date.parse(l.distribution_date) < SUBJECT_SINCE[s.code]);
  return bad && `"${bad.name}" in a case of ${l.distribution_date.slice(0, 10)}`;
}

/** Days to appeal, by the appeal's class: apelação 15 (criminal 5), recurso inominado 10, recurso ordinário 8. */
const APPEAL_DAYS: Record<string, number> = { 198: 15, 417: 5, 460: 10, 1009: 8 };

/** Whether `to` is within `days` of `from`: counted in calendar days, a deadline ending on a closed day runs to the next open one. */
function within(from: number, to: number, days: number, uf: string): boolean {
  let end = from + days * DAY;
  for (let k = 0; k < 40 && !isCourtDay(localTime(new Date(end).toISOString(), uf), uf); k++) end += DAY;
  const endDay = localTime(new Date(end).toISOString(), uf);
  const toDay = localTime(new Date(to).toISOString(), uf);
  return Date.UTC(toDay.y, toDay.m - 1, toDay.d) <= Date.UTC(endDay.y, endDay.m - 1, endDay.d);
}

function deadlinesKept(c: Case): string | undefined {
  const l = c.l;
  const origin = originOf(c);
  const uf = courtState(l);
  // Embargos de declaração: within 5 days of the ruling's publication (2 in criminal cases).
  const steps = stepsOf(l);
  for (let k = 1; k < steps.length; k++) {
    if (!/embargos de declaração/.test(text(steps[k])) || code(steps[k]) !== '85') continue;
    const published = [...steps.slice(0, k)].reverse().find((s) => /Publicado o acórdão/.test(text(s)));
    const days = l.area === 'Criminal' ? 2 : 5;
    if (published && !within(date(published), date(steps[k]), days, uf)) return `embargos de declaração ${steps[k].step_date.slice(0, 10)} after the ruling published ${published.step_date.slice(0, 10)}`;
  }
  if (l.instance === 1 || !origin?.steps || hidden(origin)) return undefined;
  const ostep = stepsOf(origin);
  const ouf = String(origin.state);
  if (classOf(l) === '202') {
    const k = ostep.map((s) => DECISIONS.has(code(s)) && date(s) < Date.parse(l.distribution_date)).lastIndexOf(true);
    if (k < 0) return undefined;
    const from = ostep[k + 1] && /Publicada a decisão/.test(text(ostep[k + 1])) ? ostep[k + 1] : ostep[k];
    const days = date(from) >= CPC_2015 ? 15 : 10;
    return within(date(from), Date.parse(l.distribution_date), days, ouf) ? undefined : `agravo ${l.distribution_date.slice(0, 10)} after the decision of ${from.step_date.slice(0, 10)}`;
  }
  const days = APPEAL_DAYS[classOf(l)];
  if (!days) return undefined;
  const filed = ostep.find((s) => code(s) === '85' && /apelação|recurso inominado|recurso ordinário/.test(text(s)) && date(s) < Date.parse(l.distribution_date));
  if (!filed) return `${classOf(l)} with no appeal filed at its origin`;
  const judged = [...ostep].reverse().find((s) => (JUDGMENTS.has(code(s)) || /Publicada a sentença/.test(text(s))) && date(s) < date(filed));
  if (!judged) return undefined;
  return within(date(judged), date(filed), days, ouf) ? undefined : `appeal filed ${filed.step_date.slice(0, 10)}, ${Math.round((date(filed) - date(judged)) / DAY)} days after ${judged.step_date.slice(0, 10)}`;
}

/** The fulfilment of a judgment begins when the creditor asks. */
function fulfilmentAsked({ l }: Case): string | undefined {
  if (hidden(l)) return undefined;
  const steps = stepsOf(l);
  const started = steps.findIndex((s) => code(s) === '11385');
  if (started < 0) return undefined;
  const final = steps.slice(0, started).map((s) => code(s) === '848').lastIndexOf(true);
  const asked = steps.slice(final + 1, started).some((s) => code(s) === '85' && /cumprimento de sentença|cálculos/.test(text(s)));
  return asked ? undefined : `"${text(steps[started])}" with no petition of the creditor before it`;
}

// ---- Parties ---------------------------------------------------------------------------------------------------

/** Public bodies and the big banks, by their real CNPJs. */
export const REAL_CNPJS: Record<string, string> = {
  'União - Fazenda Nacional': '00394460005887', União: '26994558000123', 'Instituto Nacional do Seguro Social - INSS': '29979036000140',
  'Ministério Público Federal': '26989715000102', 'Caixa Econômica Federal': '00360305000104', 'Estado de São Paulo': '46379400000150',
  'Município de São Paulo': '46395000000139', 'Ministério Público do Estado de São Paulo': '01468760000190', 'Estado do Rio de Janeiro': '42498600000171',
  'Município do Rio de Janeiro': '42498733000148', 'Estado de Minas Gerais': '18715615000160', 'Município de Belo Horizonte': '18715383000140',
  'Estado do Rio Grande do Sul': '87934675000196', 'Município de Porto Alegre': '92963560000160', 'Estado do Paraná': '76416940000128',
  'Município de Curitiba': '76417005000186', 'Estado da Bahia': '13937032000160', 'Município de Salvador': '13927801000149',
  'Distrito Federal': '00394601000126', 'Município de Campinas': '51885242000140', 'Município de Guarulhos': '46319000000150',
  'Banco do Brasil S.A.': '00000000000191', 'Itaú Unibanco S.A.': '60701190000104', 'Banco Bradesco S.A.': '60746948000112',
  'Banco Santander (Brasil) S.A.': '90400888000142',
};
const NAME_OF_CNPJ = new Map(Object.entries(REAL_CNPJS).map(([n, d]) => [d, n]));

function realCnpjs({ l }: Case): string | undefined {
  for (const p of l.parties ?? []) {
    if (!p.document) continue;
    if (REAL_CNPJS[p.name] && REAL_CNPJS[p.name] !== p.document) return `${p.name} with CNPJ ${p.document}, not ${REAL_CNPJS[p.name]}`;
    const owner = NAME_OF_CNPJ.get(p.document);
    // The electoral prosecutor is the MPF before the electoral courts, under its CNPJ.
    if (owner && owner !== p.name && !(owner === 'Ministério Público Federal' && p.name === 'Ministério Público Eleitoral')) return `CNPJ ${p.document} (${owner}) named "${p.name}"`;
  }
  return undefined;
}

function fazendaOnlyInTax({ l }: Case): string | undefined {
  if (!(l.parties ?? []).some((p: Lawsuit) => /Fazenda Nacional/.test(p.name))) return undefined;
  const bad = (l.subjects ?? []).find((s: Lawsuit) => !TAX_SUBJECTS.has(String(s.code)));
  return bad && `the Fazenda Nacional in a case about "${bad.name}"`;
}
/** Subjects of tax law (TPU, DIREITO TRIBUTÁRIO) the analyst meets in tax enforcements. */
const TAX_SUBJECTS = new Set(['6017', '5952', '5951', '10536', '5946', '5953', '5933', '5917', '6035', '6039', '6060']);

const PUBLIC = /^(Município|Estado|Distrito Federal|Ministério Público|União|Instituto Nacional|Caixa Econômica)/;

function secrecyWhereTheLawPutsIt({ l }: Case): string | undefined {
  const cls = classOf(l);
  if ((cls === '1116' || cls === '436') && l.secrecy_level > 0) return `class ${cls} under secrecy ${l.secrecy_level}`;
  if (cls === '69' && l.secrecy_level === 0) return 'an alimony case in public';
  if ((l.subjects ?? []).some((s: Lawsuit) => s.code === '10949') && l.secrecy_level === 0) return 'domestic violence in public';
  if (PUBLIC.test((l.parties ?? []).find((p: Lawsuit) => p.side === 'Active')?.name ?? '') && l.instance === 1 && l.free_justice === true) return 'free legal aid for a public body';
  return undefined;
}

function noThirdPartiesInSmallClaims({ l }: Case): string | undefined {
  if (!['436', '460'].includes(classOf(l))) return undefined;
  const third = (l.parties ?? []).find((p: Lawsuit) => p.side !== 'Active' && p.side !== 'Passive');
  return third && `${third.person_type} "${third.name}" in a small-claims case`;
}

function noOneOnBothSides({ l }: Case): string | undefined {
  const active = docs(l, 'Active');
  const both = [...docs(l, 'Passive')].find((d) => active.has(d));
  if (both) return `${both} on both sides`;
  const seen = new Set<string>();
  for (const p of l.parties ?? []) {
    if (!p.document || p.person_type === 'Advogado') continue;
    if (seen.has(p.document)) return `${p.document} listed twice`;
    seen.add(p.document);
  }
  return undefined;
}

/** What only a party's lawyer files: the defendant's answers and petitions. */
const ANSWER = /^Juntada de (contestação|defesa|resposta à acusação|defesa prévia|contraminuta|contrarrazões|impugnação|petição da parte ré|comprovante de pagamento)/;

function defendantRepresentedWhenAnswering({ l }: Case): string | undefined {
  if (l.instance !== 1 || ['172', '1118'].includes(classOf(l))) return undefined;
  const answer = stepsOf(l).find((s) => ANSWER.test(text(s)));
  if (!answer) return undefined;
  const passive = (l.parties ?? []).filter((p: Lawsuit) => p.side === 'Passive');
  const represented = passive.some((p: Lawsuit) => p.person_type === 'Advogado' || (p.lawyers ?? []).length > 0);
  return represented ? undefined : `"${text(answer)}" by a defendant with no lawyer`;
}

// ---- Criminal and social-security cases ---------------------------------------------------------------------------

function riteFollowsTheCrime({ l }: Case): string | undefined {
  const cls = classOf(l);
  if (!['283', '10943', '290', '300'].includes(cls)) return undefined;
  const subjects = new Set((l.subjects ?? []).map((s: Lawsuit) => String(s.code)));
  if (subjects.has('3608') !== (cls === '300')) return `class ${cls} for ${[...subjects].join(', ')}`;
  if ((cls === '10943' || cls === '290') && !subjects.has('10949')) return `the summary rite for ${[...subjects].join(', ')}`;
  if (cls === '300') {
    const steps = stepsOf(l);
    const prior = steps.findIndex((s) => /defesa prévia/.test(text(s)));
    const received = steps.findIndex((s) => /recebida a denúncia/.test(text(s)));
    if (received >= 0 && (prior < 0 || prior > received)) return 'the drug law\'s accusation received before a prior defence';
  }
  return undefined;
}

/** Women's first names, as the analyst reads them. */
const WOMEN = new Set(['Ana', 'Maria', 'Francisca', 'Antônia', 'Adriana', 'Juliana', 'Márcia', 'Fernanda', 'Patrícia', 'Aline', 'Sandra', 'Camila', 'Amanda',
  'Bruna', 'Jéssica', 'Letícia', 'Júlia', 'Luciana', 'Vanessa', 'Mariana', 'Gabriela', 'Vera', 'Vitória', 'Larissa', 'Cláudia', 'Beatriz', 'Luana', 'Rita',
  'Sônia', 'Renata', 'Eliane', 'Josefa', 'Simone', 'Natália', 'Cristiane', 'Carla', 'Débora', 'Rosângela', 'Jaqueline', 'Rosa', 'Daniela', 'Aparecida',
  'Marlene', 'Terezinha', 'Raimunda', 'Andréia', 'Fabiana', 'Lúcia', 'Raquel', 'Ângela', 'Rafaela', 'Joana', 'Luzia', 'Elaine', 'Daniele', 'Regina',
  'Daiane', 'Sueli', 'Alessandra', 'Isabel']);
/** Benefits for which incapacity is judged, and work accidents: a physician examines the claimant. */
const INCAPACITY = new Set(['6095', '6101', '6114', '2569']);

function plausibleClaimant({ l }: Case): string | undefined {
  if (!(l.subjects ?? []).some((s: Lawsuit) => s.code === '6103')) return undefined;
  const claimant = (l.parties ?? []).find((p: Lawsuit) => p.side === (l.instance === 1 ? 'Active' : p.side) && p.document_type === 'CPF');
  const first = String(claimant?.name ?? '').split(' ')[0];
  return !claimant || claimant.name === 'Segredo de Justiça' || WOMEN.has(first) ? undefined : `maternity pay claimed by ${claimant.name}`;
}

function medicalEvidenceWhereIncapacityIsJudged({ l }: Case): string | undefined {
  if (hidden(l)) return undefined;
  const incapacity = (l.subjects ?? []).some((s: Lawsuit) => INCAPACITY.has(String(s.code)));
  const steps = stepsOf(l);
  const medical = steps.find((s) => /médic/i.test(text(s)));
  if (medical && !incapacity) return `"${text(medical)}" where no incapacity is judged`;
  const social = (l.parties ?? []).some((p: Lawsuit) => /Instituto Nacional do Seguro Social/.test(p.name));
  const judged = steps.find((s) => ['219', '220', '221'].includes(code(s)));
  if (social && incapacity && judged && !steps.some((s) => /laudo médico/.test(text(s)) && date(s) < date(judged))) return 'incapacity judged with no medical report';
  return undefined;
}

export const RULES: Rule[] = [
  { id: 'sittings', what: 'hearings, sessions and publications on court days, in office hours, out of the suspension', check: sittingOnCourtDays },
  { id: 'court-acts', what: "the court's other acts on its days, in office hours", check: courtActsOnCourtDays },
  { id: 'hours', what: 'every act at a plausible hour (none before 6:00 local time)', check: plausibleHours },
  { id: 'roles', what: 'roles follow the class and the instance', check: rolesFollowClass },
  { id: 'appellant', what: 'the party that lost appeals; the one a decision went against files the agravo', check: appellantLost },
  { id: 'sequence', what: "a sequence within the band of the court's system and its unit's yearly volume", check: numberACourtIssues },
  { id: 'place', what: "the unit's city, county and state agree with its number", check: placeOfTheUnit },
  { id: 'related', what: 'related lawsuits exist and name each other back', check: relatedExistAndNameBack },
  { id: 'dependency', what: '"distributed by dependency" names the case it depends on, and a case opened from another says so', check: dependencyNamesItsCase },
  { id: 'appealed-decision', what: "the origin shows the decision appealed (a judgment; an agravo's decision, never a mere order)", check: appealedDecisionShown },
  { id: 'opened-after', what: 'an execution after the judgment became final, embargos after the summons', check: openedAfterItsCause },
  { id: 'law-in-force', what: 'codes cited only in force (CPC/2015 from 2016-03-18; Law 11.719/2008)', check: lawInForce },
  { id: 'subjects-year', what: 'subjects exist in their year', check: subjectsInTheirYear },
  { id: 'deadlines', what: 'appeals, agravos and embargos de declaração within their days', check: deadlinesKept },
  { id: 'fulfilment', what: 'the fulfilment of a judgment starts after the creditor asks', check: fulfilmentAsked },
  { id: 'real-cnpjs', what: 'public bodies and the big banks with their real CNPJs', check: realCnpjs },
  { id: 'fazenda', what: 'the Fazenda Nacional only in tax matters', check: fazendaOnlyInTax },
  { id: 'secrecy', what: 'secrecy where the law puts it (family, domestic violence), never on tax executions or small claims; no free legal aid for public bodies', check: secrecyWhereTheLawPutsIt },
  { id: 'third-parties', what: 'no third parties in small-claims courts', check: noThirdPartiesInSmallClaims },
  { id: 'both-sides', what: 'no one on both sides, no one twice', check: noOneOnBothSides },
  { id: 'represented', what: 'defendants represented when they answer', check: defendantRepresentedWhenAnswering },
  { id: 'rite', what: 'the criminal rite follows the crime (drug trafficking under its own law)', check: riteFollowsTheCrime },
  { id: 'claimant', what: 'benefits claimed by plausible claimants (maternity pay by a woman)', check: plausibleClaimant },
  { id: 'medical', what: 'medical evidence where incapacity is judged, and only there', check: medicalEvidenceWhereIncapacityIsJudged },
];

/** Each rule's flagged lawsuits, with one reason each. */
export const readAgain = (cases: readonly Case[]) => flaggedBy(RULES, cases);
