import type { DocumentSpec } from '../../input/documents.js';
import { normaliseKey } from '../../input/normalise.js';
import { keyIdentity, paramsIdentity } from '../../spec/identifiers.js';
import type { SearchParams } from '../../spec/types.js';
import { searchFor } from '../../input/search-body.js';

// One identity per tracked search, whichever way its key is punctuated or a name spelt: the listing echoes keys as
// they were sent. A document's tracking and a lawsuit's tracking (search_type lawsuit_cnj, the number) share the
// form, so that a number listed as a document and the same number kept whole are one tracking, never two.

/**
 * One identity for a tracked search whichever way its key is punctuated or a name spelt (the listing echoes keys as
 * sent), with its filters, credential and masked_response (`params`, its search_params as sent or listed) when it
 * has any: a tracking carries its document's filters, and a document listed with other filters is another search.
 */
export function trackingKey(searchType: string, searchKey: string, params?: SearchParams): string {
  const n = normaliseKey(searchType as DocumentSpec['searchType'], searchKey);
  const base = `${searchType}\u0000${keyIdentity(searchType, n.ok ? n.key : searchKey.trim())}`;
  const more = paramsIdentity(params);
  return more === '' ? base : `${base}\u0000${more}`;
}

/** A listed document's tracking identity: the search it is tracked with (searchFor). */
export function documentTrackingKey(doc: DocumentSpec): string {
  return trackingKey(doc.searchType, doc.searchKey, searchFor(doc).search_params);
}

/** The identity of a lawsuit's tracking: a lawsuit_cnj search of its number, no filters. */
export function lawsuitTrackingKey(code: string): string {
  return trackingKey('lawsuit_cnj', code);
}

/** A ledger row's search_params (requests.search, as JSON text); undefined when it has none. */
export function paramsOf(text: string | null): SearchParams | undefined {
  const v: unknown = text === null ? undefined : JSON.parse(text);
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v as SearchParams : undefined;
}
