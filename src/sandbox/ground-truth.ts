// Ground truth for end-to-end tests (POST /_sandbox/truth with `documents` and `cnj`): for a list of documents and
// CNJ numbers, every lawsuit they find whole, as a lawsuit-level read made at the same instant would answer it.
// A warehouse a night made from headers and lawsuit-level reads must equal it. The rules are a real read's, taken
// from where the API takes them: the database view or the courts (`on_demand`), the credential that lifts secrecy,
// the documented dialect's 403 for a secret lawsuit searched by number (secret-search.ts), the application_error
// items of levels.ts and the `lawsuit_unavailable` fault; a lawsuit such a read would not give is listed as
// unavailable, with the reason the read would give.

import type { SandboxState } from './context.js';
import { answerOf } from './levels.js';
import { runSearch, type Hit } from './search.js';
import { validateSearchBody, type NormalizedSearch } from './search-validation.js';
import { refusedAsSecret } from './secret-search.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the ground truth is asked for: searches by document or name, and lawsuit-level reads (by number or id). */
interface TruthQuery {
  documents: NormalizedSearch[];
  numbers: NormalizedSearch[];
  onDemand: boolean;
}

/** Whether a body asks for the ground truth (`documents`, `cnj`) rather than one search's hits. */
export function asksGroundTruth(body: unknown): boolean {
  return isObj(body) && (body.documents !== undefined || body.cnj !== undefined);
}

/**
 * The query of a body `{documents?: [search], cnj?: [number], on_demand?: boolean, customer_key?: string}`: each
 * document a search object as POST /requests takes it; `on_demand` and `customer_key` apply to every search and read.
 */
export function parseTruthQuery(body: Record<string, unknown>, reasons: string[]): TruthQuery {
  const onDemand = body.on_demand === true;
  if (body.on_demand !== undefined && typeof body.on_demand !== 'boolean') reasons.push('on_demand must be a boolean');
  const key = body.customer_key;
  if (key !== undefined && typeof key !== 'string') reasons.push('customer_key must be a string');
  const search = (s: Record<string, unknown>, field: string): NormalizedSearch | undefined => {
    const params = isObj(s.search_params) ? s.search_params : {};
    const v = validateSearchBody({ search: { ...s, on_demand: onDemand, search_params: typeof key === 'string' ? { ...params, credential: { customer_key: key } } : params } });
    if (!v.ok) reasons.push(...v.reasons.map((r) => `${field}: ${r}`));
    return v.ok ? v.search : undefined;
  };
  const list = (name: string): unknown[] => {
    const v = body[name] ?? [];
    if (!Array.isArray(v)) { reasons.push(`${name} must be a list`); return []; }
    return v;
  };
  const documents = list('documents').flatMap((d, k) => {
    if (!isObj(d)) { reasons.push(`documents[${k}] must be a search object {search_type, search_key}`); return []; }
    const s = search(d, `documents[${k}]`);
    return s ? [s] : [];
  });
  const numbers = list('cnj').flatMap((n, k) => {
    if (typeof n !== 'string') { reasons.push(`cnj[${k}] must be a CNJ number (a string)`); return []; }
    const s = search({ search_type: 'lawsuit_cnj', search_key: n }, `cnj[${k}]`);
    return s ? [s] : [];
  });
  return { documents, numbers, onDemand };
}

interface LawsuitKey { code: string; instance: number }
interface Unavailable { code: string; instance: number | null; status: 200 | 403; reason: string }

/** The lawsuit_cnj read of a number found by a search, with that search's observation rule and credential. */
function numberRead(code: string, like: NormalizedSearch): NormalizedSearch {
  const key = code.replace(/\D/g, '');
  return { type: 'lawsuit_cnj', key, onDemand: like.onDemand, customerKey: like.customerKey, filter: {}, echo: { search_type: 'lawsuit_cnj', search_key: code } };
}

/** What a lawsuit-level read of this search at `at` answers: its hits in its order, or why it gives none of them. */
function read(state: SandboxState, s: NormalizedSearch, at: number): { hits: Hit[]; refusal?: { status: 200 | 403; reason: string } } {
  const found = runSearch(state.universe, s, at);
  if (refusedAsSecret(state, s, at)) return { hits: found, refusal: { status: 403, reason: 'SECRET_LAWSUIT_WITHOUT_CREDENTIAL' } };
  const { hits, error } = answerOf(state.dialect.levels, s, found, (code) => state.faults.unavailableLawsuit(code));
  return error ? { hits: found, refusal: { status: 200, reason: error.message } } : { hits };
}

const keyOf = (h: LawsuitKey) => `${h.code}#${h.instance}`;
const keys = (hits: readonly Hit[]): LawsuitKey[] => hits.map(({ code, instance }) => ({ code, instance }));

/** The ground truth at `at`: each search's lawsuits, every lawsuit whole once, and those a read would not give. */
export function groundTruth(state: SandboxState, q: TruthQuery, at: number) {
  const { universe, dialect, options } = state;
  const lawsuits: Record<string, unknown>[] = [];
  const unavailable: Unavailable[] = [];
  const done = new Set<string>();
  /** Reads `s` and keeps the instances `wanted` keeps (every one for a read by number); gives the read's hits. */
  const take = (s: NormalizedSearch, wanted: (h: Hit) => boolean): Hit[] => {
    const { hits, refusal } = read(state, s, at);
    const privileged = s.customerKey !== undefined && options.credentialKeys.includes(s.customerKey);
    if (refusal && hits.length === 0) unavailable.push({ code: String(s.echo.search_key), instance: null, ...refusal });
    for (const h of hits.filter(wanted)) {
      if (done.has(keyOf(h))) continue;
      done.add(keyOf(h));
      if (refusal) unavailable.push({ code: h.code, instance: h.instance, ...refusal });
      else lawsuits.push(universe.lawsuit(h.index, at, { onDemand: s.onDemand, shape: 'full', privileged, levels: dialect.levels })!);
    }
    return hits;
  };
  const documents = q.documents.map((d) => {
    const hits = runSearch(universe, d, at);
    const mine = new Set(hits.map(keyOf));
    for (const code of new Set(hits.map((h) => h.code))) take(numberRead(code, d), (h) => mine.has(keyOf(h)));
    return { search_type: d.type, search_key: d.echo.search_key, lawsuits: keys(hits) };
  });
  const numbers = q.numbers.map((n) => ({ search_key: n.echo.search_key, lawsuits: keys(take(n, () => true)) }));
  return {
    at: new Date(at).toISOString(), dialect: dialect.name, on_demand: q.onDemand,
    documents, cnj: numbers, lawsuits, unavailable, count: lawsuits.length,
  };
}
