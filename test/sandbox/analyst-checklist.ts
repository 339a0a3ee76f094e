// What a Brazilian litigation analyst checks when reading a lawsuit, written from the analyst's own knowledge and
// never from the sandbox's tables: the order of procedure read from the steps' movements (TPU codes) and wording,
// appeal timing, the sections' OAB numbering, the rites' value ceilings, sectors read from company names, TJSP's
// forums, the prepositions of place names and the registry's rules for company names. Each rule reads public
// lawsuit objects only (and, for an appeal, the lawsuit it attacks) and answers a reason when the lawsuit fails.

export type Lawsuit = Record<string, any>;
export interface Case {
  /** The lawsuit read. */
  l: Lawsuit;
  /** The first instance an appeal, interlocutory appeal or superior-court case attacks (when `l` is one). */
  origin?: Lawsuit;
  /** The appeal or superior-court case of `l` (when `l` is a first instance that has one). */
  appeal?: Lawsuit;
  /** When the analyst reads it. */
  at: number;
}
export interface Rule { id: string; what: string; hard: boolean; check(c: Case): string | undefined }

const DAY = 86_400_000;
const code = (s: Lawsuit) => String(s.step_type ?? '');
const text = (s: Lawsuit) => String(s.content ?? '');
/** Steps oldest first (payloads list them newest first). */
export const stepsOf = (l: Lawsuit): Lawsuit[] => [...(l.steps ?? [])].sort((a, b) => Date.parse(a.step_date) - Date.parse(b.step_date));
const classOf = (l: Lawsuit) => String(l.classifications?.[0]?.code ?? '');
const dateOf = (s: Lawsuit) => Date.parse(s.step_date);
const isFirst = (l: Lawsuit) => l.instance === 1;

/** Movements that decide a first instance: sentences of merit, settlement, extinction, prescription, dismissal of the petition, withdrawal. */
const SENTENCES = new Set(['219', '220', '221', '466', '196', '471', '454', '463']);
/** Appellate decisions (provimento, em parte, não provimento, não conhecimento). */
const APPELLATE = new Set(['237', '238', '239', '235']);
const DECISIONS = new Set([...SENTENCES, ...APPELLATE]);
/** Classes whose whole life is an execution (title, tax). */
const EXECUTION_CLASSES = new Set(['159', '1116']);
/** What only happens before a first-instance judgment. */
const BEFORE_JUDGMENT = /contestação|réplica|cite-se|citação|resposta à acusação|audiência (de conciliação|inicial|una)|especifiquem as partes/i;
/** What an appellate court never does. */
const FIRST_INSTANCE_ONLY = /contestação|réplica|cite-se|audiência (de conciliação|inicial|una)|especifiquem as partes|resposta à acusação|petição inicial/i;
const RETURN = /retorno dos autos|recebidos os autos d[oa]s? (TJ|TRT|TRF|Turma|Tribunal|STJ|TST|instância)/i;
const REMITTAL = /^Remetidos os autos (ao|à) (TJ|TRT|TRF|Turma|Tribunal|STJ|TST|Colégio|Câmara)/;

function firstJudgment(l: Lawsuit): Lawsuit | undefined {
  return stepsOf(l).find((s) => SENTENCES.has(code(s)));
}

/** Order of procedure, first instance: nothing of the beginning once judged, nothing but execution and archive after res judicata. */
function preJudgmentAfterJudgment({ l }: Case): string | undefined {
  if (!isFirst(l)) return undefined;
  const steps = stepsOf(l);
  if (steps.length > 0 && code(steps[0]) !== '26') return `first step is ${code(steps[0])} "${text(steps[0])}", not a distribution`;
  const j = steps.findIndex((s) => SENTENCES.has(code(s)));
  if (j >= 0) {
    const bad = steps.slice(j + 1).find((s) => BEFORE_JUDGMENT.test(text(s)));
    if (bad) return `"${text(bad)}" after the judgment "${text(steps[j])}"`;
  }
  const f = steps.findIndex((s) => code(s) === '848');
  if (f >= 0) {
    const bad = steps.slice(f + 1).find((s) => BEFORE_JUDGMENT.test(text(s)) || ['219', '220', '221', '26'].includes(code(s)));
    if (bad) return `"${text(bad)}" after res judicata`;
  }
  if (l.area === 'Criminal' && steps.some((s) => code(s) === '221')) return 'a criminal judgment "procedente em parte"';
  return undefined;
}

function firstInstanceWordingAbove({ l }: Case): string | undefined {
  if (isFirst(l)) return undefined;
  const bad = stepsOf(l).find((s) => FIRST_INSTANCE_ONLY.test(text(s)) || ['219', '220', '221', '970'].includes(code(s)));
  return bad && `instance ${l.instance}: ${code(bad)} "${text(bad)}"`;
}

function returnBeforeRemittal({ l }: Case): string | undefined {
  const steps = stepsOf(l);
  if (!isFirst(l)) {
    const bad = steps.find((s) => /retorno dos autos/i.test(text(s)));
    return bad && `instance ${l.instance}: "${text(bad)}"`;
  }
  let sent = false;
  for (const s of steps) {
    if (code(s) === '123' && REMITTAL.test(text(s))) sent = true;
    else if (RETURN.test(text(s)) && !sent) return `"${text(s)}" with no remittal before it`;
  }
  return undefined;
}

const isAppealClass = (l: Lawsuit) => classOf(l) !== '202';
const lastDecision = (l: Lawsuit) => stepsOf(l).filter((s) => APPELLATE.has(code(s)) || code(s) === '848').pop();

/** An appeal comes after the judgment it attacks; an interlocutory appeal after the case began. */
function appealBeforeJudgment({ l, origin }: Case): string | undefined {
  if (!origin || l.instance === 1) return undefined;
  const dist = Date.parse(l.distribution_date);
  if (!isAppealClass(l)) return dist <= Date.parse(origin.distribution_date) ? 'interlocutory appeal before its case' : undefined;
  const j = firstJudgment(origin);
  if (!j) return `${classOf(l)} distributed ${l.distribution_date.slice(0, 10)} against a first instance not judged`;
  return dist <= dateOf(j) ? `${classOf(l)} distributed ${l.distribution_date.slice(0, 10)} before the judgment of ${j.step_date.slice(0, 10)}` : undefined;
}

/** The first instance is final only once its appeal has ended. */
function finalWhileAppealPending(c: Case): string | undefined {
  const first = c.l.instance === 1 ? c.l : c.origin;
  const appeal = c.l.instance === 1 ? c.appeal : c.l;
  if (!first || !appeal || !isAppealClass(appeal)) return undefined;
  const ftj = stepsOf(first).find((s) => code(s) === '848' && dateOf(s) >= Date.parse(appeal.distribution_date));
  const end = lastDecision(appeal);
  if (appeal.status !== 'Finalizado' && (ftj || first.status === 'Finalizado')) return `first instance final while its ${classOf(appeal)} is pending`;
  if (ftj && (!end || dateOf(end) > dateOf(ftj))) return `first instance res judicata ${ftj.step_date.slice(0, 10)} before its appeal's end`;
  return undefined;
}

const EXECUTION = new Set(['Execução', 'Execução ou cumprimento']);

/** Execution needs a title: a granting judgment, a settlement, or an appeal that reversed a dismissal. */
function executionWithoutTitle({ l, appeal }: Case): string | undefined {
  if (!EXECUTION.has(l.phase) || l.instance !== 1 || EXECUTION_CLASSES.has(classOf(l))) return undefined;
  const codes = new Set(stepsOf(l).map(code));
  if (codes.has('219') || codes.has('221') || codes.has('466')) return undefined;
  if (appeal && stepsOf(appeal).some((s) => s.step_type === '237' || s.step_type === '238')) return undefined;
  return codes.has('220') ? 'execution after the claim was dismissed' : 'execution with no judgment at all';
}

function executionAbove({ l }: Case): string | undefined {
  return EXECUTION.has(l.phase) && l.instance > 1 ? `phase ${l.phase} at instance ${l.instance}` : undefined;
}

function archivedWithoutDecision({ l }: Case): string | undefined {
  if (l.phase === 'Cancelado' || !(l.phase === 'Arquivado' || l.status === 'Finalizado')) return undefined;
  if (l.phase === 'Arquivado' && l.status === 'Ativo') return undefined; // suspended (provisional archive), not finished
  return stepsOf(l).some((s) => DECISIONS.has(code(s)) || code(s) === '848') ? undefined : `${l.phase}/${l.status} with no decision`;
}

/**
 * Highest OAB number each section has issued, rounded up (the sections' rolls, 2025): São Paulo past half a
 * million, Acre a few thousand.
 */
const OAB_ISSUED: Record<string, number> = {
  SP: 560_000, RJ: 270_000, MG: 250_000, RS: 140_000, PR: 130_000, BA: 90_000, PE: 70_000, DF: 80_000, CE: 60_000,
  GO: 75_000, SC: 75_000, ES: 40_000, PA: 40_000, MA: 30_000, MT: 35_000, MS: 30_000, PB: 35_000, RN: 25_000,
  AL: 22_000, PI: 25_000, SE: 16_000, AM: 22_000, RO: 15_000, TO: 12_000, AP: 7_000, RR: 4_000, AC: 7_000,
};

export interface Oab { number: number; uf: string; letter: string }
export function oabsOf(l: Lawsuit): Array<Oab & { party: Lawsuit; listedAsParty: boolean }> {
  const out: Array<Oab & { party: Lawsuit; listedAsParty: boolean }> = [];
  const read = (docs: any[] | undefined, party: Lawsuit, listedAsParty: boolean) => {
    for (const d of docs ?? []) {
      const m = d.document_type === 'OAB' && /^0*(\d+)([A-Z]{2})([A-Z]?)$/.exec(d.document);
      if (m) out.push({ number: Number(m[1]), uf: m[2], letter: m[3], party, listedAsParty });
    }
  };
  for (const p of l.parties ?? []) {
    if (p.person_type === 'Advogado') read(p.documents, p, true);
    for (const w of p.lawyers ?? []) read(w.documents, p, false);
  }
  return out;
}

function oabBeyondRange({ l }: Case): string | undefined {
  const bad = oabsOf(l).find((o) => !(o.uf in OAB_ISSUED) || o.number > OAB_ISSUED[o.uf]);
  return bad && `OAB ${bad.number}${bad.uf}${bad.letter} beyond the ${bad.uf} section's ${OAB_ISSUED[bad.uf] ?? 0}`;
}

/** An intern (suffix E) acts only beside a lawyer of the same party, never listed alone. */
function internAlone({ l }: Case): string | undefined {
  const oabs = oabsOf(l);
  const bad = oabs.find((o) => o.letter === 'E' && (o.listedAsParty || oabs.filter((x) => x.party === o.party).every((x) => x.letter === 'E')));
  return bad && `intern ${bad.number}${bad.uf}E acting alone`;
}

/** Local counsel: a lawsuit whose lawyers all come from other sections than the court's state. */
function noLocalLawyer({ l }: Case): string | undefined {
  const oabs = oabsOf(l);
  if (oabs.length === 0 || l.instance === 3) return undefined; // a superior court hears counsel of every state
  return oabs.some((o) => o.uf === l.state) ? undefined : `no lawyer of ${l.state}: ${oabs.map((o) => o.uf).join(', ')}`;
}

const PUBLIC = /^(Município|Estado|Distrito Federal|Ministério Público|União|Instituto Nacional|Caixa Econômica)/;

/** National minimum wage (R$) in force in each year, the highest of the year where it changed mid-year. */
const MINIMUM_WAGE: Record<number, number> = {
  2007: 380, 2008: 415, 2009: 465, 2010: 510, 2011: 545, 2012: 622, 2013: 678, 2014: 724, 2015: 788, 2016: 880, 2017: 937,
  2018: 954, 2019: 998, 2020: 1045, 2021: 1100, 2022: 1212, 2023: 1320, 2024: 1412, 2025: 1518, 2026: 1621,
};
const wageIn = (iso: string) => MINIMUM_WAGE[Math.min(2026, Math.max(2008, Number(iso.slice(0, 4))))];

/** Rite against the value: labour sumaríssimo up to 40 minimum wages, federal small claims 60, state small claims 40. */
function riteAgainstAmount({ l, origin }: Case): string | undefined {
  const first = l.instance === 1 ? l : origin;
  if (!first || !(l.amount > 0)) return undefined;
  const mw = wageIn(first.distribution_date);
  const cls = classOf(first);
  const times = Math.round((l.amount / mw) * 10) / 10;
  if (cls === '1125' && l.amount > 40 * mw) return `labour sumaríssimo of ${times} minimum wages`;
  // Up to 40 minimum wages the sumaríssimo is mandatory (CLT art. 852-A), unless a public body is sued.
  const publicDefendant = (first.parties ?? []).some((p: Lawsuit) => p.side === 'Passive' && PUBLIC.test(p.name));
  if (cls === '985' && l.amount <= 40 * (MINIMUM_WAGE[Number(first.distribution_date.slice(0, 4)) - 1] ?? mw) && !publicDefendant) return `labour ordinary rite for ${times} minimum wages`;
  if (cls === '436' && first.justice === '4' && l.amount > 60 * mw) return `federal small claim of ${times} minimum wages`;
  if (cls === '436' && first.justice === '8' && l.amount > 40 * mw) return `state small claim of ${times} minimum wages`;
  return undefined;
}

/** Class 436 (Juizado Especial) belongs to a small-claims court, never to an ordinary state or federal one. */
function smallClaimsOutsideTheirCourt({ l }: Case): string | undefined {
  if (classOf(l) !== '436') return undefined;
  const court = String(l.courts?.[0]?.name ?? '');
  return /Juizado|Turma Recursal/.test(court) ? undefined : `class 436 at "${court}"`;
}

/** Sector of a company, read from its name. */
function sectorOf(name: string): string | undefined {
  if (/Aviação|Aérea|Aéreas/.test(name)) return 'airline';
  if (/Telefonia|Telecomunicações|Telecom/.test(name)) return 'telecom';
  if (/Energia|Elétrica/.test(name)) return 'energy';
  if (/Saneamento|Águas/.test(name)) return 'water';
  if (/Banco|Crédito|Financeira|Caixa Econômica|Itaú|Unibanco/.test(name)) return 'bank';
  if (/Seguros|Seguradora|Saúde|Previdência Privada/.test(name)) return 'health';
  return undefined;
}
/** Subjects that only make sense against a company of one sector (TPU codes). */
const SECTOR_SUBJECTS: Record<string, string> = {
  4829: 'airline', 4832: 'airline', 7617: 'telecom', 7760: 'energy', 7761: 'water', 6233: 'health',
  7752: 'bank', 7772: 'bank', 11806: 'bank', 9607: 'bank', 4960: 'bank',
};
function subjectAgainstSector({ l }: Case): string | undefined {
  // Under the highest secrecy the names are hidden: the analyst cannot tell the sector.
  if ((l.parties ?? []).some((p: Lawsuit) => p.name === 'Segredo de Justiça')) return undefined;
  const sectors = new Set((l.parties ?? []).filter((p: Lawsuit) => p.document_type === 'CNPJ').map((p: Lawsuit) => sectorOf(p.name)));
  const bad = (l.subjects ?? []).find((s: Lawsuit) => SECTOR_SUBJECTS[s.code] && !sectors.has(SECTOR_SUBJECTS[s.code]));
  return bad && `"${bad.name}" against ${(l.parties ?? []).filter((p: Lawsuit) => p.side === 'Passive').map((p: Lawsuit) => p.name).join(', ')}`;
}

/** TJSP's forums by the unit's origin code (OOOO) in the capital. */
const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV', 'XV'];
function tjspForum({ l }: Case): string | undefined {
  if (l.tribunal_acronym !== 'TJSP' || l.instance !== 1 || !('foro' in l)) return undefined;
  const origin = l.code.slice(-4);
  const foro = String(l.foro);
  const n = Number(origin);
  if (origin === '0100') return foro === 'Foro Central Cível' ? undefined : `${origin} is the Foro Central Cível, not "${foro}"`;
  if (n >= 1 && n <= 15) return foro.startsWith(`Foro Regional ${ROMAN[n]} - `) ? undefined : `${origin} is the Foro Regional ${ROMAN[n]}, not "${foro}"`;
  if (l.city !== 'São Paulo') return foro === `Foro de ${l.city}` ? undefined : `a unit of ${l.city} in "${foro}"`;
  return /^Foro Central/.test(foro) ? undefined : `central unit ${origin} in "${foro}"`;
}

/** Cities whose name takes the article: "do Rio de Janeiro", "do Recife". */
function wrongPreposition({ l }: Case): string | undefined {
  const strings: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(l);
  const bad = strings.find((s) => /\b(de|em) (Rio de Janeiro|Recife)\b/.test(s));
  return bad && `"${bad}"`;
}

/** The registry's rules on names: banks, insurers and "Companhia" are S.A.; a cooperative never is; EIRELI ended in 2021. */
function nameARegistryRefuses({ l }: Case): string | undefined {
  for (const p of l.parties ?? []) {
    if (p.document_type !== 'CNPJ' || PUBLIC.test(p.name) || p.name === 'Segredo de Justiça') continue;
    const name: string = p.name;
    const sa = /(S\.A\.|S\/A)$/.test(name);
    if (/^(Banco|Seguradora|Companhia)\b/.test(name) && !sa) return `"${name}" must be an S.A.`;
    if (/^Cooperativa\b/.test(name) && sa) return `"${name}": a cooperative is never an S.A.`;
    if (/EIRELI/.test(name) && /[A-Z]/.test(String(p.document))) return `"${name}" registered after EIRELI ended`;
    if (!/(S\.A\.|S\/A|Ltda|Ltda - ME|Ltda - EPP|EIRELI)$/.test(name) && !/^Cooperativa\b/.test(name)) return `"${name}" has no legal form`;
  }
  return undefined;
}

/** Soft: a running case is seldom silent for two years. */
function longSilence({ l, at }: Case): string | undefined {
  if (l.status !== 'Ativo') return undefined;
  const steps = stepsOf(l);
  const last = steps.length > 0 ? dateOf(steps[steps.length - 1]) : Date.parse(l.distribution_date);
  return at - last >= 730 * DAY ? `Ativo, last step ${new Date(last).toISOString().slice(0, 10)}` : undefined;
}

export const RULES: Rule[] = [
  { id: 'prejudgment-after-judgment', what: 'pre-judgment steps after the judgment (or after res judicata)', hard: true, check: preJudgmentAfterJudgment },
  { id: 'first-instance-wording-above', what: 'first-instance wording at the second instance', hard: true, check: firstInstanceWordingAbove },
  { id: 'return-before-remittal', what: '"retorno dos autos" before any remittal', hard: true, check: returnBeforeRemittal },
  { id: 'appeal-before-judgment', what: 'an appeal distributed before the first-instance judgment', hard: true, check: appealBeforeJudgment },
  { id: 'final-while-appeal-pending', what: 'first instance final while its appeal is pending', hard: true, check: finalWhileAppealPending },
  { id: 'execution-without-title', what: 'execution phase after the claim was dismissed (or never judged)', hard: true, check: executionWithoutTitle },
  { id: 'execution-above', what: 'execution at the second instance', hard: true, check: executionAbove },
  { id: 'archived-without-decision', what: 'archived with no decision at all', hard: true, check: archivedWithoutDecision },
  { id: 'oab-beyond-range', what: 'OAB numbers beyond what the section has issued', hard: true, check: oabBeyondRange },
  { id: 'intern-alone', what: 'intern (suffix E) acting alone', hard: true, check: internAlone },
  { id: 'rite-against-amount', what: 'rite against the amount (sumaríssimo > 40, JEF > 60, JEC > 40 minimum wages)', hard: true, check: riteAgainstAmount },
  { id: 'small-claims-outside-court', what: 'class 436 outside a small-claims court', hard: true, check: smallClaimsOutsideTheirCourt },
  { id: 'subject-against-sector', what: "subject unrelated to the defendant's sector", hard: true, check: subjectAgainstSector },
  { id: 'tjsp-forum', what: 'TJSP foro contradicting the court unit', hard: true, check: tjspForum },
  { id: 'preposition', what: 'place name with the wrong preposition ("de Rio de Janeiro")', hard: true, check: wrongPreposition },
  { id: 'company-name', what: 'company names a registry would refuse', hard: true, check: nameARegistryRefuses },
  { id: 'no-local-lawyer', what: "no lawyer from the court's state (share, not a hard rule)", hard: false, check: noLocalLawyer },
  { id: 'long-silence', what: "'Ativo' with no step for two years or more (soft)", hard: false, check: longSilence },
];

/** Each rule's flagged lawsuits over the cases, with one reason each (a checklist's rules over its own cases). */
export function flaggedBy<C extends { l: Lawsuit }>(rules: ReadonlyArray<{ id: string; check(c: C): string | undefined }>, cases: readonly C[]): Map<string, Array<{ code: string; instance: number; reason: string }>> {
  const out = new Map(rules.map((r) => [r.id, [] as Array<{ code: string; instance: number; reason: string }>]));
  for (const c of cases) {
    for (const r of rules) {
      const reason = r.check(c);
      if (reason) out.get(r.id)!.push({ code: c.l.code, instance: c.l.instance, reason });
    }
  }
  return out;
}

/** Each rule's flagged lawsuits over the cases, with one example reason each. */
export const runChecklist = (cases: readonly Case[]) => flaggedBy(RULES, cases);
