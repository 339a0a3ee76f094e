// The rate-limit headers an answer carries. The spec's reading sends X-RateLimit-Limit, -Remaining and -Reset
// on every answer past the limiter, and Retry-After on a 429; the documented dialect only Limit and Remaining,
// on successful answers (REFERENCE.md: "on 200 answers"; no Reset, no Retry-After). The `no_rate_headers`
// fault leaves out every one of them, as an upstream that sends no rate information at all.

import type { Dialect } from './dialect.js';
import type { RateDecision } from './rate-limit.js';

/** Every header this file may set (a route's pre-set ones are removed before the final answer's). */
export const RATE_HEADER_NAMES = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'] as const;

export function rateHeaders(d: Dialect, limit: RateDecision, status: number, omitted: boolean): Record<string, string> {
  if (omitted || (!d.rateHeaders.onErrors && status >= 300)) return {};
  const out: Record<string, string> = {
    'x-ratelimit-limit': String(limit.limit),
    'x-ratelimit-remaining': String(limit.remaining),
  };
  if (d.rateHeaders.reset) out['x-ratelimit-reset'] = String(limit.resetEpochSec);
  if (status === 429 && d.rateHeaders.retryAfter) out['retry-after'] = String(limit.retryAfterSec);
  return out;
}
