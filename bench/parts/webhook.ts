import { at, type BenchPart } from '../part.js';
import { webhookFigures } from '../webhook.js';

/**
 * The webhook intake (issue 35, bench/webhook.ts): deliveries a second and their p99 with an fsync per delivery
 * and per batch, the intake's RSS at 100,000 deliveries, and the listing calls of one night polled and pushed.
 */
export const webhookPart: BenchPart = {
  name: 'webhook',
  keys: ['intake_per_sec_fsync_delivery', 'intake_p50_ms_fsync_delivery', 'intake_p99_ms_fsync_delivery',
    'intake_per_sec_fsync_batch', 'intake_p50_ms_fsync_batch', 'intake_p99_ms_fsync_batch',
    'intake_cpu_us_per_delivery_fsync_delivery', 'intake_cpu_us_per_delivery_fsync_batch', 'intake_rss_mb', 'intake_rss_deliveries',
    'night_listing_calls_polled', 'night_listing_calls_intake', 'night_listing_ratio', 'night_responses_polled', 'night_responses_intake'],
  run: (scale, line) => webhookFigures(at(scale, {
    toy: { each: 50, batch: 100, many: 200, documents: 3, universe: 20_000 },
    quick: { each: 2_000, batch: 5_000, many: 20_000, documents: 60, universe: 1_000_000 },
    full: { each: 5_000, batch: 20_000, many: 100_000, documents: 200, universe: 1_000_000 },
  }), line),
};
