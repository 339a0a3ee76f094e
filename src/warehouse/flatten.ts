import { createHash } from 'node:crypto';
import { arrayElements, objectMembers } from '../shared/raw-json.js';
import type { Lawsuit } from '../spec/types.js';
import { isNumeric, keyDetail, PROBLEM_DETAIL, problemValue, type FieldProblem, type ProblemCode } from './problems.js';
import type { AttachmentRow, CourtRow, FlatLawsuit, ItemRow, LawsuitRow, LawyerRow, PartyRow, RelatedLawsuitRow, StepRow } from './rows.js';
import { cnjShape, normalizeCnj, normalizeDocument, normalizeOab, readInstance } from '../spec/identifiers.js';
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
 * One lawsuit as it is read: the object, the literal text of its members (when the payload's text was given),
 * its lists, and the problems found so far. One object handed to the per-table helpers, rather than closures
 * over these, so that flattening a lawsuit allocates no function per record.
 */
interface Reading {
  o: Obj;
  /** The payload is the whole lawsuit (a lawsuit-level answer), not a header (isWhole). */
  whole: boolean;
  members: Map<string, string> | undefined;
  problems: FieldProblem[];
  parties: unknown[] | null;
  steps: unknown[] | null;
  subjects: unknown[] | null;
  classifications: unknown[] | null;
  courts: unknown[] | null;
  attachments: unknown[] | null;
  related: unknown[] | null;
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
  const listAt = (field: keyof Lawsuit & string): unknown[] | null => readList(problems, field, o[field], members?.get(field));
  const stepList = listAt('steps');
  const attachmentList = listAt('attachments');
  const relatedList = listAt('related_lawsuits');
  // A list the documentation's descriptive form writes as one text is that one item, not a problem (a blank
  // text names nothing: a list it is not).
  const textListAt = (field: 'subjects' | 'classifications' | 'courts'): unknown[] | null => listOrText(o[field]) ?? listAt(field);
  const whole = isWhole(o, stepList);
  const r: Reading = {
    o, whole, members, problems,
    parties: listAt('parties'),
    // A header's empty step, attachment and related-lawsuit lists are not values (it leaves them unfilled): they
    // carry nothing.
    steps: whole ? stepList : nonEmpty(stepList),
    // The descriptive form of the documentation writes these as text, and one of them alone (`subject`, `court`).
    subjects: textListAt('subjects') ?? one(o.subject),
    classifications: textListAt('classifications') ?? one(o.classification),
    courts: textListAt('courts') ?? one(o.court),
    attachments: whole ? attachmentList : nonEmpty(attachmentList),
    related: whole ? relatedList : nonEmpty(relatedList),
  };
  const lawsuit = lawsuitRow(r, ctx);
  const { code, instance } = lawsuit;
  const out: FlatLawsuit = { lawsuit, parties: [], lawyers: [], steps: [], subjects: [], classifications: [], attachments: [], courts: [], related_lawsuits: [], problems: r.problems };
  keyProblems(r, code, instance);
  if (code === null || instance === null) {
    lawsuit.raw = ctx.rawText ?? safeJson(l);
    return out;
  }
  const key = { code, instance };
  const { parties, steps, attachments } = r;
  // Each step and party is a slice of the text as received, or else serialised once, for its own row; the
  // lawsuit's raw is the whole text, or else assembled from those.
  const stepRaws = slices(members, 'steps', steps) ?? (steps ?? []).map(safeJson);
  const partyRaws = slices(members, 'parties', parties) ?? (parties ?? []).map(safeJson);
  const attachmentRaws = slices(members, 'attachments', attachments) ?? (attachments ?? []).map(safeJson);
  lawsuit.raw = ctx.rawText || assembledRaw(l, r, stepRaws, partyRaws);
  partyRows(key, parties ?? [], partyRaws, out);
  out.steps = stepRows(key, steps ?? [], stepRaws);
  out.subjects = itemRows(key, r.subjects ?? []);
  out.classifications = itemRows(key, r.classifications ?? []);
  out.courts = courtRows(key, r.courts ?? []);
  out.attachments = attachmentRows(key, attachments ?? [], attachmentRaws);
  out.related_lawsuits = relatedRows(key, r.related ?? [], slices(members, 'related_lawsuits', r.related) ?? (r.related ?? []).map(safeJson));
  return out;
}

/**
 * A list of the payload as it came. An array is taken; so is an object keyed 0, 1, … n−1 (`{"0": …, "1": …}`,
 * as some serialisers write a list), its values in key order: its meaning is clear, and a problem says it was
 * read so. Anything else is not taken — no rows, the list not carried, the payload whole in responses_raw — and
 * a problem says so: a lawsuit's 18 steps sent as an object were once dropped in silence. Absent (undefined,
 * null) is no list and no problem.
 */
function readList(problems: FieldProblem[], field: string, v: unknown, literal?: string): unknown[] | null {
  if (v === undefined || v === null || Array.isArray(v)) return list(v);
  const indexed = indexedValues(v);
  const problem: ProblemCode = indexed ? 'list_as_object' : 'not_a_list';
  problems.push({ field, value: problemValue(literal ?? toJson(v) ?? null), problem, detail: PROBLEM_DETAIL[problem] });
  return indexed ?? null;
}

/** The values of an object whose keys are exactly 0 … n−1 (n ≥ 1), in key order; undefined for any other value. */
function indexedValues(v: unknown): unknown[] | undefined {
  if (!isObj(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length === 0) return undefined;
  const out: unknown[] = new Array(keys.length);
  for (const k of keys) {
    // Distinct keys, each a canonical index below their count: together exactly 0 … n−1.
    if (!/^(0|[1-9]\d*)$/.test(k) || Number(k) >= keys.length) return undefined;
    out[Number(k)] = v[k];
  }
  return out;
}

/** A value given that its column cannot hold is a problem; an absent one (undefined, null) is not. */
function typed<T>(r: Reading, field: string, v: unknown, out: T | null, literal = r.members?.get(field), key = false): T | null {
  if (out !== null || v === undefined || v === null) return out;
  const problem: ProblemCode = isNumeric(v, literal) ? 'out_of_range' : 'wrong_type';
  r.problems.push({ field, value: problemValue(literal ?? toJson(v)), problem, detail: key ? keyDetail(problem) : PROBLEM_DETAIL[problem] });
  return out;
}

function text(r: Reading, field: keyof Lawsuit & string): string | null {
  return typed(r, field, r.o[field], str(r.o[field]));
}

/** The lawsuits row, raw aside (filled once the key is known). Its fields' problems come in column order. */
function lawsuitRow(r: Reading, ctx: FlattenContext): LawsuitRow {
  const o = r.o;
  const crawler = isObj(o.crawler) ? o.crawler : {};
  const tags = isObj(o.tags) ? o.tags : {};
  const lastStep = isObj(o.last_step) ? o.last_step : {};
  // How far the lawsuit has gone, as the payload says: its last_step (a header's only clue), else, in a whole
  // payload, its newest step and the steps it lists. A whole payload's pair is what the warehouse then holds;
  // a newer header whose pair differs says the lawsuit moved since (v_lawsuit_levels).
  const lastStepId = str(lastStep.step_id) ?? (r.whole ? newestStepId(r.steps) : null);
  const stepsCount = typed(r, 'last_step.steps_count', lastStep.steps_count, int(lastStep.steps_count), undefined)
    ?? firstStepsCount(r.steps) ?? (r.whole ? distinctSteps(r.steps) : null);
  return {
    code: normalizeCnj(o.code),
    instance: readInstance(o.instance),
    lawsuit_id: text(r, 'lawsuit_id'),
    tribunal_acronym: text(r, 'tribunal_acronym'),
    justice: text(r, 'justice'),
    justice_description: text(r, 'justice_description'),
    tribunal: text(r, 'tribunal'),
    area: text(r, 'area'),
    state: text(r, 'state'),
    city: text(r, 'city'),
    county: text(r, 'county'),
    judge: text(r, 'judge'),
    situation: text(r, 'situation'),
    distribution_date: text(r, 'distribution_date'),
    amount: amountText(o.amount, r.members?.get('amount'), r.problems),
    status: text(r, 'status'),
    phase: text(r, 'phase'),
    secrecy_level: typed(r, 'secrecy_level', o.secrecy_level, int(o.secrecy_level)),
    free_justice: typed(r, 'free_justice', o.free_justice, bool(o.free_justice)),
    name: text(r, 'name'),
    created_at: text(r, 'created_at'),
    updated_at: text(r, 'updated_at'),
    crawl_id: str(crawler.crawl_id) ?? str(tags.crawl_id),
    crawler_source: str(crawler.source_name),
    crawled_at: str(crawler.updated_at),
    last_step_date: str(lastStep.step_date) ?? latestDate(r.steps),
    last_step_id: lastStepId,
    steps_count: stepsCount,
    whole_step_id: r.whole ? lastStepId : null,
    whole_steps_count: r.whole ? stepsCount : null,
    whole_at: r.whole ? str(crawler.updated_at) ?? ctx.responseCreatedAt ?? null : null,
    whole_seen: r.whole ? true : null,
    response_id: ctx.responseId ?? null,
    response_created_at: ctx.responseCreatedAt ?? null,
    cached_response: ctx.cachedResponse ?? null,
    source: ctx.source ?? null,
    run_id: ctx.runId ?? null,
    has_parties: r.parties !== null,
    has_steps: r.steps !== null,
    has_subjects: r.subjects !== null,
    has_classifications: r.classifications !== null,
    has_courts: r.courts !== null,
    has_attachments: r.attachments !== null,
    has_related_lawsuits: r.related !== null,
    raw: '',
  };
}

/** The key's problems, after the other fields': a code missing or unreadable, an instance missing or of the wrong kind. */
function keyProblems(r: Reading, code: string | null, instance: number | null): void {
  const o = r.o;
  if (code === null) {
    r.problems.push({ field: 'code', value: problemValue(r.members?.get('code') ?? toJson(o.code) ?? null), problem: 'missing_key', detail: PROBLEM_DETAIL.missing_key });
  }
  typed(r, 'instance', o.instance, instance, r.members?.get('instance'), true);
  if (o.instance === undefined || o.instance === null) {
    r.problems.push({ field: 'instance', value: null, problem: 'missing_key', detail: PROBLEM_DETAIL.missing_key });
  }
}

/** The lawsuit's raw when its text was not given: re-serialised, reusing the steps' and parties' texts. */
function assembledRaw(l: Lawsuit, r: Reading, stepRaws: string[], partyRaws: string[]): string {
  if (!isObj(l)) return safeJson(l);
  const done: Record<string, string> = {};
  // A list taken from an object stays the object it was in the raw payload.
  if (Array.isArray(r.o.steps)) done.steps = `[${stepRaws.join(',')}]`;
  if (Array.isArray(r.o.parties)) done.parties = `[${partyRaws.join(',')}]`;
  return stringifyWith(r.o, done);
}

type Key = { code: string; instance: number };

/** The parties' rows and their lawyers', into `out` (a lawyer's row takes its party's side when it has none). */
function partyRows(key: Key, parties: unknown[], raws: string[], out: FlatLawsuit): void {
  parties.forEach((p, party_index) => {
    const party: Obj = isObj(p) ? p : {};
    out.parties.push(partyRow(key, party_index, party, raws[party_index]));
    (readList(out.problems, `parties[${party_index}].lawyers`, party.lawyers) ?? []).forEach((w, lawyer_index) => {
      out.lawyers.push(lawyerRow(key, party_index, lawyer_index, isObj(w) ? w : {}, party));
    });
  });
}

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
function derivedStepId(stepDate: string | null, content: string | null): string {
  return 'h_' + createHash('sha256').update(`${stepDate ?? ''}\u0000${content ?? ''}`).digest('hex').slice(0, 32);
}

/** A list as given, or a text where a list belongs as a list of one; null otherwise (an object there is no list). */
function listOrText(v: unknown): unknown[] | null {
  if (Array.isArray(v)) return v;
  return typeof v === 'string' && v.trim() !== '' ? [v] : null;
}

/** A field naming one item (`court`, `subject`), as a text or an object, as a list of one; null otherwise. */
function one(v: unknown): unknown[] | null {
  return isObj(v) || (typeof v === 'string' && v.trim() !== '') ? [v] : null;
}

/**
 * A subject's or class's code and name. An object gives both; a text, as the descriptive form writes one, is a
 * code (`7698`), a code and its name (`7698 - Perdas e Danos`), or a name alone (`PROCEDIMENTO COMUM`), which
 * is then its own code too: the key of its row, as plain as it was given.
 */
function codeAndName(it: unknown): { code: string | null; name: string | null } {
  if (isObj(it)) return { code: str(it.code), name: str(it.name) };
  const t = str(it)?.trim() ?? '';
  if (t === '') return { code: null, name: null };
  const coded = /^(\d{1,10})\s*(?:[-–:|]\s*(.*))?$/.exec(t);
  if (coded) return { code: coded[1], name: coded[2]?.trim() || null };
  return { code: t, name: t };
}

function itemRows(key: Key, items: unknown[]): ItemRow[] {
  // Subjects and classifications are keyed by their code; an item without one stays only in lawsuits.raw.
  const byCode = new Map<string, ItemRow>();
  for (const it of items) {
    const { code: item_code, name: item_name } = codeAndName(it);
    if (item_code === null || byCode.has(item_code)) continue;
    byCode.set(item_code, { code: key.code, instance: key.instance, item_code, item_name });
  }
  return [...byCode.values()];
}

function courtRows(key: Key, courts: unknown[]): CourtRow[] {
  return courts.map((c, court_index): CourtRow => {
    // A court written as text is its name (the descriptive form's `court`).
    const court: Obj = isObj(c) ? c : { name: c };
    return { code: key.code, instance: key.instance, court_index, court_code: str(court.code), court_name: str(court.name) };
  });
}

/** Names an item of related_lawsuits gives how it is related by, the first given winning. */
const RELATION_FIELDS = ['relation', 'relation_type', 'relationship', 'type', 'kind'];

/**
 * The related lawsuits: an item is an object with at least a CNJ `code` (or `lawsuit_cnj`), or a CNJ number as
 * text; one whose number cannot be read (not 20 digits) stays in lawsuits.raw only. Keyed by the related number: the same number
 * twice in one list is one row, the first entry's.
 */
function relatedRows(key: Key, items: unknown[], raws: string[]): RelatedLawsuitRow[] {
  const byCode = new Map<string, RelatedLawsuitRow>();
  items.forEach((it, i) => {
    const item: Obj = isObj(it) ? it : { code: it };
    // Its shape, not its check digits, as a lawsuit's own code is read (spec/cnj.ts, cnjShape).
    const related = cnjShape(str(item.code) ?? str(item.lawsuit_cnj) ?? '');
    if (related === undefined || byCode.has(related)) return;
    const relation = RELATION_FIELDS.map((f) => str(item[f])).find((v) => v !== null && v.trim() !== '') ?? null;
    byCode.set(related, {
      code: key.code, instance: key.instance, related_code: related,
      related_instance: readInstance(item.instance ?? item.lawsuit_instance), relation, raw: raws[i],
    });
  });
  return [...byCode.values()];
}

/**
 * The attachments, one row per attachment_id: the provider's id when it gives one (a text, or a whole number),
 * else one derived from its date and name (derivedAttachmentId). The same id twice in one payload is one
 * attachment: the later entry wins, so the key stays unique. Date and name under either of the names payloads give
 * them (the spec's attachment_date and attachment_name, the documentation's date and name).
 */
function attachmentRows(key: Key, attachments: unknown[], raws: string[]): AttachmentRow[] {
  const byId = new Map<string, AttachmentRow>();
  attachments.forEach((a, i) => {
    const att: Obj = isObj(a) ? a : {};
    const given = idText(att.attachment_id);
    const attachment_date = str(att.attachment_date) ?? str(att.date);
    const name = str(att.attachment_name) ?? str(att.name);
    const attachment_id = given ?? derivedAttachmentId(attachment_date, name);
    byId.set(attachment_id, {
      code: key.code, instance: key.instance, attachment_id, attachment_id_derived: given === null,
      step_id: str(att.step_id), name, extension: str(att.extension), status: str(att.status), attachment_date,
      raw: raws[i],
    });
  });
  return [...byId.values()];
}

/** An id as the provider may write it: a text that is not empty, or a whole number. */
function idText(v: unknown): string | null {
  if (typeof v === 'string') return v === '' ? null : v;
  return typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : null;
}

/**
 * An attachment without an id is known by its date and name, as a step without one is by its date and text
 * (derivedStepId): reloading the payload, or a newer one listing more attachments, lands on the same row. No file
 * can be asked for such an id. Migration 130 derives it in SQL the same way (unit separator, sha256, 32 digits).
 */
function derivedAttachmentId(date: string | null, name: string | null): string {
  return 'h_' + createHash('sha256').update(`${date ?? ''}\u001f${name ?? ''}`).digest('hex').slice(0, 32);
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

/**
 * Whether a payload is the whole lawsuit (a lawsuit-level answer) rather than its header. The provider's searches
 * by document answer headers: phase and status unfilled, no steps (REFERENCE.md, "Two levels"). So a payload is
 * whole when it lists steps, or lists none with its phase and status filled (a lawsuit with no movement yet). Read
 * from the payload itself, never from the kind of search that brought it: an upstream that answers whole
 * lawsuits to a search by document (the spec's reading) needs no lawsuit-level read.
 */
function isWhole(o: Obj, steps: unknown[] | null = list(o.steps)): boolean {
  return steps !== null && (steps.length > 0 || (str(o.phase) !== null && str(o.status) !== null));
}

/** The list, unless absent or empty (a header's empty list says nothing). */
function nonEmpty(v: unknown[] | null): unknown[] | null {
  return v !== null && v.length > 0 ? v : null;
}

/** The id of the newest step by date (the first listed among equals; the first listed when none is dated). */
function newestStepId(steps: unknown[] | null): string | null {
  let best: Obj | undefined;
  for (const s of steps ?? []) {
    if (!isObj(s)) continue;
    if (best === undefined || timeOf(s.step_date) > timeOf(best.step_date)) best = s;
  }
  return best === undefined ? null : str(best.step_id) ?? derivedStepId(str(best.step_date), str(best.content));
}

/** Steps a list holds, as the steps table counts them (one per step id). */
function distinctSteps(steps: unknown[] | null): number {
  const ids = new Set<string>();
  for (const s of steps ?? []) {
    const step: Obj = isObj(s) ? s : {};
    ids.add(str(step.step_id) ?? derivedStepId(str(step.step_date), str(step.content)));
  }
  return ids.size;
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
