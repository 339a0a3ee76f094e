// GET /requests' filters. The spec names one, `status`; the provider's documentation names more (REFERENCE.md:
// creation-date bounds, origin, origin_id, search_type, search_key, lawsuit_instance), which the documented
// dialect honours. Which are read is the dialect's `requestFilters`; a name outside it is an unknown parameter.
// `search_key` matches the stored key in the form lookups use (punctuation and case ignored, OAB normalised).

import { listParam, type SandboxState } from './context.js';
import { dateParam } from './listing-params.js';
import { REQUEST_STATUSES, type StoredRequest } from './request-store.js';
import { SEARCH_TYPES, type SearchType } from './search-validation.js';
import { showableStatuses } from './shown-status.js';
import { normalizeDocument, normalizeName, normalizeOab } from './text.js';

type RequestMatcher = (r: StoredRequest, shownStatus: string) => boolean;

const ORIGINS = ['api', 'tracking'];

/** A search key in the form lookups use, so that `12.345.678/0001-90` and `12345678000190` are one key. */
export function keyForm(type: SearchType, raw: string): string {
  switch (type) {
    case 'cpf': case 'cnpj': return normalizeDocument(raw);
    case 'oab': return normalizeOab(raw) ?? raw.trim().toUpperCase();
    case 'name': return normalizeName(raw);
    case 'lawsuit_cnj': return raw.replace(/\D/g, '');
    case 'lawsuit_id': return raw.trim().toLowerCase();
  }
}

/** Reads the dialect's filters, collecting problems in `reasons`; the matcher keeps the requests they select. */
export function requestFilters(state: SandboxState, url: URL, reasons: string[]): RequestMatcher {
  const honoured = (name: string) => state.dialect.requestFilters.includes(name);
  const tests: RequestMatcher[] = [];
  const shownAll = showableStatuses(state, REQUEST_STATUSES);
  const statuses = honoured('status') ? listParam(url, 'status') : [];
  for (const s of statuses) if (!shownAll.includes(s)) reasons.push(`status must be among ${shownAll.join(', ')} (got ${JSON.stringify(s).slice(0, 40)})`);
  if (statuses.length) tests.push((_r, shown) => statuses.includes(shown));

  const gte = honoured('created_at_gte') ? dateParam(url, 'created_at_gte', reasons) : undefined;
  const lte = honoured('created_at_lte') ? dateParam(url, 'created_at_lte', reasons) : undefined;
  if (gte !== undefined) tests.push((r) => r.createdMs >= gte);
  if (lte !== undefined) tests.push((r) => r.createdMs <= lte);

  const origins = honoured('origin') ? listParam(url, 'origin') : [];
  for (const o of origins) if (!ORIGINS.includes(o)) reasons.push(`origin must be among ${ORIGINS.join(', ')} (got ${JSON.stringify(o).slice(0, 40)})`);
  if (origins.length) tests.push((r) => origins.includes(state.store.originOf(r)));
  const originId = honoured('origin_id') ? url.searchParams.get('origin_id') : null;
  if (originId !== null) tests.push((r) => state.store.originIdOf(r) === originId);

  const types = honoured('search_type') ? listParam(url, 'search_type') : [];
  for (const t of types) if (!(SEARCH_TYPES as readonly string[]).includes(t)) reasons.push(`search_type must be among ${SEARCH_TYPES.join(', ')} (got ${JSON.stringify(t).slice(0, 40)})`);
  if (types.length) tests.push((r) => types.includes(r.search.type));

  // The key and the instance are read from the echoed search only when asked for: the store keeps no more per request.
  const key = honoured('search_key') ? url.searchParams.get('search_key') : null;
  if (key !== null) tests.push((r) => keyForm(r.search.type, String(echoOf(r).search_key ?? '')) === keyForm(r.search.type, key));
  const instanceText = honoured('lawsuit_instance') ? url.searchParams.get('lawsuit_instance') : null;
  const instance = instanceText === null ? undefined : Number(instanceText);
  if (instance !== undefined && !(Number.isInteger(instance) && instance >= 1)) reasons.push('lawsuit_instance must be a positive integer');
  else if (instance !== undefined) tests.push((r) => (echoOf(r).search_params as { lawsuit_instance?: unknown } | undefined)?.lawsuit_instance === instance);

  return (r, shown) => tests.every((t) => t(r, shown));
}

function echoOf(r: StoredRequest): Record<string, unknown> {
  return JSON.parse(r.echoJson) as Record<string, unknown>;
}
