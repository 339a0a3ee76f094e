// A line of the documents list as the request it becomes: the one place where a CSV line turns into an API body,
// and so the one place its identity is read from (spec/search-identity.ts). Pure.
import { searchIdentity } from '../spec/identifiers.js';
import type { Search, SearchParams } from '../spec/types.js';
import type { DocumentSpec } from './types.js';

/**
 * The search object sent for a document. Its filter goes as `search_params.filter`, its credential as
 * `search_params.credential.customer_key`, masked_response beside them (REFERENCE.md, "Two levels");
 * `with_attachments` belongs to the body's top level, not to the search (the caller sends `doc.withAttachments`).
 */
export function searchFor(doc: DocumentSpec): Search {
  const search: Search = { search_type: doc.searchType, search_key: doc.searchKey, response_type: 'lawsuit' };
  if (doc.onDemand) search.on_demand = true;
  if (doc.cacheTtlInDays !== undefined) search.cache_ttl_in_days = doc.cacheTtlInDays;
  const params: SearchParams = {};
  if (doc.lawsuitInstance !== undefined) params.lawsuit_instance = doc.lawsuitInstance;
  if (doc.maskedResponse !== undefined) params.masked_response = doc.maskedResponse;
  if (doc.filter !== undefined) params.filter = doc.filter;
  if (doc.customerKey !== undefined) params.credential = { customer_key: doc.customerKey };
  if (Object.keys(params).length > 0) search.search_params = params;
  return search;
}

/** The identity of a document's search: two lines with one identity are one search, bought once. */
export function documentIdentity(doc: DocumentSpec): string {
  return searchIdentity(searchFor(doc), { withAttachments: doc.withAttachments });
}
