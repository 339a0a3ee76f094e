import type { Safety } from '../shared/failure-policy.js';

// What a resource module asks of the HTTP client for one call (CallSpec), and what it gets back (CallResult).

export type BaseName = 'requests' | 'tracking' | 'lawsuits' | 'transfer';
export type { Safety };
type QueryValue = string | number | boolean | ReadonlyArray<string | number> | undefined | null;
export type Query = Record<string, QueryValue>;

export interface CallSpec<T> {
  base: BaseName;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path under the base address, e.g. `/requests/abc`. Ignored when `absolute` is given. */
  path: string;
  /** An absolute address given by the service itself (links.next); must be on the base's origin. */
  absolute?: string;
  /** Label for stats and logs, e.g. "GET /requests/:id". Never carries ids or query values. */
  route: string;
  query?: Query;
  body?: unknown;
  /** Default: GET/PUT/PATCH/DELETE idempotent, POST unsafe. */
  safety?: Safety;
  /** Limiter priority: higher goes first. Default 0. */
  priority?: number;
  /** Statuses that count as success. Default [200, 201]. */
  ok?: readonly number[];
  /** Retries of this call, below the client's (a probe that must not hold anything up asks for fewer). */
  retries?: number;
  /**
   * Whether this call's failures may spend the stage's wait budget (budgetUntil). Default true. A probe says
   * false: it gives up on its own, and the calls of the stage's real work decide whether the upstream is gone.
   */
  spendsBudget?: boolean;
  /** Checks and types the parsed body; throws ShapeError. */
  parse: (body: unknown, status: number) => T;
  /**
   * Instead of `parse`: reads a successful answer's text itself (to keep raw slices of it, each item's bytes
   * exactly as received); throws ShapeError or SyntaxError.
   */
  parseText?: (text: string, status: number) => T;
  /**
   * Instead of reading a successful answer's body: it streams through `sink` (a file), never held whole, under the
   * download's deadline (`downloadMs`) rather than a page's; `declared` is its Content-Length when sent. A typed
   * error the sink throws (its verdict on the bytes) fails the call as it is.
   */
  sink?: (body: AsyncIterable<Buffer>, declared: number | undefined, headers: Record<string, string | string[] | undefined>) => Promise<T>;
}

export interface CallResult<T> { status: number; body: T; headers: Record<string, string> }

export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) sp.append(k, String(item));
    else sp.append(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}
