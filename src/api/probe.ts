import type { CallResult, HttpClient } from './http.js';
import { readEnvelope, type Page } from './paginate.js';

// One page of any listing, read as it comes: the items unchecked, the answer's headers kept. What the dialect
// probe (src/pipeline/dialect.ts) and `lawsuit-etl doctor` read an upstream with; never used to load anything.
// Never retried: a probe that fails teaches nothing and must not hold the night (the night then reads with
// what it assumes, verified page by page).

export type ListingBase = 'requests' | 'tracking' | 'transfer';

export class ListingProbe {
  constructor(private readonly http: HttpClient) {}

  /** `path` on `base` (e.g. `/responses` on requests), with `query`; a failure throws the client's ApiError. */
  async read(base: ListingBase, path: string, query: Record<string, string | number | undefined>): Promise<CallResult<Page<Record<string, unknown>>>> {
    return this.http.call({
      base, method: 'GET', path, route: `GET ${path}`, query, retries: 0,
      parse: (b) => readEnvelope(b, (v) => (typeof v === 'object' && v !== null ? v as Record<string, unknown> : {})),
    });
  }
}
