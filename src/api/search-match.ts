import { foldName, sameFilter } from '../spec/identifiers.js';
import type { Search } from '../spec/types.js';

// Whether a request found in the listing is the one a lost POST may have created. Pure. The service echoes
// the search "as accepted", so keys are compared without punctuation and case (a CPF sent punctuated comes
// back digits only), absent options equal their defaults (an echoed empty filter equals no filter), and a filter
// is compared in its canonical form (spec/search-identity.ts: tribunals in any order, 150000 or "150000"). The
// credential and masked_response are compared when the echo shows them: an echo that leaves them out (a credential
// may well not be shown back) proves nothing against the request, and the request is ours.

function key(k: string): string {
  return foldName(k).replace(/[^0-9a-z]/g, '');
}

export function sameSearch(sent: Search, echoed: Partial<Search> | undefined): boolean {
  if (!echoed) return false;
  if (sent.search_type !== echoed.search_type) return false;
  if (typeof echoed.search_key !== 'string' || key(sent.search_key) !== key(echoed.search_key)) return false;
  if (Boolean(sent.on_demand) !== Boolean(echoed.on_demand)) return false;
  const a = sent.search_params ?? {};
  const b = echoed.search_params ?? {};
  if ((a.lawsuit_instance ?? null) !== (b.lawsuit_instance ?? null)) return false;
  const echoedKey: unknown = b.credential?.customer_key;
  if (typeof echoedKey === 'string' && echoedKey !== a.credential?.customer_key) return false;
  if (typeof b.masked_response === 'boolean' && b.masked_response !== a.masked_response) return false;
  return sameFilter(a.filter, b.filter);
}
