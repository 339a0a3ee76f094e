// Validation of a search object (POST /requests, /_sandbox/truth): every problem is collected and reported
// at once in the 400 body's `data`; a CNJ number with a wrong check digit alone earns a 422 (REFERENCE.md).

import { cnpjCheckDigits, cpfCheckDigits, isValidCnj } from './check-digits.js';
import { normalizeDocument, normalizeName, normalizeOab } from './text.js';

export const SEARCH_TYPES = ['cpf', 'cnpj', 'oab', 'name', 'lawsuit_cnj', 'lawsuit_id'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
const SIDE_VALUES = ['Passive', 'Active', 'Interested', 'Unknown'];

export interface IncludeExclude { include: string[]; exclude: string[] }

export interface NormalizedFilter {
  side?: string;
  distributionGte?: number;
  distributionLte?: number;
  amountGte?: number;
  amountLte?: number;
  tribunals?: IncludeExclude;
  subjects?: IncludeExclude;
  classes?: IncludeExclude;
  lastStepGte?: number;
  lastStepLte?: number;
  partyNames?: string[];
  partyDocuments?: string[];
}

export interface NormalizedSearch {
  type: SearchType;
  /** Key in the form lookups use: digits (CNPJ letters upper case), normalised OAB, normalised name. */
  key: string;
  onDemand: boolean;
  cacheTtlDays?: number;
  instance?: number;
  customerKey?: string;
  filter: NormalizedFilter;
  /** The search as it is echoed in the Request object. */
  echo: Record<string, unknown>;
  /**
   * What the request asked that the sandbox does not act on (docs/sandbox.md, "What a search asks"), each a field
   * path and why: shown on the request (`sandbox_ignored`), so that a test or a user sees it was not honoured.
   */
  ignored?: string[];
}

type Validation = { ok: true; search: NormalizedSearch } | { ok: false; status: 400 | 422; reasons: string[] };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

const DAY_MS = 86_400_000;

/**
 * A date bound. A date without a time (`2024-12-31`) is a whole day: a lower bound from its first instant, an upper
 * one to its last, so that `_lte` of a day keeps what happened on it (docs/dialect-and-spec-gaps.md, "Spec gaps").
 */
function dateMs(v: unknown, field: string, reasons: string[], upper = false): number | undefined {
  if (v === undefined) return undefined;
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) reasons.push(`${field} must be an ISO 8601 date-time`);
  return upper && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v.trim()) ? ms + DAY_MS - 1 : ms;
}

// distribution_date_lte is not in the spec's filter table; the provider documents `distribution_date_gte/_lte`
// (REFERENCE.md, "Two levels"), and both dialects take it.
const FILTER_KEYS = ['side', 'distribution_date_gte', 'distribution_date_lte', 'amount_gte', 'amount_lte', 'tribunals', 'subject_codes', 'classification_codes',
  'last_step_date_gte', 'last_step_date_lte', 'party_names', 'party_documents'];

/** The validation convention (docs/dialect-and-spec-gaps.md, "Spec gaps"): a filter key the spec does not name is a 400, not ignored. */
function unknownKeys(v: Record<string, unknown>, known: readonly string[], field: string, reasons: string[]): void {
  const unknown = Object.keys(v).filter((k) => !known.includes(k));
  if (unknown.length) reasons.push(`${field}: unknown key(s) ${unknown.join(', ')} (known: ${known.join(', ')})`);
}

function includeExclude(v: unknown, field: string, reasons: string[], subjects = false): IncludeExclude | undefined {
  if (v === undefined) return undefined;
  if (!isObj(v)) { reasons.push(`${field} must be an object`); return undefined; }
  unknownKeys(v, subjects ? ['keys', 'not_equal', 'contains', 'conteins', 'not_contains'] : ['keys', 'not_equal'], field, reasons);
  const out: IncludeExclude = { include: [], exclude: [] };
  const list = (x: unknown, name: string): string[] => {
    if (x === undefined) return [];
    if (!Array.isArray(x) || !x.every((y) => typeof y === 'string' || typeof y === 'number')) { reasons.push(`${field}.${name} must be a list of codes`); return []; }
    return x.map((y) => String(y).toUpperCase());
  };
  if (v.not_equal !== undefined && typeof v.not_equal !== 'boolean') reasons.push(`${field}.not_equal must be a boolean`);
  const keys = list(v.keys, 'keys');
  if (v.not_equal === true) out.exclude.push(...keys); else out.include.push(...keys);
  if (subjects) {
    // Both spellings of the spec are accepted: contains/not_contains and keys/not_equal, plus `conteins`.
    out.include.push(...list(v.contains, 'contains'), ...list(v.conteins, 'conteins'));
    out.exclude.push(...list(v.not_contains, 'not_contains'));
  }
  return out;
}

function filterOf(v: unknown, reasons: string[]): NormalizedFilter {
  if (v === undefined) return {};
  if (!isObj(v)) { reasons.push('search_params.filter must be an object'); return {}; }
  const f: NormalizedFilter = {};
  const p = 'search_params.filter';
  unknownKeys(v, FILTER_KEYS, p, reasons);
  if (v.side !== undefined) {
    if (typeof v.side !== 'string' || !SIDE_VALUES.includes(v.side)) reasons.push(`${p}.side must be one of ${SIDE_VALUES.join(', ')}`);
    else f.side = v.side;
  }
  f.distributionGte = dateMs(v.distribution_date_gte, `${p}.distribution_date_gte`, reasons);
  f.distributionLte = dateMs(v.distribution_date_lte, `${p}.distribution_date_lte`, reasons, true);
  f.lastStepGte = dateMs(v.last_step_date_gte, `${p}.last_step_date_gte`, reasons);
  f.lastStepLte = dateMs(v.last_step_date_lte, `${p}.last_step_date_lte`, reasons, true);
  for (const k of ['amount_gte', 'amount_lte'] as const) {
    if (v[k] !== undefined && (typeof v[k] !== 'number' || !Number.isFinite(v[k]))) reasons.push(`${p}.${k} must be a number`);
  }
  if (typeof v.amount_gte === 'number') f.amountGte = v.amount_gte;
  if (typeof v.amount_lte === 'number') f.amountLte = v.amount_lte;
  f.tribunals = includeExclude(v.tribunals, `${p}.tribunals`, reasons);
  f.subjects = includeExclude(v.subject_codes, `${p}.subject_codes`, reasons, true);
  f.classes = includeExclude(v.classification_codes, `${p}.classification_codes`, reasons);
  if (v.party_names !== undefined) {
    if (!isStrList(v.party_names)) reasons.push(`${p}.party_names must be a list of strings`);
    else f.partyNames = v.party_names.map(normalizeName);
  }
  if (v.party_documents !== undefined) {
    if (!isStrList(v.party_documents)) reasons.push(`${p}.party_documents must be a list of strings`);
    else f.partyDocuments = v.party_documents.map((d) => normalizeOab(d) ?? normalizeDocument(d));
  }
  return f;
}

function keyOf(type: SearchType, raw: string, reasons: string[]): { key: string; cnjDigitWrong?: boolean } {
  switch (type) {
    case 'cpf': {
      const d = normalizeDocument(raw);
      if (!/^\d{11}$/.test(d) || /^(\d)\1{10}$/.test(d) || cpfCheckDigits(d.slice(0, 9)) !== d.slice(9)) reasons.push('search_key is not a valid CPF');
      return { key: d };
    }
    case 'cnpj': {
      const d = normalizeDocument(raw);
      if (!/^[0-9A-Z]{12}\d{2}$/.test(d) || cnpjCheckDigits(d.slice(0, 12)) !== d.slice(12)) reasons.push('search_key is not a valid CNPJ');
      return { key: d };
    }
    case 'oab': {
      const o = normalizeOab(raw);
      if (!o) reasons.push('search_key is not an OAB number (e.g. 123456SP)');
      return { key: o ?? '' };
    }
    case 'name': {
      const n = normalizeName(raw);
      if (n.length < 3) reasons.push('search_key must be a name of at least 3 characters');
      return { key: n };
    }
    case 'lawsuit_cnj': {
      const d = raw.replace(/\D/g, '');
      if (d.length !== 20 || !/^[\d.\-\s]+$/.test(raw.trim())) { reasons.push('search_key is not a CNJ number (NNNNNNN-DD.AAAA.J.TR.OOOO)'); return { key: d }; }
      if (!isValidCnj(d)) { reasons.push('search_key has a wrong CNJ check digit'); return { key: d, cnjDigitWrong: true }; }
      return { key: d };
    }
    case 'lawsuit_id': {
      const id = raw.trim().toLowerCase();
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) reasons.push('search_key is not a lawsuit id (UUID)');
      return { key: id };
    }
  }
}

/**
 * What a valid search asks that the sandbox answers alike either way: `masked_response` (the sandbox has one form
 * of document search, the complete one), `with_attachments` (it sends what attachments it has, asked or not), and
 * a `side` on a search by number (no searched party stands on a side).
 */
function ignoredOf(body: Record<string, unknown>, type: SearchType, params: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (params.masked_response !== undefined) out.push('search.search_params.masked_response: one form of document search, the complete one');
  if (body.with_attachments === true) out.push('with_attachments: a lawsuit carries the attachments it has, asked or not');
  const filter = isObj(params.filter) ? params.filter : {};
  if (filter.side !== undefined && (type === 'lawsuit_cnj' || type === 'lawsuit_id')) out.push('search.search_params.filter.side: a search by number has no searched party');
  return out;
}

/** Validates the `{search: {...}}` body of POST /requests. */
export function validateSearchBody(body: unknown): Validation {
  const reasons: string[] = [];
  if (!isObj(body) || !isObj(body.search)) return { ok: false, status: 400, reasons: ['body must be an object with a `search` object'] };
  const s = body.search;
  const type = s.search_type;
  if (typeof type !== 'string' || !(SEARCH_TYPES as readonly string[]).includes(type)) reasons.push(`search.search_type must be one of ${SEARCH_TYPES.join(', ')}`);
  if (typeof s.search_key !== 'string' || s.search_key.trim() === '') reasons.push('search.search_key is required (a non-empty string)');
  if (s.on_demand !== undefined && typeof s.on_demand !== 'boolean') reasons.push('search.on_demand must be a boolean');
  if (s.response_type !== undefined && typeof s.response_type !== 'string') reasons.push('search.response_type must be a string');
  if (s.cache_ttl_in_days !== undefined && (!Number.isInteger(s.cache_ttl_in_days) || (s.cache_ttl_in_days as number) < 0)) reasons.push('search.cache_ttl_in_days must be a non-negative integer');
  const sp = s.search_params;
  if (sp !== undefined && !isObj(sp)) reasons.push('search.search_params must be an object');
  const params = isObj(sp) ? sp : {};
  if (params.lawsuit_instance !== undefined && (!Number.isInteger(params.lawsuit_instance) || (params.lawsuit_instance as number) < 1)) reasons.push('search_params.lawsuit_instance must be a positive integer');
  if (params.masked_response !== undefined && typeof params.masked_response !== 'boolean') reasons.push('search_params.masked_response must be a boolean');
  let customerKey: string | undefined;
  if (params.credential !== undefined) {
    if (!isObj(params.credential) || typeof params.credential.customer_key !== 'string') reasons.push('search_params.credential must be {customer_key: string}');
    else customerKey = params.credential.customer_key;
  }
  if (body.with_attachments !== undefined && typeof body.with_attachments !== 'boolean') reasons.push('with_attachments must be a boolean');
  const filter = filterOf(params.filter, reasons);
  let key = '';
  let cnjDigitWrong = false;
  if (reasons.length === 0) ({ key, cnjDigitWrong = false } = keyOf(type as SearchType, s.search_key as string, reasons));
  if (reasons.length > 0) return { ok: false, status: cnjDigitWrong && reasons.length === 1 ? 422 : 400, reasons };
  const echoParams: Record<string, unknown> = { ...params, filter: isObj(params.filter) ? params.filter : {}, pagination: {} };
  return {
    ok: true,
    search: {
      type: type as SearchType, key, onDemand: s.on_demand === true,
      cacheTtlDays: s.cache_ttl_in_days as number | undefined,
      instance: params.lawsuit_instance as number | undefined,
      customerKey, filter,
      echo: { ...s, response_type: 'lawsuit', search_params: echoParams },
      ignored: ignoredOf(body, type as SearchType, params),
    },
  };
}
