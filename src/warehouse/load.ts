import { objectMembers, rawTextOf } from '../shared/raw-json.js';
import type { Lawsuit, ResponseItem } from '../spec/types.js';
import { applicationErrorRow } from './application-error.js';
import { flattenLawsuit } from './flatten.js';
import { capRow, fitsColumn, splitParts } from './long-values.js';
import { DELETE_LAWSUIT_PARTS_SQL, INSERT_LAWSUIT_PARTS_NEW_SQL, INSERT_LAWSUIT_PARTS_SQL, INSERT_RESPONSE_PARTS_SQL, MERGE } from './merge.js';
import { INSERT_LAYER_PROBLEMS_SQL, INSERT_PROBLEMS_SQL, PROBLEM_DETAIL, problemValue, TOO_LONG_KEY_DETAIL } from './problems.js';
import type { ApplicationErrorRow, FlatLawsuit, HitRow, ProblemRow, RawPartRow, ResponseRow } from './rows.js';
import { appendRows, resetStaging, stageRows } from './stage.js';
import { normalizeCnj, readInstance } from '../spec/identifiers.js';
import { bool, isObj, str, toJson } from './values.js';
import type { Warehouse } from './warehouse.js';

interface LoadContext {
  /** The run loading the items (responses_raw.run_id, lawsuits.first/last_seen_run). */
  runId: string;
  /** Where the items came from: 'async' (responses listing), 'historical' (synchronous query), ... Default 'async'. */
  source?: string;
  /** Items per batch (one transaction each, unless the caller's transaction holds them all). Default 1000 items. */
  batchSize?: number;
  /** Characters of payload text per batch. Default the warehouse's budget (load-budget.ts): 8 MB at 128 MB. */
  batchBytes?: number;
  /** Items with more characters than this are kept in responses_raw only (`too_large`). Default the warehouse's budget: 16 MB at 128 MB. */
  maxFlattenBytes?: number;
}

export interface LoadCounts {
  /** Response items given. */
  items: number;
  /** responses_raw rows actually inserted (0 for items already held). */
  newResponses: number;
  /** Items of response_type lawsuit. */
  lawsuitItems: number;
  /** Distinct lawsuits (code, instance) among them. */
  lawsuits: number;
  /** Of those, the lawsuits a payload changed (it was newer, or it carried a column no newer payload carried). */
  lawsuitsMerged: number;
  /** Rows staged from the payloads (per batch, after deduplication). */
  parties: number;
  lawyers: number;
  steps: number;
  /** application_error items (in responses_raw, and each with its typed reason in application_errors). */
  applicationErrors: number;
  /** Lawsuit items without a usable (code, instance), without an object payload, or too large: responses_raw only. */
  skipped: number;
  /** Rows written to load_problems (values their typed columns could not hold, items kept raw only). */
  problems: number;
}

const emptyCounts = (): LoadCounts => ({
  items: 0, newResponses: 0, lawsuitItems: 0, lawsuits: 0, lawsuitsMerged: 0, parties: 0, lawyers: 0, steps: 0,
  applicationErrors: 0, skipped: 0, problems: 0,
});

function addCounts(a: LoadCounts, b: LoadCounts): LoadCounts {
  const out = { ...a };
  for (const k of Object.keys(out) as Array<keyof LoadCounts>) out[k] += b[k];
  return out;
}

/** The characters of an item's JSON as received, or undefined for an item built here (not from the service). */
export function itemBytes(item: unknown): number | undefined {
  return rawTextOf(item)?.length;
}

/** An item with its JSON text (as received, or serialised once here) and its response_data's text. */
interface Prepared { item: unknown; text: string; dataText: string | undefined }

function prepare(item: unknown): Prepared {
  const raw = rawTextOf(item);
  const text = raw ?? toJson(item) ?? 'null';
  const data = isObj(item) ? item.response_data : undefined;
  // Slicing the item's own text when the service's response_data was not remembered: the same bytes, no second serialisation.
  const dataText = rawTextOf(data) ?? (isObj(data) ? objectMembers(text)?.get('response_data') : undefined);
  return { item, text, dataText };
}

/**
 * Loads response items: batches bounded by count and by bytes, each in one transaction (or in the caller's),
 * idempotent (the same items twice change nothing). Items are serialised one batch at a time.
 */
export async function loadResponseItems(wh: Warehouse, items: readonly ResponseItem[], ctx: LoadContext): Promise<LoadCounts> {
  const maxItems = Math.max(1, ctx.batchSize ?? 1000);
  const maxBytes = ctx.batchBytes ?? wh.budget.batchBytes;
  const maxFlatten = ctx.maxFlattenBytes ?? wh.budget.maxFlattenBytes;
  let total = emptyCounts();
  let batch: Prepared[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    const b = batch;
    batch = [];
    bytes = 0;
    total = addCounts(total, await wh.transaction(() => loadBatch(wh, b, ctx, maxFlatten)));
  };
  for (const item of items) {
    const p = prepare(item);
    if (batch.length > 0 && (batch.length >= maxItems || bytes + p.text.length > maxBytes)) await flush();
    batch.push(p);
    bytes += p.text.length;
  }
  if (batch.length > 0) await flush();
  return total;
}

/** What one batch's items make, before the warehouse is touched. */
interface BatchRows {
  responses: Map<string, ResponseRow>;
  /** Each response id's text: its first copy's in the batch (duplicateProblem). */
  texts: Map<string, string>;
  flats: Array<{ flat: FlatLawsuit; requestId: string | null; order: number }>;
  problems: ProblemRow[];
  parts: RawPartRow[];
  /** The application_error items, typed (application_errors). */
  errors: Map<string, ApplicationErrorRow>;
}

async function loadBatch(wh: Warehouse, items: readonly Prepared[], ctx: LoadContext, maxFlatten: number): Promise<LoadCounts> {
  const counts = emptyCounts();
  counts.items = items.length;
  const b = rowsOf(items, ctx, maxFlatten, counts);

  // Every staging table, the lawsuit ones too though only mergeLayer reads them (and makes them anew): emptied
  // here, the last batch's last layer no longer sits in memory beside this batch's items.
  await resetStaging(wh);
  await stageRows(wh, 'responses', [...b.responses.values()]);
  await stageRows(wh, 'parts', b.parts);
  // The parts of new items first: both anti-joins look at responses_raw as it was before this batch.
  if (b.parts.some((p) => p.owner === 'responses_raw.item')) await wh.run(INSERT_RESPONSE_PARTS_SQL);
  counts.newResponses = await wh.run(MERGE.insertResponses);
  // Some ids were stored already: one stored with another content keeps it, and this copy is left out whole.
  if (counts.newResponses < b.responses.size) leaveOut(b, await storedConflicts(wh), counts);
  const { flats, problems, parts, errors } = b;
  const hits = hitsOf(flats);

  await stageRows(wh, 'hits', [...hits.values()]);
  await stageRows(wh, 'problems', problems);
  await stageRows(wh, 'errors', [...errors.values()]);
  if (errors.size > 0) await wh.run(MERGE.insertErrors);
  const layers = layersOf(flats.map((f) => f.flat));
  counts.lawsuits = layers[0]?.length ?? 0; // every distinct lawsuit is in the first layer, once
  for (const [i, layer] of layers.entries()) await mergeLayer(wh, layer, counts, i === 0 && parts.length === 0);
  if (hits.size > 0) await mergeHits(wh, hits.size);
  counts.problems = await wh.run(INSERT_PROBLEMS_SQL, [ctx.runId]);
  return counts;
}

/** The rows of a batch's items: responses_raw's, the lawsuits flattened, their problems, the parts of long items. */
function rowsOf(items: readonly Prepared[], ctx: LoadContext, maxFlatten: number, counts: LoadCounts): BatchRows {
  const b: BatchRows = { responses: new Map(), texts: new Map(), flats: [], problems: [], parts: [], errors: new Map() };
  const { problems } = b;
  items.forEach(({ item, text, dataText }, order) => {
    const it = isObj(item) ? (item as ResponseItem) : ({} as ResponseItem);
    const responseId = keptResponseId(it, problems);
    if (responseId !== null) {
      // One response id, two contents in one batch: the first is kept (duplicateProblem), this one left out.
      const first = b.texts.get(responseId);
      if (first !== undefined && first !== text) {
        counts.skipped++;
        problems.push(duplicateProblem(responseId, text));
        return;
      }
      b.texts.set(responseId, text);
    }
    let flat: FlatLawsuit | null = null;
    if (it.response_type === 'application_error') {
      counts.applicationErrors++;
      if (responseId !== null) b.errors.set(responseId, applicationErrorRow(it, responseId, ctx.runId));
    } else if (it.response_type !== 'lawsuit') counts.skipped++;
    else {
      counts.lawsuitItems++;
      flat = lawsuitOf(it, responseId, text, dataText, ctx, maxFlatten, problems);
      if (flat === null) counts.skipped++;
    }
    if (responseId !== null) addResponse(b, it, responseId, text, ctx.runId);
    if (flat !== null) b.flats.push({ flat, requestId: str(it.request_id), order });
  });
  return b;
}

/** The item's response id, or null when it has none or one too long for a column (a problem then). */
function keptResponseId(it: ResponseItem, problems: ProblemRow[]): string | null {
  const responseId = str(it.response_id);
  if (responseId === null || fitsColumn(responseId)) return responseId;
  problems.push({ response_id: `${responseId.slice(0, 200)}…`, code: null, instance: null, field: 'response_id', value: `${responseId.length} characters`,
    problem: 'too_long', detail: 'the response id is longer than a column holds (48 KB): the item cannot be kept' });
  return null;
}

/**
 * A lawsuit item flattened, or null when it is kept raw only: too large, no object, no usable (code, instance),
 * or a key too long for its column; each with its problems.
 */
function lawsuitOf(it: ResponseItem, responseId: string | null, text: string, dataText: string | undefined, ctx: LoadContext, maxFlatten: number,
  problems: ProblemRow[]): FlatLawsuit | null {
  const data: unknown = it.response_data;
  const where = isObj(data) ? { code: normalizeCnj(data.code), instance: readInstance(data.instance) } : { code: null, instance: null };
  if (text.length > maxFlatten) {
    problems.push({ response_id: responseId, ...where, field: '(item)', value: `${text.length} characters (limit ${maxFlatten})`,
      problem: 'too_large', detail: PROBLEM_DETAIL.too_large });
    return null;
  }
  if (!isObj(data)) {
    problems.push({ response_id: responseId, ...where, field: 'response_data', value: problemValue(dataText ?? toJson(data) ?? null),
      problem: 'not_an_object', detail: PROBLEM_DETAIL.not_an_object });
    return null;
  }
  const flat = flattenLawsuit(data as Lawsuit, {
    responseId, responseCreatedAt: str(it.created_at), cachedResponse: isObj(it.tags) ? bool(it.tags.cached_response) : null,
    source: ctx.source ?? 'async', runId: ctx.runId, rawText: dataText,
  });
  for (const p of flat.problems) problems.push({ response_id: responseId, code: flat.lawsuit.code, instance: flat.lawsuit.instance, ...p });
  return flat.lawsuit.code === null || flat.lawsuit.instance === null || !capLongValues(flat, responseId, problems) ? null : flat;
}

/** The item's responses_raw row, its values too long for a column left NULL with a problem; the item itself always kept whole. */
function addResponse(b: BatchRows, it: ResponseItem, id: string, text: string, runId: string): void {
  const row: ResponseRow = {
    response_id: id, request_id: str(it.request_id), response_type: str(it.response_type), created_at: str(it.created_at), item: null, run_id: runId,
  };
  capRow(row, [], (field, value) => b.problems.push({ response_id: id, code: null, instance: null, field: `(response item) ${field}`,
    value: problemValue(value), problem: 'too_long', detail: PROBLEM_DETAIL.too_long }));
  // The item itself is always kept whole: in its column, or in parts when too long for one.
  if (fitsColumn(text)) row.item = text;
  else splitParts(text).forEach((t, part) => b.parts.push({ owner: 'responses_raw.item', response_id: id, code: null, instance: null, part, text: t }));
  b.responses.set(id, row);
}

/** The batch's copies of `conflicts` (stored with another content) left out: not flattened, no problem of theirs but one. */
function leaveOut(b: BatchRows, conflicts: ReadonlySet<string>, counts: LoadCounts): void {
  if (conflicts.size === 0) return;
  const ours = (id: string | null): boolean => id !== null && conflicts.has(id);
  counts.skipped += b.flats.filter((f) => ours(f.flat.lawsuit.response_id)).length;
  b.flats = b.flats.filter((f) => !ours(f.flat.lawsuit.response_id));
  b.problems = b.problems.filter((p) => !ours(p.response_id));
  for (const id of conflicts) b.errors.delete(id);
  for (const [id, text] of b.texts) if (conflicts.has(id)) b.problems.push(duplicateProblem(id, text));
}

/** The batch's search hits, one a (request, lawsuit): each names the least response id that carried it (merge.ts, mergeHits). */
function hitsOf(flats: BatchRows['flats']): Map<string, HitRow> {
  const hits = new Map<string, HitRow>();
  for (const { flat, requestId } of flats) {
    const { code, instance, response_id } = flat.lawsuit;
    if (requestId === null || !fitsColumn(requestId) || code === null || instance === null) continue;
    const k = `${requestId}\u0000${code}\u0000${instance}`;
    const held = hits.get(k);
    if (!held || (response_id !== null && (held.response_id === null || response_id < held.response_id))) hits.set(k, { request_id: requestId, code, instance, response_id });
  }
  return hits;
}

/**
 * The rule for one response id listed twice with two contents (a provider's fault): the copy stored first is the
 * response, and every later one with another text is left out whole — not in responses_raw, not flattened, not a
 * search hit — with a `conflicting_duplicate` problem holding its text. So the tables stay a function of
 * responses_raw, which `rebuild` replays (a later copy merged into lawsuits while responses_raw kept the first
 * made rebuild change two lawsuits). "First" is the order items are loaded in, which batches do not change.
 */
function duplicateProblem(responseId: string, text: string): ProblemRow {
  return { response_id: responseId, code: null, instance: null, field: '(another copy)', value: problemValue(text),
    problem: 'conflicting_duplicate', detail: PROBLEM_DETAIL.conflicting_duplicate };
}

/**
 * The staged response ids stored already with another text (duplicateProblem): compared whole, in its column or in
 * its parts (raw_parts, a text over 48 KB), which the loader cuts the same way from the same text.
 */
async function storedConflicts(wh: Warehouse): Promise<Set<string>> {
  const rows = await wh.all<{ response_id: string }>(`
    SELECT s.response_id FROM stg_responses s JOIN responses_raw r USING (response_id)
    WHERE (s.item IS NULL) <> (r.item IS NULL) OR CAST(s.item AS VARCHAR) <> CAST(r.item AS VARCHAR)
    UNION
    SELECT coalesce(a.response_id, b.response_id) FROM
      (SELECT response_id, part, text FROM stg_parts WHERE owner = 'responses_raw.item') a
      FULL JOIN (SELECT response_id, part, text FROM raw_parts WHERE owner = 'responses_raw.item'
        AND response_id IN (SELECT response_id FROM stg_parts WHERE owner = 'responses_raw.item')) b
      ON a.response_id = b.response_id AND a.part = b.part
    WHERE a.text IS DISTINCT FROM b.text`);
  return new Set(rows.map((r) => r.response_id));
}

/**
 * The batch's search hits (`staged` rows, one a key) into search_hits. When each was new, none can lower a stored
 * one's response id, and the UPDATE, which scans search_hits whatever it matches, is skipped.
 */
async function mergeHits(wh: Warehouse, staged: number): Promise<void> {
  if ((await wh.run(MERGE.mergeHits.insert)) < staged) await wh.run(MERGE.mergeHits.lower);
}

type Row = Record<string, unknown>;

/** Where each kind of row of a lawsuit sits in its payload, for load_problems.field, and the columns that key it. */
const CHILD_PATHS: ReadonlyArray<[keyof FlatLawsuit & string, readonly string[], (r: Row) => string]> = [
  ['parties', [], (r) => `parties[${r.party_index}]`],
  ['lawyers', [], (r) => `parties[${r.party_index}].lawyers[${r.lawyer_index}]`],
  ['steps', ['step_id'], (r) => `steps[${String(r.step_id ?? '?').slice(0, 60)}]`],
  ['subjects', ['item_code'], (r) => `subjects[${String(r.item_code ?? '?').slice(0, 60)}]`],
  ['classifications', ['item_code'], (r) => `classifications[${String(r.item_code ?? '?').slice(0, 60)}]`],
  ['courts', [], (r) => `courts[${r.court_index}]`],
  ['attachments', ['attachment_id'], (r) => `attachments[${String(r.attachment_id ?? '?').slice(0, 60)}]`],
  ['related_lawsuits', ['related_code'], (r) => `related_lawsuits[${String(r.related_code ?? '?').slice(0, 60)}]`],
];

/**
 * Leaves NULL every value of the lawsuit's rows too long for a column (long-values.ts), with a problem each; a
 * child whose key is too long is left out. False when the lawsuit's own key is too long (kept raw only). The
 * lawsuit's raw is left as it is: the loader puts a long one in raw_parts.
 */
function capLongValues(flat: FlatLawsuit, responseId: string | null, problems: ProblemRow[]): boolean {
  const { code, instance } = flat.lawsuit;
  const add = (field: string, value: string, key: boolean): void => {
    problems.push({ response_id: responseId, code: field === 'code' ? null : code, instance, field, value: problemValue(value),
      problem: 'too_long', detail: key ? TOO_LONG_KEY_DETAIL : PROBLEM_DETAIL.too_long });
  };
  const { raw, ...scalars } = flat.lawsuit;
  if (!capRow(scalars, ['code'], (f, v) => add(f, v, f === 'code'))) return false;
  flat.lawsuit = { ...flat.lawsuit, ...scalars, raw };
  for (const [table, keys, path] of CHILD_PATHS) {
    const rows = flat[table] as unknown as Row[];
    const kept = rows.filter((r) => {
      const where = path(r);
      return capRow(r, keys, (f, v) => add(`${where}.${f}`, v, keys.includes(f)));
    });
    if (kept.length !== rows.length) (flat as unknown as Record<string, Row[]>)[table] = kept;
  }
  return true;
}

/**
 * A batch's lawsuits in layers, each lawsuit at most once per layer: its first copy in the first layer, its
 * second in the second, and so on. The merge statements (merge.ts) meet each key once per statement; the merge
 * itself does not depend on order, so neither do the layers' contents nor where batch boundaries fell.
 */
function layersOf(flats: readonly FlatLawsuit[]): FlatLawsuit[][] {
  const seen = new Map<string, number>();
  const layers: FlatLawsuit[][] = [];
  for (const f of flats) {
    const k = `${f.lawsuit.code}\u0000${f.lawsuit.instance}`;
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    (layers[n] ??= []).push(f);
  }
  return layers;
}

const LAWSUIT_STAGING = ['lawsuits', 'parties', 'lawyers', 'steps', 'subjects', 'classifications', 'courts', 'attachments', 'related_lawsuits'] as const;

/**
 * One layer's lawsuits (each once) merged into the warehouse, in two parts: those it has never seen, inserted whole
 * (mergePart's first branch), and those it holds, merged with their stored rows. The merge depends on neither
 * order nor batching (merge.ts), so the two parts give what one layer would. Split because a merge costs the
 * stored side's scans (every column of lawsuits and of each child table) and its digests and version columns for
 * every staged row, stored or not: on a first night of 70,596 lawsuits, where searches of big litigants overlap in
 * a few lawsuits, 46 of 72 layers held one to five stored lawsuits each and took the merge's path whole (the
 * lists' digests cost 4.4 CPU s, the lawsuits' merge 2.9). `fresh`: the staging tables are empty already.
 */
async function mergeLayer(wh: Warehouse, layer: FlatLawsuit[], counts: LoadCounts, fresh: boolean): Promise<void> {
  const stored = await storedKeys(wh, layer);
  let clean = fresh;
  for (const [part, held] of [[layer.filter((f) => !stored.has(keyOf(f))), false], [layer.filter((f) => stored.has(keyOf(f))), true]] as const) {
    if (part.length === 0) continue;
    await mergePart(wh, part, held, counts, clean);
    clean = false;
  }
}

const keyOf = (f: FlatLawsuit): string => `${f.lawsuit.code}\u0000${f.lawsuit.instance}`;

/** The keys of the layer's lawsuits the warehouse holds: read from lawsuits' key columns alone. */
async function storedKeys(wh: Warehouse, layer: readonly FlatLawsuit[]): Promise<Set<string>> {
  await wh.run(MERGE.layerKeys);
  await appendRows(wh, 'stg_layer_keys', layer, (a, f) => {
    a.appendVarchar(f.lawsuit.code!);
    a.appendInteger(f.lawsuit.instance!);
  });
  const rows = await wh.all<{ code: string; instance: number }>(MERGE.storedKeys);
  return new Set(rows.map((r) => `${r.code}\u0000${r.instance}`));
}

/**
 * Lawsuits of a layer staged and merged: `held`, all of them stored already (merged column by column), or none
 * (inserted as they are). The problems of their casts join the batch's in stg_problems. `fresh`: its staging
 * tables are empty already, as for a batch's first layer when loadBatch staged no item parts beside them (making
 * the nine tables anew again cost about 2 ms a batch).
 */
async function mergePart(wh: Warehouse, layer: FlatLawsuit[], held: boolean, counts: LoadCounts, fresh: boolean): Promise<void> {
  const parts: RawPartRow[] = [];
  const payloads = layer.map((w) => {
    const raw = w.lawsuit.raw;
    if (raw === null || fitsColumn(raw)) return w;
    splitParts(raw).forEach((t, part) => parts.push({ owner: 'lawsuits.raw', response_id: null, code: w.lawsuit.code, instance: w.lawsuit.instance, part, text: t }));
    return { ...w, lawsuit: { ...w.lawsuit, raw: null } };
  });
  if (!fresh) await resetStaging(wh, [...LAWSUIT_STAGING, 'parts']);
  for (const t of LAWSUIT_STAGING) await stageRows(wh, t, t === 'lawsuits' ? payloads.map((w) => w.lawsuit) : payloads.flatMap((w) => w[t] as object[]));
  await stageRows(wh, 'parts', parts);
  const steps = payloads.reduce((n, w) => n + w.steps.length, 0);
  counts.parties += payloads.reduce((n, w) => n + w.parties.length, 0);
  counts.lawyers += payloads.reduce((n, w) => n + w.lawyers.length, 0);
  counts.steps += steps;

  if (!held) {
    // Lawsuits the warehouse has never seen (every layer of a first night but for overlaps): nothing to merge with.
    counts.lawsuitsMerged += await wh.run(MERGE.insertNewLawsuits);
    if (parts.length > 0) await wh.run(INSERT_LAWSUIT_PARTS_NEW_SQL);
    for (const { table, insNew } of MERGE.children) {
      if (payloads.some((w) => ((w as unknown as Record<string, unknown[]>)[table] ?? []).length > 0)) await wh.run(insNew);
    }
    if (steps > 0) await wh.run(MERGE.insertNewSteps);
  } else {
    await mergeWithStored(wh, parts.length > 0, steps > 0, counts);
  }
  await wh.run(INSERT_LAYER_PROBLEMS_SQL);
}

/** A layer some of whose lawsuits the warehouse holds, merged column by column (merge.ts). */
async function mergeWithStored(wh: Warehouse, hasParts: boolean, hasSteps: boolean, counts: LoadCounts): Promise<void> {
  await wh.run(MERGE.mergeLawsuits);
  // A statement that cannot match still plans and scans (a DELETE or an UPDATE scans the whole table): skip
  // those the layer cannot need.
  const [seen] = await wh.all<{ replaced: boolean; filled: boolean; touched: boolean; changed: number }>(`
    SELECT coalesce(bool_or(existed AND wins), false) AS replaced, coalesce(bool_or(NOT wins AND changed), false) AS filled,
      coalesce(bool_or(existed AND NOT wins AND NOT changed), false) AS touched, count(*) FILTER (WHERE changed)::INTEGER AS changed
    FROM stg_merged_lawsuits`);
  const L = MERGE.lawsuits;
  if (seen.replaced) await wh.run(L.delete);
  await wh.run(L.insert);
  if (seen.filled) await wh.run(L.fill);
  if (L.touch && seen.touched) await wh.run(L.touch);
  counts.lawsuitsMerged += seen.changed;
  if (seen.replaced) await wh.run(DELETE_LAWSUIT_PARTS_SQL);
  if (hasParts) await wh.run(INSERT_LAWSUIT_PARTS_SQL);
  // Only the lists whose rows differ from the stored ones are rewritten, and only the statements they need run.
  await wh.run(MERGE.listsChanged);
  const lists = new Map((await wh.all<{ list: string; stored: boolean; rows: number }>(
    'SELECT list, bool_or(existed) AS stored, sum(rows)::INTEGER AS rows FROM stg_lists_changed GROUP BY list')).map((r) => [r.list, r]));
  for (const { table, del, ins } of MERGE.children) {
    if (lists.get(table)?.stored) await wh.run(del);
    if ((lists.get(table)?.rows ?? 0) > 0) await wh.run(ins);
  }
  // A stored lawsuit a newer payload wins moves the version its steps inherit (merge.ts, Source.parent): steps
  // that payload leaves out, were it all of them, have theirs written down.
  if (!hasSteps && !seen.replaced) return;
  await wh.run(MERGE.mergeSteps);
  const [st] = await wh.all<{ replaced: boolean; moved: boolean; filled: boolean }>(`SELECT coalesce(bool_or(existed AND wins AND NOT same), false) AS replaced,
    coalesce(bool_or(moves), false) AS moved, coalesce(bool_or(NOT wins AND changed), false) AS filled FROM stg_merged_steps`);
  const S = MERGE.steps;
  if (st.replaced) await wh.run(S.delete);
  await wh.run(S.insert);
  if (st.moved) await wh.run(S.move);
  if (st.filled) await wh.run(S.fill);
}
