import { at, type BenchPart } from '../part.js';
import { rateUse, rateUseDocumented, type DialectRateFigures, type RateFigures } from '../rate-use.js';

/**
 * Rate-limit use: the limiter is not told the limit; 60 calls per 20 s is the real 180/min at a third of the
 * window. Against the sandbox (Limit, Remaining, Reset and Retry-After), then against upstreams of the
 * documented dialect (no Reset, no Retry-After, refused calls counted): one with Limit and Remaining only,
 * one with no rate header at all.
 */
export const ratePart: BenchPart = {
  name: 'rate',
  keys: ['rate_use', 'share_429', 'fixed_rate_use', 'fixed_share_429', 'rate_use_limit_remaining_only', 'share_429_limit_remaining_only',
    'rate_use_no_headers', 'share_429_no_headers'],
  async run(scale, line) {
    const size = at(scale, { toy: { limit: 5, windowMs: 400, calls: 12 }, quick: { limit: 60, windowMs: 20_000, calls: 150 }, full: { limit: 60, windowMs: 20_000, calls: 300 } });
    const show = (name: string, f: RateFigures | DialectRateFigures) => {
      const dialect = 'failed' in f ? `, ${f.failed} failed, ${f.retries} retries (${f.network} network), limit ${f.learnedLimit} per ${f.windowMs} ms` : '';
      line(`rate_use (${name})`, f.rateUse, `${f.calls} calls in ${(f.ms / 1000).toFixed(1)} s, ideal ${(f.idealMs / 1000).toFixed(1)} s${dialect}`);
      line(`share_429 (${name})`, f.share429, `${f.status429} answered 429`);
    };
    const rate = await rateUse(size);
    show('adaptive limiter', rate.adaptive);
    show('fixed concurrency 8', rate.fixed);
    const lr = await rateUseDocumented({ ...size, headers: 'limit-remaining' });
    show('Limit/Remaining only', lr);
    const none = await rateUseDocumented({ ...size, headers: 'none' });
    show('no rate header', none);
    return {
      rate_use: rate.adaptive.rateUse, share_429: rate.adaptive.share429,
      fixed_rate_use: rate.fixed.rateUse, fixed_share_429: rate.fixed.share429,
      rate_use_limit_remaining_only: lr.rateUse, share_429_limit_remaining_only: lr.share429,
      rate_use_no_headers: none.rateUse, share_429_no_headers: none.share429,
    };
  },
};
