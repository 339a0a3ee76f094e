// When two searches are the same search. The keys of documents, CNJ numbers, OAB registrations and lawsuit ids
// already have one normal form each (the parsers give it); a name does not: "Ricardo Medeiros Viana",
// "ricardo medeiros viana" and "RICARDO  MEDEIROS VIANA" are written three ways and found alike, since the
// provider matches names without regard to case, accents or spacing. Each spelling bought once would cost
// three searches for the same lawsuits (measured: 3 searches, 2 lawsuits). So a name is folded for identity
// only — the list's duplicates, the plan, the ledger's history — and the search itself still sends the name
// as the list first wrote it.
//
// What a search asks besides its key is part of it too: its filters (`search_params.filter`), the credential it
// uses and `masked_response` choose which lawsuits come back and how whole, and `with_attachments` what a
// lawsuit_cnj search brings. One document with two filter sets is two searches; one filter set written two ways
// (tribunals in another order or case, 150000 or 150000.00, a date or its midnight) is one. A search that asks
// nothing besides keeps the identity it always had, so a warehouse made before filters existed knows its
// searches as it did (and buys none of them again).
import { tribunalAcronym } from './tribunals.js';
import type { Filter, Search, SearchParams } from './types.js';

// Combining diacritical marks: what NFD splits off "José", "Conceição", "Müller".
const MARKS = /[\u0300-\u036f]/g;

/** A name's identity: letters without accents, lower case, one space between words, no space at the ends. */
export function foldName(name: string): string {
  return name.normalize('NFD').replace(MARKS, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * A search key's identity for its type: a name folded (foldName); any other key is its normal form already
 * (the documents list's parsers gave it) and is its own identity.
 */
function keyIdentity(searchType: SearchType | string, key: string): string {
  return searchType === 'name' ? foldName(key) : key;
}

type SearchType = Search['search_type'];
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const SIDES = ['Active', 'Passive', 'Interested', 'Unknown'];

/** A filter's side in its documented spelling, whatever its case; another value as given (its own identity). */
function side(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  return SIDES.find((s) => s.toLowerCase() === v.trim().toLowerCase()) ?? v.trim();
}

/** A number, or a number written as text (an upstream's echo may quote it): its shortest form. */
function amount(v: unknown): number | string | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (Number.isFinite(n)) return n;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** A date bound: a date and the date-time of its midnight (UTC) are one; any other instant as ISO text. */
function dateBound(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const ms = Date.parse(v.trim());
  if (Number.isNaN(ms)) return v.trim();
  const iso = new Date(ms).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

/** A list of codes or acronyms as a sorted set, each in its normal form; undefined when empty. */
function codeSet(v: unknown, normal: (s: string) => string): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const set = new Set(v.filter((x) => typeof x === 'string' || typeof x === 'number').map((x) => normal(String(x).trim())).filter((x) => x !== ''));
  return set.size === 0 ? undefined : [...set].sort();
}

const code = (s: string): string => s.replace(/^0+(?=\d)/, '').toUpperCase();
const tribunal = (s: string): string => tribunalAcronym(s) ?? s.toUpperCase();

/** `{keys, not_equal}` (and a subject filter's `contains` / `not_contains`, `conteins` as one example spells it) as included and excluded sets. */
function includeExclude(v: unknown, normal: (s: string) => string): { in?: string[]; out?: string[] } | undefined {
  if (!isObj(v)) return undefined;
  const keys = Array.isArray(v.keys) ? v.keys : [];
  const include = v.not_equal === true ? [] : keys;
  const exclude = v.not_equal === true ? keys : [];
  const listOf = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
  const r = {
    in: codeSet([...include, ...listOf(v.contains), ...listOf(v.conteins)], normal),
    out: codeSet([...exclude, ...listOf(v.not_contains)], normal),
  };
  return r.in === undefined && r.out === undefined ? undefined : r;
}

/** The filter's canonical form: each field in its normal form, in a fixed order; undefined when it filters nothing. */
function filterIdentity(f: Filter | undefined): Obj | undefined {
  if (!isObj(f)) return undefined;
  const out: Obj = {
    side: side(f.side),
    amount_gte: amount(f.amount_gte),
    amount_lte: amount(f.amount_lte),
    tribunals: includeExclude(f.tribunals, tribunal),
    subject_codes: includeExclude(f.subject_codes, code),
    classification_codes: includeExclude(f.classification_codes, code),
    distribution_date_gte: dateBound(f.distribution_date_gte),
    distribution_date_lte: dateBound(f.distribution_date_lte),
    last_step_date_gte: dateBound(f.last_step_date_gte),
    last_step_date_lte: dateBound(f.last_step_date_lte),
    party_names: codeSet(f.party_names, foldName),
    party_documents: codeSet(f.party_documents, (d) => d.replace(/[\s./-]/g, '').toUpperCase()),
  };
  const set = Object.entries(out).filter(([, v]) => v !== undefined);
  return set.length === 0 ? undefined : Object.fromEntries(set);
}

/** Whether two filters, each as sent or as an upstream echoed it, ask the same (an empty filter asks nothing). */
export function sameFilter(a: Filter | undefined, b: Filter | undefined): boolean {
  return JSON.stringify(filterIdentity(a) ?? null) === JSON.stringify(filterIdentity(b) ?? null);
}

/**
 * What a search asks besides its type, key, on_demand and instance, as canonical text: its filter, its credential,
 * masked_response; '' when it asks nothing else: a part of the search's identity (a tracking's is its search's too).
 */
function paramsIdentity(params: SearchParams | undefined): string {
  if (!isObj(params)) return '';
  const credential = isObj(params.credential) && typeof params.credential.customer_key === 'string' ? params.credential.customer_key : undefined;
  const parts: Obj = {
    filter: filterIdentity(params.filter),
    customer_key: credential,
    masked_response: typeof params.masked_response === 'boolean' ? params.masked_response : undefined,
  };
  const set = Object.entries(parts).filter(([, v]) => v !== undefined);
  return set.length === 0 ? '' : JSON.stringify(Object.fromEntries(set));
}

/**
 * A search's identity: its type, its key's identity, where it reads (the provider's database or the courts, on
 * demand) and its instance — the form the ledger has always kept (`cpf|09206529722|db|*`) — followed, when it asks
 * more, by its params' identity and `with_attachments` (the top level of the request's body). The ledger, the
 * plan, the list's duplicates and the submission intents key searches by it.
 */
export function searchIdentity(search: Search, opts: { withAttachments?: boolean } = {}): string {
  const base = [search.search_type, keyIdentity(search.search_type, search.search_key), search.on_demand ? 'od' : 'db', search.search_params?.lawsuit_instance ?? '*'].join('|');
  const params = paramsIdentity(search.search_params);
  const more = [params, opts.withAttachments ? 'with_attachments' : ''].filter((p) => p !== '');
  return more.length === 0 ? base : `${base}|${more.join('|')}`;
}
