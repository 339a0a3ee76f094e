import { createHash } from 'node:crypto';
import type { SyncQuery, TrueFalseQuery } from '../api/lawsuits.js';
import type { GroupedResult, Lawsuit, ResponseItem } from '../spec/types.js';
import type { DocumentSpec, DocumentsList } from '../input/documents.js';
import { isEtlError } from '../shared/errors.js';
import { stageStatusFor } from '../shared/failure-policy.js';
import { loadResponseItems } from '../warehouse/load.js';
import { upsertJsonRows } from '../warehouse/upsert-json.js';
import { documentFailure, type DocumentFailure } from './document-failure.js';
import type { RunContext } from './context.js';
import { searchFor } from './plan.js';

// `lawsuit-etl query`: one synchronous call per document, all under the client's shared limiter (which paces
// them), each answer stored with the run and the time it arrived. A run is one night's snapshot; the tables
// are keyed by run, so the nights stack up and the history views compare them.

export type QueryKind = 'exists' | 'count' | 'grouped' | 'historical';
export const QUERY_KINDS: readonly QueryKind[] = ['exists', 'count', 'grouped', 'historical'];
/**
 * Other names of a kind. The spec names an existence check and a true/false check among the synchronous
 * queries but shows one endpoint for both (POST /requests/create, answering has_lawsuits), and the contract
 * lists both names: `true-false` runs `exists`, into the same table.
 */
export const QUERY_KIND_ALIASES: Readonly<Record<string, QueryKind>> = { 'true-false': 'exists' };

/** The kind a name given on the command line stands for, or undefined for an unknown name. */
export function queryKindOf(name: string): QueryKind | undefined {
  return (QUERY_KINDS as readonly string[]).includes(name) ? (name as QueryKind) : QUERY_KIND_ALIASES[name];
}

interface QueryResult {
  documents: number;
  ok: number;
  failures: DocumentFailure[];
}

interface QueryOptions {
  /** Documents answered, then written, per batch (one set-based statement per table). Default 200. */
  batchSize?: number;
  /** Time stamped on each answer. Default: the machine's clock when the answer arrived. */
  now?: () => Date;
}

const DOC_COLUMNS = [['run_id', 'VARCHAR'], ['queried_at', 'TIMESTAMPTZ'], ['search_type', 'VARCHAR'], ['search_key', 'VARCHAR'], ['document_line', 'INTEGER']] as const;
const KEY = ['run_id', 'search_type', 'search_key'];
const TABLES = {
  count: { table: 'sync_counts', columns: [...DOC_COLUMNS, ['total', 'INTEGER']], key: KEY },
  exists: { table: 'sync_exists', columns: [...DOC_COLUMNS, ['has_lawsuits', 'BOOLEAN'], ['request_id', 'VARCHAR']], key: KEY },
  grouped: { table: 'sync_grouped', columns: [...DOC_COLUMNS, ['dimension', 'VARCHAR'], ['value', 'VARCHAR'], ['count', 'INTEGER']], key: [...KEY, 'dimension', 'value'] },
  historical: { table: 'sync_historical', columns: [...DOC_COLUMNS, ['has_lawsuits', 'BOOLEAN'], ['request_id', 'VARCHAR'], ['lawsuits', 'INTEGER']], key: KEY },
} as const;

/** The body of the synchronous endpoints for one document (datalake: no on_demand, no cache). */
function syncQueryFor(doc: DocumentSpec, processStatus = false): SyncQuery {
  const s = searchFor(doc);
  const q: SyncQuery = { search: { search_type: s.search_type, search_key: s.search_key, response_type: 'lawsuit' } };
  if (doc.lawsuitInstance !== undefined) q.search.search_params = { lawsuit_instance: doc.lawsuitInstance };
  if (processStatus) q.process_status = true;
  return q;
}

function trueFalseQueryFor(doc: DocumentSpec): TrueFalseQuery {
  const params: TrueFalseQuery['search']['search_params'] = {};
  if (doc.lawsuitInstance !== undefined) params.lawsuit_instance = doc.lawsuitInstance;
  return { search: { search_type: doc.searchType, search_key: doc.searchKey, search_params: params } };
}

/** Pure: a grouped answer in long form, with its total as the dimension 'lawsuits_count'. */
function groupedRows(g: GroupedResult): Array<{ dimension: string; value: string; count: number }> {
  const out = new Map<string, { dimension: string; value: string; count: number }>();
  for (const [dimension, list] of Object.entries(g)) {
    if (!Array.isArray(list)) continue;
    for (const e of list as Array<{ value?: unknown; count?: unknown }>) {
      if (typeof e?.count !== 'number' || e.value === undefined || e.value === null) continue;
      const value = String(e.value);
      const k = `${dimension}\u0000${value}`;
      // A value listed twice is summed rather than dropped: the key must stay unique.
      const prev = out.get(k);
      out.set(k, { dimension, value, count: (prev?.count ?? 0) + e.count });
    }
  }
  const rows = [...out.values()];
  if (typeof g.lawsuits_count === 'number') rows.push({ dimension: 'lawsuits_count', value: '', count: g.lawsuits_count });
  return rows;
}

/**
 * A deterministic response id (UUID version 5 layout over SHA-1) for a lawsuit a historical query returned:
 * the same run, document and lawsuit give the same id, so running a night again loads nothing twice.
 */
function historicalResponseId(runId: string, doc: Pick<DocumentSpec, 'searchType' | 'searchKey'>, code: string, instance: unknown): string {
  const h = createHash('sha1').update(['historical', runId, doc.searchType, doc.searchKey, code, String(instance)].join('\u0000')).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

interface Answer { rows: object[]; items: ResponseItem[] }

async function ask(ctx: RunContext, kind: QueryKind, doc: DocumentSpec, now: () => Date): Promise<Answer> {
  const base = { run_id: ctx.runId, search_type: doc.searchType, search_key: doc.searchKey, document_line: doc.line };
  switch (kind) {
    case 'count': {
      const r = await ctx.api.lawsuits.count(syncQueryFor(doc));
      const queriedAt = now().toISOString();
      return { rows: [{ ...base, queried_at: queriedAt, total: r.total }], items: [] };
    }
    case 'exists': {
      const r = await ctx.api.lawsuits.exists(trueFalseQueryFor(doc));
      const queriedAt = now().toISOString();
      return { rows: [{ ...base, queried_at: queriedAt, has_lawsuits: r.has_lawsuits, request_id: r.request_id ?? null }], items: [] };
    }
    case 'grouped': {
      const r = await ctx.api.lawsuits.grouped(syncQueryFor(doc));
      const queriedAt = now().toISOString();
      return { rows: groupedRows(r).map((g) => ({ ...base, queried_at: queriedAt, ...g })), items: [] };
    }
    case 'historical': {
      const r = await ctx.api.lawsuits.historical(syncQueryFor(doc, true));
      const queriedAt = now().toISOString();
      const items = r.response_data.map((l: Lawsuit): ResponseItem => ({
        request_id: r.request_id,
        response_id: historicalResponseId(ctx.runId, doc, l.code, l.instance),
        response_type: 'lawsuit',
        response_data: l,
        created_at: queriedAt,
        tags: { cached_response: false, sync_query: 'historical' },
      }));
      return {
        items,
        rows: [{ ...base, queried_at: queriedAt, has_lawsuits: r.has_lawsuits, request_id: r.request_id ?? null, lawsuits: r.response_data.length }],
      };
    }
  }
}

/**
 * Runs one kind of synchronous query for every document of the list. A document's failure is recorded and the
 * others go on; an authentication refusal (exit code 3) stops the whole command, since every call would meet it.
 */
export async function runQueries(ctx: RunContext, list: DocumentsList, kind: QueryKind, opts: QueryOptions = {}): Promise<QueryResult> {
  const { table, columns, key } = TABLES[kind];
  const batchSize = Math.max(1, opts.batchSize ?? 200);
  const now = opts.now ?? (() => new Date());
  const docs = list.documents;
  const result: QueryResult = { documents: docs.length, ok: 0, failures: [] };
  ctx.progress?.('documents', 'total', docs.length);
  for (let i = 0; i < docs.length && !ctx.signal.aborted; i += batchSize) {
    const batch = docs.slice(i, i + batchSize);
    const settled = await Promise.allSettled(batch.map((doc) => ask(ctx, kind, doc, now).finally(() => ctx.progress?.('documents', 'tick', 1))));
    const answers: Answer[] = [];
    settled.forEach((s, n) => {
      if (s.status === 'fulfilled') { answers.push(s.value); return; }
      // The key or the resource refused: every other call would meet it too.
      if (isEtlError(s.reason) && stageStatusFor(s.reason) === 'refused') throw s.reason;
      const f = documentFailure(batch[n], s.reason, 'SYNC_UNEXPECTED');
      result.failures.push(f);
      ctx.log.warn({ line: f.line, search_type: f.searchType, code: f.code }, `synchronous ${kind} query failed: ${f.reason}`);
    });
    // The lawsuits and the per-document rows of a batch are committed together.
    await ctx.wh.transaction(async () => {
      const items = answers.flatMap((a) => a.items);
      if (items.length > 0) await loadResponseItems(ctx.wh, items, { runId: ctx.runId, source: 'historical' });
      await upsertJsonRows(ctx.wh, table, columns, key, answers.flatMap((a) => a.rows), ['queried_at']);
    });
    result.ok += answers.length;
  }
  return result;
}
