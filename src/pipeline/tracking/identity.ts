import type { DocumentSpec } from '../../input/documents.js';
import { normaliseKey } from '../../input/normalise.js';
import { searchIdentity } from '../../spec/identifiers.js';
import type { Search, SearchParams } from '../../spec/types.js';
import { searchFor } from '../../input/search-body.js';

// One identity per tracked search, whichever way its key is punctuated or a name spelt: the listing echoes keys as
// they were sent. It is the search's own identity (spec/search-identity.ts, the one the ledger and the plan key
// searches by), taken of the search a tracking follows. A document's tracking and a lawsuit's tracking (search_type
// lawsuit_cnj, the number) share the form, so that a number listed as a document and the same number kept whole are
// one tracking, never two.

/**
 * The identity of a tracked search: its key in its normal form (the listing echoes keys as sent), with its filters,
 * credential and masked_response (`params`, its search_params as sent or listed) when it has any: a tracking carries
 * its document's filters, and a document listed with other filters is another search. What a tracking's identity
 * has always left out (where a search reads, on_demand; its instance; with_attachments) is left out of the search
 * it is taken of, so that two lines of one document at two instances follow one tracking, as they always did.
 */
export function trackingKey(searchType: string, searchKey: string, params?: SearchParams): string {
  const n = normaliseKey(searchType as DocumentSpec['searchType'], searchKey);
  const search: Search = { search_type: searchType as Search['search_type'], search_key: n.ok ? n.key : searchKey.trim() };
  if (params !== undefined) search.search_params = { ...params, lawsuit_instance: undefined };
  return searchIdentity(search);
}

/** A listed document's tracking identity: the search it is tracked with (searchFor). */
export function documentTrackingKey(doc: DocumentSpec): string {
  return trackingKey(doc.searchType, doc.searchKey, searchFor(doc).search_params);
}

/** A tracking record's identity: the search it carries, as the listing echoes it. */
export function recordTrackingKey(search: Pick<Search, 'search_type' | 'search_key' | 'search_params'>): string {
  return trackingKey(search.search_type, search.search_key, search.search_params);
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
