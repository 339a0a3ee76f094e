import { at, type BenchPart } from '../part.js';
import { largestDocument, sandboxEndpoints } from '../sandbox-endpoints.js';
import { sandboxMemory } from '../sandbox-memory.js';

/**
 * The sandbox's own memory serving a backfill's worst case (big-party requests, all kept for the run) and the
 * slowest page of its merged listing; its peak per endpoint on the universe's largest document, under the CLI's
 * 128 MB heap.
 */
export const sandboxPart: BenchPart = {
  name: 'sandbox',
  keys: ['sandbox_rss_mb', 'sandbox_slowest_listing_page_ms', 'sandbox_first_listing_page_ms', 'sandbox_largest_document_lawsuits', 'sandbox_peak_rss_mb_by_endpoint'],
  async run(scale, line) {
    const size = at(scale, { toy: { universe: 5_000, requests: 2 }, quick: { universe: 1_000_000, requests: 200 }, full: { universe: 1_000_000, requests: 1000 } });
    const sbm = await sandboxMemory(size.requests, size.universe);
    line('sandbox_rss_mb', sbm.peakRssMb, `${sbm.requests} big-party requests, ${sbm.items} items held, in ${(sbm.ms / 1000).toFixed(0)} s`);
    line('sandbox_slowest_listing_page_ms', sbm.slowestListingPageMs, `page ${sbm.slowestListingPage} of ${Math.ceil(sbm.items / 100)} (100 items a page, all requests merged; page 1: ${sbm.firstListingPageMs} ms)`);
    line('sandbox listing page ms by depth', '', Object.entries(sbm.listingPageMs).map(([page, ms]) => `p${page} ${ms}`).join(', '));
    const doc = largestDocument(size.universe);
    line('sandbox largest document', doc.lawsuits, `${doc.name} (${doc.document})`);
    const byEndpoint: Record<string, number | null> = {};
    for (const e of await sandboxEndpoints(doc, size.universe)) {
      line(`sandbox_peak_rss_mb ${e.endpoint}`, e.peakRssMb ?? 'crashed', `${e.detail}, ${(e.ms / 1000).toFixed(1)} s`);
      byEndpoint[e.endpoint] = e.peakRssMb;
    }
    return {
      sandbox_rss_mb: sbm.peakRssMb, sandbox_slowest_listing_page_ms: sbm.slowestListingPageMs, sandbox_first_listing_page_ms: sbm.firstListingPageMs,
      sandbox_largest_document_lawsuits: doc.lawsuits, sandbox_peak_rss_mb_by_endpoint: byEndpoint,
    };
  },
};
