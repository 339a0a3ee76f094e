import type { CallResult } from './call-spec.js';
import type { HttpClient } from './http.js';
import { readEnvelope, type Page } from './paginate.js';

// One page of any listing, read as it comes: the items unchecked, the answer's headers kept. What the dialect
// probe (src/pipeline/dialect.ts) and `lawsuit-etl doctor` read an upstream with; never used to load anything.
// Retried at most twice (a 5xx or a reset in a night of faults must not cost the night its sweep), not six
// times: a probe that keeps failing teaches nothing and must not hold the night, which then reads per request.

export type ListingBase = 'requests' | 'tracking' | 'transfer';

export class ListingProbe {
  constructor(private readonly http: HttpClient) {}

  /** `path` on `base` (e.g. `/responses` on requests), with `query`; a failure throws the client's ApiError. */
  async read(base: ListingBase, path: string, query: Record<string, string | number | undefined>): Promise<CallResult<Page<Record<string, unknown>>>> {
    return this.http.call({
      base, method: 'GET', path, route: `GET ${path}`, query, retries: 2, spendsBudget: false,
      parse: (b) => readEnvelope(b, (v) => (typeof v === 'object' && v !== null ? v as Record<string, unknown> : {})),
    });
  }
}
