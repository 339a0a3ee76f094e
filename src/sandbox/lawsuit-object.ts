// Turns a plan, its parties and its visible steps into the lawsuit object of the spec, as a given caller
// would see it: secrecy masking, the sparse shape of document and name searches (one level) or their header
// (two levels, levels.ts), the historical answer's shape, tribunal quirks, and the lawsuits it is related to
// (universe.ts finds them).

import type { Levels } from './dialect.js';
import { hex8, isoOf } from './fast-format.js';
import { hash } from './random.js';
import type { Plan } from './plan.js';
import type { InternalParty } from './parties.js';
import { stepText, type StepTextContext } from './step-texts.js';
import { phaseOf, statusOf, type StepPoint } from './timeline.js';
import { tpuClass, tpuSubject } from './tpu.js';
import { courtName } from './tribunals.js';

export type Json = Record<string, unknown>;

/** How a lawsuit names another of the same case: what was born from it, or (from the child) its origin. */
export type Relation = 'dependency' | 'appeal' | 'interlocutory_appeal' | 'execution' | 'origin';
export interface RelatedLawsuit { code: string; instance: number; relation: Relation }

/**
 * 'full' for lawsuit_cnj/lawsuit_id searches; 'search' for document and name searches (one level: sparse tribunals
 * leave out steps, attachments, phase and status; two levels: every lawsuit comes as its header); 'historical' for
 * the synchronous historical query, which never carries steps or attachments (REFERENCE.md), so they are not even
 * built.
 */
export type Shape = 'full' | 'search' | 'historical';

interface ViewOptions {
  shape: Shape;
  /** A stored credential (customer_key) lifts secrecy levels 1 to 4 (never 5). */
  privileged: boolean;
  /** The dialect's level model (dialect.ts). Default 'one'. */
  levels?: Levels;
  /** The read asked `with_attachments`: a whole lawsuit lists its attachments only then (REFERENCE.md, "Two levels"). */
  withAttachments?: boolean;
}

const hex = hex8;
const iso = isoOf;
const SECRET = 'Segredo de Justiça';
/** From this secrecy level on, party documents and step contents are hidden from the caller. */
export const MASKED_FROM_LEVEL = 3;

/** The secrecy level a caller meets: a stored credential lifts levels 1 to 4 (never 5). */
export function levelSeen(secrecy: number, privileged: boolean): number {
  return privileged && secrecy < 5 ? 0 : secrecy;
}

function stepId(seed: number, i: number, k: number): string {
  return hex(hash(seed, 800, i, k)) + hex(hash(seed, 801, i, k)).slice(0, 8);
}

/** The system the crawler read the case from: the one its number's band belongs to (court-systems.ts), at its degree. */
function sourceName(p: Plan): string {
  return `${p.tribunal.acronym} - ${p.system}${p.instance === 2 ? ' 2º grau' : ''}`;
}

/**
 * Free legal aid, as the claimant's claim to it: granted to most people who ask, to a company only when it proves
 * it cannot pay (rarely), never to a public body; some tribunals do not say (undefined).
 */
function freeJustice(seed: number, p: Plan, claimant: InternalParty | undefined): boolean | undefined {
  const h = hash(seed, 51, p.base);
  if (h % 3 === 0 || !claimant || p.kind.procedure === 'criminal' || p.kind.procedure === 'electoral') return undefined;
  const percent = claimant.kind === 'entity' ? 0 : claimant.kind === 'company' ? 3 : p.kind.group === 'labour' ? 80 : 55;
  return (h >>> 8) % 100 < percent;
}

/** Movements whose step comes with a document: the initial petition, a judgment, a ruling. */
const SENTENCE_CODES = new Set(['219', '220', '221', '466', '463', '196', '471']);
const RULING_CODES = new Set(['237', '238', '239', '235']);
function attachmentName(s: StepPoint, instance: number): string | undefined {
  const code = s.act.code;
  if (code === '26' && instance === 1) return 'Petição Inicial.pdf';
  if (SENTENCE_CODES.has(code)) return 'Sentença.pdf';
  return RULING_CODES.has(code) ? 'Acórdão.pdf' : undefined;
}

/** Where the case's appeal goes and comes back from, and what it is called, as the first instance writes it. */
function textContext(p: Plan, court: string, origin: RelatedLawsuit | undefined): StepTextContext {
  const group = p.kind.group;
  const base = {
    group, instance: p.instance, court, defendantRepresented: !p.defendantUnrepresented,
    dependentOn: p.appeal === 'execution' || p.appeal === 'dependency' ? origin?.code : undefined,
    // The Fazenda Pública (the Union, a state, a municipality, the INSS) pays a judgment by requisition; the Caixa does not.
    embargos: p.appeal === 'dependency', fazenda: p.kind.passive === 'entity' && p.entity?.role !== 'federalBank',
  };
  if (group === 'smallClaims' || group === 'federalSmallClaims') return { ...base, toAbove: 'à Turma Recursal', fromAbove: 'da Turma Recursal', appealName: 'recurso inominado' };
  const above = p.tribunal.acronym;
  return { ...base, toAbove: `ao ${above}`, fromAbove: `do ${above}`, appealName: group === 'labour' ? 'recurso ordinário' : 'apelação' };
}

/** What every part of one lawsuit object is drawn from: whose it is, what the caller may see, which crawl it is of. */
interface Rendering {
  seed: number;
  p: Plan;
  /** The secrecy level the caller meets (levelSeen). */
  level: number;
  /** Documents and step contents hidden (MASKED_FROM_LEVEL). */
  blank: boolean;
  crawlId: string;
  textCtx: StepTextContext;
}

export function buildLawsuit(
  seed: number, p: Plan, parties: InternalParty[], steps: StepPoint[], crawlMs: number, view: ViewOptions, related: RelatedLawsuit[] = [],
): Json {
  const level = levelSeen(p.secrecy, view.privileged);
  const t = p.tribunal;
  const i = p.index;
  const crawlId = hex(hash(seed, 810, i, Math.floor(crawlMs / 3_600_000))) + hex(hash(seed, 811, i));
  const court = courtName(t, p.kind.group, p.instance, p.courtPick, p.city, p.origin);
  const r: Rendering = { seed, p, level, blank: level >= MASKED_FROM_LEVEL, crawlId, textCtx: textContext(p, court, related.find((x) => x.relation === 'origin')) };
  const twoLevels = view.levels === 'two';
  const listless = isListless(view);
  const last = steps[steps.length - 1];
  const activeName = parties.find((q) => q.side === 'Active')?.name ?? '';
  const passiveName = parties.find((q) => q.side === 'Passive')?.name ?? '';
  const courtCode = p.instance >= 2 ? String(1000 + (hash(seed, 840, i) % 9000)) : p.origin;
  const obj: Json = {
    code: p.code,
    justice: t.j,
    tribunal: t.tr,
    instance: p.instance,
    distribution_date: iso(p.distributionMs),
    tribunal_acronym: t.acronym,
    secrecy_level: p.secrecy,
    tags: { is_fallback_source: false, crawl_id: crawlId, dictionary_updated_at: '2025-06-30T00:00:00.000Z' },
    subjects: p.subjectCodes.map((c) => ({ code: c, name: tpuSubject(c).name })),
    classifications: [{ code: p.classCode, name: tpuClass(p.classCode).name }],
    courts: t.courtsWithoutCode ? [{ name: court }] : [{ code: courtCode, name: court }],
    parties: partiesShown(r, parties),
    steps: listless ? [] : stepsShown(r, steps),
    attachments: level === 0 && p.hasAttachments && !listless ? attachmentsShown(r, steps, crawlMs) : [],
    related_lawsuits: related.map((x) => ({ ...x })),
    crawler: { source_name: sourceName(p), crawl_id: crawlId, weight: hash(seed, 850, i) % 10, updated_at: iso(crawlMs) },
    metadata: {},
    amount: level >= 5 ? 0 : p.amount,
    area: p.kind.area,
    county: p.city,
    state: p.state,
    city: p.city,
    justice_description: t.justiceDescription,
    phase: phaseOf(last),
    status: statusOf(last),
    name: level >= 5 ? SECRET : `${activeName} x ${passiveName}`,
  };
  // The provider's own id is not a field of the spec: only some tribunals' payloads carry it, among their extras.
  if (t.showsLawsuitId) obj.lawsuit_id = p.lawsuitId;
  // Two levels: the header's last_step is how a client tells a lawsuit moved, so no tribunal leaves it out.
  if (last && (twoLevels || !t.noLastStep)) obj.last_step = lastStepShown(r, last, steps.length);
  if (hash(seed, 860, i) % 2 === 0) {
    obj.created_at = iso(Math.min(crawlMs, p.distributionMs + DAY_MS_2));
    obj.updated_at = iso(crawlMs);
  }
  const free = freeJustice(seed, p, parties[0]);
  if (free !== undefined) obj.free_justice = free;
  if (t.extras) Object.assign(obj, t.extras({ u: (hash(seed, 870, i) >>> 0) / 4294967296, instance: p.instance, origin: p.origin, city: p.city, group: p.kind.group, court }));
  cutToView(obj, r, view);
  return obj;
}

/** Two levels: a document or name search answers each lawsuit with its header (levels.ts). */
const isHeader = (view: ViewOptions): boolean => view.levels === 'two' && view.shape === 'search';
/** Neither the historical answer nor a header carries steps or attachments: they are not even built. */
const isListless = (view: ViewOptions): boolean => view.shape === 'historical' || isHeader(view);

/** The fields the caller's view leaves out of the whole object: lists a shape does not carry, a header's phase and status. */
function cutToView(obj: Json, r: Rendering, view: ViewOptions): void {
  const header = isHeader(view);
  if (isListless(view)) {
    delete obj.steps;
    delete obj.attachments;
  }
  // Attachments come when asked for, and only then: a read without them says nothing of them (the field left out).
  if (view.withAttachments !== true) delete obj.attachments;
  if (header) unfill(obj, hash(r.seed, 880, r.p.index));
  else if (view.shape === 'search' && r.p.tribunal.sparse) {
    delete obj.steps;
    delete obj.attachments;
    delete obj.phase;
    delete obj.status;
  }
}

/**
 * A header's phase and status: unfilled, as null or left out, each drawn per lawsuit (the documentation says
 * "without phase and status" and shows both forms), so that a client meets both.
 */
function unfill(obj: Json, h: number): void {
  for (const [bit, field] of [[1, 'phase'], [2, 'status']] as const) {
    if (h & bit) obj[field] = null;
    else delete obj[field];
  }
}

/** An OAB number as the tribunal writes it: `SP123456` in the state courts (justice 8), `123456/SP` elsewhere. */
function oabShown(oab: string, justice: string): string {
  const m = /^(\d+)([A-Z]{2})([A-Z]?)$/.exec(oab)!;
  return justice === '8' ? `${m[2]}${m[1]}${m[3]}` : `${m[1]}/${m[2]}${m[3]}`;
}

/** The parties as the caller sees them: names hidden at level 5, documents from MASKED_FROM_LEVEL. */
function partiesShown({ seed, p, level, blank, crawlId }: Rendering, parties: InternalParty[]): Json[] {
  const j = p.tribunal.j;
  // Labour courts and TJBA often leave a party's main document empty while its documents list has it.
  const emptyMainDoc = j === '5' || p.tribunal.acronym === 'TJBA';
  return parties.map((q, n) => {
    if (q.kind === 'lawyer') {
      return {
        name: level >= 5 ? SECRET : q.name, side: q.side, person_type: 'Advogado', document: '', main_document: '',
        documents: blank ? [] : [{ document: q.document, document_type: 'OAB' }], lawyers: [], oab: blank ? '' : oabShown(q.document, j),
        tags: { crawl_id: crawlId },
      };
    }
    const doc = blank ? '' : q.document;
    const mainDoc = emptyMainDoc && hash(seed, 820, p.index, n) % 3 === 0 ? '' : doc;
    return {
      name: level >= 5 ? SECRET : q.name,
      side: q.side,
      person_type: q.personType,
      document: doc,
      document_type: q.documentType,
      main_document: mainDoc,
      documents: doc ? [{ document: doc, document_type: q.documentType }] : [],
      lawyers: q.lawyers.map((l) => ({
        name: level >= 5 ? SECRET : l.name, side: l.side, person_type: 'Advogado',
        ...(blank ? {} : { documents: [{ document: l.oab, document_type: 'OAB' }], oab: oabShown(l.oab, j) }),
      })),
      tags: { crawl_id: crawlId },
    };
  });
}

function stepContent(r: Rendering, s: StepPoint): string {
  return stepText(s.act, r.textCtx, hash(r.seed, 830, r.p.index, s.k), s.dateMs);
}

/** The visible steps, newest first as the tribunals' own pages list them; the newest carries the count. */
function stepsShown(r: Rendering, steps: StepPoint[]): Json[] {
  const { seed, p, blank, crawlId } = r;
  const stepCount = steps.length;
  const out = steps.map((s, n) => {
    const st: Json = {
      lawsuit_cnj: p.code, lawsuit_instance: p.instance, private: blank, step_id: stepId(seed, p.index, s.k),
      tags: { crawl_id: crawlId }, step_type: s.act.code, step_date: iso(s.dateMs),
    };
    if (!blank) st.content = stepContent(r, s);
    if (n === 0) st.steps_count = stepCount;
    return st;
  });
  out.reverse();
  if (out.length > 0) {
    delete out[out.length - 1].steps_count;
    out[0].steps_count = stepCount;
  }
  return out;
}

function lastStepShown(r: Rendering, last: StepPoint, stepCount: number): Json {
  const { seed, p, blank } = r;
  const ls: Json = {
    lawsuit_cnj: p.code, lawsuit_instance: p.instance, step_id: stepId(seed, p.index, last.k), step_date: iso(last.dateMs),
    private: blank, steps_count: stepCount,
  };
  if (!blank) ls.content = stepContent(r, last);
  return ls;
}

/** One attachment of a lawsuit: its id, the step it came with, its name, and from when its file can be downloaded. */
export interface AttachmentPoint { id: string; stepId: string; name: string; dateMs: number; readyMs: number }

const DAY_MS = 86_400_000;

/**
 * The attachments of lawsuit p given its steps: one per step whose movement comes with a document. Most files are
 * ready when listed; a fifth are still being fetched from the court (ready 20 days after the step), and some of
 * those never are (a file the court never gave out): each drawn from the seed, so a client meets `pending` files
 * that turn `done` on a later night, and files that stay pending.
 */
export function attachmentPoints(seed: number, p: Plan, steps: readonly StepPoint[]): AttachmentPoint[] {
  return steps.flatMap((s) => {
    const name = attachmentName(s, p.instance);
    if (name === undefined) return [];
    const u = hash(seed, 890, p.index, s.k) % 100;
    const readyMs = u < 8 ? Number.POSITIVE_INFINITY : u < 20 ? s.dateMs + 20 * DAY_MS : s.dateMs;
    return [{ id: stepId(seed, p.index, s.k + 1000), stepId: stepId(seed, p.index, s.k), name, dateMs: s.dateMs, readyMs }];
  });
}

function attachmentsShown({ seed, p }: Rendering, steps: StepPoint[], crawlMs: number): Json[] {
  return attachmentPoints(seed, p, steps).map((a) => ({
    attachment_id: a.id, attachment_date: iso(a.dateMs), attachment_name: a.name, step_id: a.stepId, extension: 'pdf',
    status: crawlMs >= a.readyMs ? 'done' : 'pending',
  }));
}

const DAY_MS_2 = 2 * 86_400_000;
