import type { DocumentSpec } from '../../input/documents.js';
import { normaliseKey } from '../../input/normalise.js';
import { keyIdentity } from '../../spec/identifiers.js';

// One identity per tracked search, whichever way its key is punctuated or a name spelt: the listing echoes keys as
// they were sent. A document's tracking and a lawsuit's tracking (search_type lawsuit_cnj, the number) share the
// form, so that a number listed as a document and the same number kept whole are one tracking, never two.

/** One identity for a search whichever way its key is punctuated or a name spelt (the listing echoes keys as sent). */
export function trackingKey(searchType: string, searchKey: string): string {
  const n = normaliseKey(searchType as DocumentSpec['searchType'], searchKey);
  return `${searchType}\u0000${keyIdentity(searchType, n.ok ? n.key : searchKey.trim())}`;
}

/** The identity of a lawsuit's tracking: a lawsuit_cnj search of its number. */
export function lawsuitTrackingKey(code: string): string {
  return trackingKey('lawsuit_cnj', code);
}
