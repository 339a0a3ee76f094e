import { foldName } from '../spec/identifiers.js';
import type { Search } from '../spec/types.js';

// Whether a request found in the listing is the one a lost POST may have created. Pure. The service echoes
// the search "as accepted", so keys are compared without punctuation and case (a CPF sent punctuated comes
// back digits only), and absent options equal their defaults (an echoed empty filter equals no filter).

function key(k: string): string {
  return foldName(k).replace(/[^0-9a-z]/g, '');
}

function canonical(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => [k, canonical(x)] as const)
      .filter(([, x]) => x !== '')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // An empty object says nothing more than an absent one (the service echoes `filter: {}`).
    if (entries.length === 0) return '';
    return `{${entries.map(([k, x]) => `${k}:${x}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export function sameSearch(sent: Search, echoed: Partial<Search> | undefined): boolean {
  if (!echoed) return false;
  if (sent.search_type !== echoed.search_type) return false;
  if (typeof echoed.search_key !== 'string' || key(sent.search_key) !== key(echoed.search_key)) return false;
  if (Boolean(sent.on_demand) !== Boolean(echoed.on_demand)) return false;
  const a = sent.search_params ?? {};
  const b = echoed.search_params ?? {};
  if ((a.lawsuit_instance ?? null) !== (b.lawsuit_instance ?? null)) return false;
  return canonical(a.filter) === canonical(b.filter);
}
