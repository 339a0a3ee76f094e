import { createHash } from 'node:crypto';
import { arrayElements, objectMembers } from '../shared/raw-json.js';
import type { Lawsuit } from '../spec/types.js';
import { isNumeric, keyDetail, PROBLEM_DETAIL, problemValue, type FieldProblem, type ProblemCode } from './problems.js';
import type { AttachmentRow, CourtRow, FlatLawsuit, ItemRow, LawsuitRow, LawyerRow, PartyRow, StepRow } from './rows.js';
import { normalizeCnj, normalizeDocument, normalizeOab } from '../spec/identifiers.js';
import { bool, int, isObj, list, str, stringifyWith, timeOf, toJson, type Obj } from './values.js';

interface FlattenContext {
  /** The response item that carried the lawsuit. Default null. */
  responseId?: string | null;
  /** The response item's created_at (ISO text): the last tie-breaker of "newer crawl". Default null. */
  responseCreatedAt?: string | null;
  /** The item's tags.cached_response. Default null. */
  cachedResponse?: boolean | null;
  /** Where the payload came from: 'async', 'historical', 'transfer', ... Default null. */
  source?: string | null;
  /** The run loading it. Default null. */
  runId?: string | null;
  /**
   * The lawsuit object's JSON text as the service sent it (shared/raw-json.ts). `raw` columns are slices of it,
   * digit for digit; and numbers JSON.parse could not represent are read from it. Default: re-serialised.
   */
  rawText?: string | null;
}

/**
 * The rows of one lawsuit. Pure and total: a field of the wrong shape becomes NULL with a problem saying so
 * (problems.ts), a missing list gives no rows. The key (code, instance) may come out NULL: the caller then
 * keeps the payload in responses_raw only.
 */
export function flattenLawsuit(l: Lawsuit, ctx: FlattenContext = {}): FlatLawsuit {
  const o: Obj = isObj(l) ? l : {};
  const members = ctx.rawText ? objectMembers(ctx.rawText) : undefined;
  const problems: FieldProblem[] = [];
  const code = normalizeCnj(o.code);
  const instance = int(o.instance);
  const crawler = isObj(o.crawler) ? o.crawler : {};
  const tags = isObj(o.tags) ? o.tags : {};
  const lastStep = isObj(o.last_step) ? o.last_step : {};
  const parties = list(o.parties);
  const steps = list(o.steps);
  const subjects = list(o.subjects);
  const classifications = list(o.classifications);
  const courts = list(o.courts);
  const attachments = list(o.attachments);

  // A value given that its column cannot hold is a problem; an absent one (undefined, null) is not.
  const typed = <T>(field: string, v: unknown, out: T | null, literal = members?.get(field), key = false): T | null => {
    if (out !== null || v === undefined || v === null) return out;
    const problem: ProblemCode = isNumeric(v, literal) ? 'out_of_range' : 'wrong_type';
    problems.push({ field, value: problemValue(literal ?? toJson(v)), problem, detail: key ? keyDetail(problem) : PROBLEM_DETAIL[problem] });
    return out;
  };
  const text = (field: keyof Lawsuit & string): string | null => typed(field, o[field], str(o[field]));

  const lawsuit: LawsuitRow = {
    code,
    instance,
    lawsuit_id: text('lawsuit_id'),
    tribunal_acronym: text('tribunal_acronym'),
    justice: text('justice'),
    justice_description: text('justice_description'),
    tribunal: text('tribunal'),
    area: text('area'),
    state: text('state'),
    city: text('city'),
    county: text('county'),
    distribution_date: text('distribution_date'),
    amount: amountText(o.amount, members?.get('amount'), problems),
    status: text('status'),
    phase: text('phase'),
    secrecy_level: typed('secrecy_level', o.secrecy_level, int(o.secrecy_level)),
    free_justice: typed('free_justice', o.free_justice, bool(o.free_justice)),
    name: text('name'),
    created_at: text('created_at'),
    updated_at: text('updated_at'),
    crawl_id: str(crawler.crawl_id) ?? str(tags.crawl_id),
    crawler_source: str(crawler.source_name),
    crawled_at: str(crawler.updated_at),
    last_step_date: str(lastStep.step_date) ?? latestDate(steps),
    steps_count: typed('last_step.steps_count', lastStep.steps_count, int(lastStep.steps_count), undefined) ?? firstStepsCount(steps),
    response_id: ctx.responseId ?? null,
    response_created_at: ctx.responseCreatedAt ?? null,
    cached_response: ctx.cachedResponse ?? null,
    source: ctx.source ?? null,
    run_id: ctx.runId ?? null,
    has_parties: parties !== null,
    has_steps: steps !== null,
    has_subjects: subjects !== null,
    has_classifications: classifications !== null,
    has_courts: courts !== null,
    has_attachments: attachments !== null,
    raw: '',
  };
  const out: FlatLawsuit = { lawsuit, parties: [], lawyers: [], steps: [], subjects: [], classifications: [], attachments: [], courts: [], problems };
  if (code === null) {
    problems.push({ field: 'code', value: problemValue(members?.get('code') ?? toJson(o.code) ?? null), problem: 'missing_key', detail: PROBLEM_DETAIL.missing_key });
  }
  typed('instance', o.instance, instance, members?.get('instance'), true);
  if (o.instance === undefined || o.instance === null) {
    problems.push({ field: 'instance', value: null, problem: 'missing_key', detail: PROBLEM_DETAIL.missing_key });
  }
  if (code === null || instance === null) {
    lawsuit.raw = ctx.rawText ?? safeJson(l);
    return out;
  }
  const key = { code, instance };
  // Each step and party is a slice of the text as received, or else serialised once, for its own row; the
  // lawsuit's raw is the whole text, or else assembled from those.
  const stepRaws = slices(members, 'steps', steps) ?? (steps ?? []).map(safeJson);
  const partyRaws = slices(members, 'parties', parties) ?? (parties ?? []).map(safeJson);
  const attachmentRaws = slices(members, 'attachments', attachments) ?? (attachments ?? []).map(safeJson);
  if (ctx.rawText) lawsuit.raw = ctx.rawText;
  else {
    const done: Record<string, string> = {};
    if (steps !== null) done.steps = `[${stepRaws.join(',')}]`;
    if (parties !== null) done.parties = `[${partyRaws.join(',')}]`;
    lawsuit.raw = isObj(l) ? stringifyWith(o, done) : safeJson(l);
  }

  (parties ?? []).forEach((p, party_index) => {
    const party: Obj = isObj(p) ? p : {};
    out.parties.push(partyRow(key, party_index, party, partyRaws[party_index]));
    (list(party.lawyers) ?? []).forEach((w, lawyer_index) => {
      out.lawyers.push(lawyerRow(key, party_index, lawyer_index, isObj(w) ? w : {}, party));
    });
  });
  out.steps = stepRows(key, steps ?? [], stepRaws);
  out.subjects = itemRows(key, subjects ?? []);
  out.classifications = itemRows(key, classifications ?? []);
  out.courts = (courts ?? []).map((c, court_index): CourtRow => {
    const court: Obj = isObj(c) ? c : {};
    return { code, instance, court_index, court_code: str(court.code), court_name: str(court.name) };
  });
  out.attachments = (attachments ?? []).map((a, attachment_index): AttachmentRow => {
    const att: Obj = isObj(a) ? a : {};
    return {
      code, instance, attachment_index,
      attachment_date: str(att.attachment_date) ?? str(att.date),
      attachment_name: str(att.attachment_name) ?? str(att.name),
      raw: attachmentRaws[attachment_index],
    };
  });
  return out;
}

type Key = { code: string; instance: number };

function partyRow(key: Key, party_index: number, p: Obj, raw: string): PartyRow {
  const docs = (list(p.documents) ?? []).filter(isObj);
  const document = normalizeDocument(p.document) ?? normalizeDocument(p.main_document) ?? normalizeDocument(docs[0]?.document);
  return {
    code: key.code, instance: key.instance, party_index,
    name: str(p.name),
    side: str(p.side),
    person_type: str(p.person_type),
    document,
    document_type: str(p.document_type) ?? str(docs.find((d) => normalizeDocument(d.document) === document)?.document_type) ?? inferDocumentType(document),
    main_document: normalizeDocument(p.main_document),
    documents: list(p.documents) === null ? null : safeJson(docs.map(normalizeDocRef)),
    raw,
  };
}

function lawyerRow(key: Key, party_index: number, lawyer_index: number, w: Obj, party: Obj): LawyerRow {
  const docs = (list(w.documents) ?? []).filter(isObj);
  const oabDoc = docs.find((d) => str(d.document_type)?.toUpperCase() === 'OAB');
  return {
    code: key.code, instance: key.instance, party_index, lawyer_index,
    name: str(w.name),
    side: str(w.side) ?? str(party.side),
    oab: normalizeOab(w.oab) ?? normalizeOab(oabDoc?.document),
    person_type: str(w.person_type),
    documents: list(w.documents) === null ? null : safeJson(docs),
  };
}

function stepRows(key: Key, steps: unknown[], raws: string[]): StepRow[] {
  // The same step_id twice in one payload is one step: the later entry wins, so the key stays unique.
  const byId = new Map<string, StepRow>();
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    const step: Obj = isObj(s) ? s : {};
    const given = str(step.step_id);
    const step_date = str(step.step_date);
    const content = str(step.content);
    const step_id = given ?? derivedStepId(step_date, content);
    byId.set(step_id, {
      code: key.code,
      instance: key.instance,
      step_id,
      step_id_derived: given === null,
      step_date,
      content,
      private: bool(step.private),
      step_type: str(step.step_type),
      raw: raws[i],
    });
  }
  return [...byId.values()];
}

/**
 * Some payloads leave step_id out. The id then comes from what identifies the movement itself (its date and
 * text), not from its position: reloading the same payload, or a newer one with steps prepended, lands on the
 * same row, so merging by step_id stays idempotent and never duplicates a step.
 */
export function derivedStepId(stepDate: string | null, content: string | null): string {
  return 'h_' + createHash('sha256').update(`${stepDate ?? ''}\u0000${content ?? ''}`).digest('hex').slice(0, 32);
}

function itemRows(key: Key, items: unknown[]): ItemRow[] {
  // Subjects and classifications are keyed by their code; an item without one stays only in lawsuits.raw.
  const byCode = new Map<string, ItemRow>();
  for (const it of items) {
    const item: Obj = isObj(it) ? it : {};
    const item_code = str(item.code);
    if (item_code === null || byCode.has(item_code)) continue;
    byCode.set(item_code, { code: key.code, instance: key.instance, item_code, item_name: str(item.name) });
  }
  return [...byCode.values()];
}

function normalizeDocRef(d: Obj): Obj {
  return { ...d, document: normalizeDocument(d.document) };
}

function inferDocumentType(doc: string | null): string | null {
  if (doc === null) return null;
  if (/^\d{11}$/.test(doc)) return 'CPF';
  if (/^[0-9A-Z]{12}\d{2}$/.test(doc)) return 'CNPJ';
  return null;
}

function latestDate(steps: unknown[] | null): string | null {
  let best: string | null = null;
  for (const s of steps ?? []) {
    const d = isObj(s) ? str(s.step_date) : null;
    if (d !== null && timeOf(d) > timeOf(best)) best = d;
  }
  return best;
}

function firstStepsCount(steps: unknown[] | null): number | null {
  for (const s of steps ?? []) {
    const n = isObj(s) ? int(s.steps_count) : null;
    if (n !== null) return n;
  }
  return null;
}

/** The raw text of each element of the list `key`, when the text was given and agrees with the parsed list. */
function slices(members: Map<string, string> | undefined, key: string, parsed: unknown[] | null): string[] | undefined {
  const t = members?.get(key);
  if (t === undefined || parsed === null) return undefined;
  const els = arrayElements(t);
  return els !== undefined && els.length === parsed.length ? els : undefined;
}

/**
 * The amount as text for DuckDB to cast to DECIMAL(18,2): the number literal as received when there is one
 * (exact: no trip through a double), a number's shortest form otherwise, a text as given. DuckDB decides
 * whether it fits (problems.ts); a value of another kind is a problem here.
 */
function amountText(v: unknown, literal: string | undefined, problems: FieldProblem[]): string | null {
  if (typeof v === 'number') return literal !== undefined && /^-?\d/.test(literal) ? literal : String(v);
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (v !== undefined && v !== null) {
    problems.push({ field: 'amount', value: problemValue(literal ?? toJson(v)), problem: 'wrong_type', detail: PROBLEM_DETAIL.wrong_type });
  }
  return null;
}

function safeJson(v: unknown): string {
  try {
    return toJson(v ?? null) ?? 'null';
  } catch {
    return 'null';
  }
}
