import type { Lawsuit, ResponseItem } from '../api/types.js';
import { flattenLawsuit } from './flatten.js';
import {
  INSERT_HITS_SQL, INSERT_LAWSUITS_SQL, INSERT_NEW_STEPS_SQL, INSERT_RESPONSES_SQL, MERGE_STEPS_SQL, TOUCH_LOSERS_SQL, UPDATE_LAWSUITS_SQL, WINNERS_SQL, replaceChildrenSql,
} from './merge.js';
import type { FlatLawsuit, HitRow, ResponseRow, StepRow } from './rows.js';
import { resetStaging, stageRows } from './stage.js';
import { bool, isObj, str, stringifyWith, timeOf } from './values.js';
import type { Warehouse } from './warehouse.js';

export interface LoadContext {
  /** The run loading the items (responses_raw.run_id, lawsuits.first/last_seen_run). */
  runId: string;
  /** Where the items came from: 'async' (responses listing), 'historical' (synchronous query), ... Default 'async'. */
  source?: string;
  /** Items per transaction; bounds memory and transaction size. Default 1000 items. */
  batchSize?: number;
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
  /** Of those, the lawsuits whose payload won (newer-or-equal crawl) and was merged. */
  lawsuitsMerged: number;
  /** Rows staged from the payloads (per batch, after deduplication). */
  parties: number;
  lawyers: number;
  steps: number;
  /** application_error items (kept in responses_raw only). */
  applicationErrors: number;
  /** Lawsuit items without a usable (code, instance) or without an object payload: responses_raw only. */
  skipped: number;
}

export const emptyCounts = (): LoadCounts => ({
  items: 0, newResponses: 0, lawsuitItems: 0, lawsuits: 0, lawsuitsMerged: 0, parties: 0, lawyers: 0, steps: 0,
  applicationErrors: 0, skipped: 0,
});

export function addCounts(a: LoadCounts, b: LoadCounts): LoadCounts {
  const out = { ...a };
  for (const k of Object.keys(out) as Array<keyof LoadCounts>) out[k] += b[k];
  return out;
}

/** Loads response items: each batch in one transaction, idempotent (the same items twice change nothing). */
export async function loadResponseItems(wh: Warehouse, items: readonly ResponseItem[], ctx: LoadContext): Promise<LoadCounts> {
  const size = Math.max(1, ctx.batchSize ?? 1000);
  let total = emptyCounts();
  for (let i = 0; i < items.length; i += size) {
    const batch = items.slice(i, i + size);
    total = addCounts(total, await wh.transaction(() => loadBatch(wh, batch, ctx)));
  }
  return total;
}

async function loadBatch(wh: Warehouse, items: readonly ResponseItem[], ctx: LoadContext): Promise<LoadCounts> {
  const counts = emptyCounts();
  counts.items = items.length;
  const responses = new Map<string, ResponseRow>();
  const flats: Array<{ flat: FlatLawsuit; requestId: string | null; order: number }> = [];
  items.forEach((item, order) => {
    const it = isObj(item) ? (item as ResponseItem) : ({} as ResponseItem);
    const responseId = str(it.response_id);
    let flat: FlatLawsuit | null = null;
    if (it.response_type === 'application_error') counts.applicationErrors++;
    else if (it.response_type !== 'lawsuit') counts.skipped++;
    else {
      counts.lawsuitItems++;
      if (isObj(it.response_data)) {
        flat = flattenLawsuit(it.response_data as Lawsuit, {
          responseId, responseCreatedAt: str(it.created_at), cachedResponse: isObj(it.tags) ? bool(it.tags.cached_response) : null,
          source: ctx.source ?? 'async', runId: ctx.runId,
        });
      }
      if (flat === null || flat.lawsuit.code === null || flat.lawsuit.instance === null) { counts.skipped++; flat = null; }
    }
    if (responseId !== null) {
      // The lawsuit's JSON is already made: the item's text reuses it (same bytes as JSON.stringify(item)).
      const text = flat !== null && isObj(item) ? stringifyWith(item as Record<string, unknown>, { response_data: flat.lawsuit.raw }) : JSON.stringify(item);
      responses.set(responseId, {
        response_id: responseId, request_id: str(it.request_id), response_type: str(it.response_type),
        created_at: str(it.created_at), item: text, run_id: ctx.runId,
      });
    }
    if (flat !== null) flats.push({ flat, requestId: str(it.request_id), order });
  });

  const winners = dedupeByLawsuit(flats.map((f) => ({ flat: f.flat, order: f.order })));
  const hits = new Map<string, HitRow>();
  for (const { flat, requestId } of flats) {
    const { code, instance, response_id } = flat.lawsuit;
    if (requestId === null || code === null || instance === null) continue;
    const k = `${requestId}\u0000${code}\u0000${instance}`;
    if (!hits.has(k)) hits.set(k, { request_id: requestId, code, instance, response_id });
  }

  await resetStaging(wh);
  await stageRows(wh, 'responses', [...responses.values()]);
  await stageRows(wh, 'hits', [...hits.values()]);
  await stageRows(wh, 'lawsuits', winners.map((w) => w.lawsuit));
  for (const t of ['parties', 'lawyers', 'steps', 'subjects', 'classifications', 'courts', 'attachments'] as const) {
    await stageRows(wh, t, winners.flatMap((w) => w[t] as object[]));
  }
  counts.lawsuits = winners.length;
  counts.parties = winners.reduce((n, w) => n + w.parties.length, 0);
  counts.lawyers = winners.reduce((n, w) => n + w.lawyers.length, 0);
  counts.steps = winners.reduce((n, w) => n + w.steps.length, 0);

  counts.newResponses = await wh.run(INSERT_RESPONSES_SQL);
  if (winners.length > 0) {
    await wh.run(WINNERS_SQL);
    // A statement that cannot match still plans and scans (a DELETE or an UPDATE scans the whole table): skip
    // those the batch cannot need. A batch of lawsuits the warehouse has never seen (a first run) only inserts.
    const [seen] = await wh.all<{ updates: boolean; losers: boolean }>(
      'SELECT coalesce(bool_or(existed AND wins), false) AS updates, coalesce(bool_or(NOT wins), false) AS losers FROM stg_win');
    counts.lawsuitsMerged = (seen.updates ? await wh.run(UPDATE_LAWSUITS_SQL) : 0) + await wh.run(INSERT_LAWSUITS_SQL);
    if (seen.losers) await wh.run(TOUCH_LOSERS_SQL);
    for (const { table, flag, del, ins } of replaceChildrenSql()) {
      if (seen.updates && winners.some((w) => w.lawsuit[flag])) await wh.run(del);
      if (winners.some((w) => w[table].length > 0)) await wh.run(ins);
    }
    if (counts.steps > 0) {
      if (seen.updates || seen.losers) for (const sql of MERGE_STEPS_SQL) await wh.run(sql);
      else await wh.run(INSERT_NEW_STEPS_SQL);
    }
    if (hits.size > 0) await wh.run(INSERT_HITS_SQL);
  }
  return counts;
}

const versionOf = (f: FlatLawsuit): number[] =>
  [timeOf(f.lawsuit.crawled_at), timeOf(f.lawsuit.updated_at), timeOf(f.lawsuit.response_created_at)];

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/**
 * One entry per lawsuit in a batch (a cached answer and a fresh one may both be there): the newest crawl wins,
 * a tie goes to the later item. Steps are the union of every copy, the winner's version of a step prevailing.
 */
export function dedupeByLawsuit(entries: ReadonlyArray<{ flat: FlatLawsuit; order: number }>): FlatLawsuit[] {
  const groups = new Map<string, Array<{ flat: FlatLawsuit; order: number }>>();
  for (const e of entries) {
    const k = `${e.flat.lawsuit.code}\u0000${e.flat.lawsuit.instance}`;
    const g = groups.get(k);
    if (g) g.push(e); else groups.set(k, [e]);
  }
  const out: FlatLawsuit[] = [];
  for (const g of groups.values()) {
    if (g.length === 1) { out.push(g[0].flat); continue; }
    g.sort((a, b) => compareVersions(versionOf(a.flat), versionOf(b.flat)) || a.order - b.order);
    const steps = new Map<string, StepRow>();
    for (const { flat } of g) for (const s of flat.steps) steps.set(s.step_id, s);
    const winner = g[g.length - 1].flat;
    const anySteps = g.some((e) => e.flat.lawsuit.has_steps);
    out.push({ ...winner, lawsuit: { ...winner.lawsuit, has_steps: anySteps }, steps: [...steps.values()] });
  }
  return out;
}
