import { KEY_CALLS_PER_DAY } from '../calls.js';
import { individualDocuments, universeArgs, withUniverse } from '../documents.js';
import { at, type BenchPart } from '../part.js';
import { trackedPortfolio } from '../tracked.js';

/**
 * A tracked portfolio (issue 23): individuals' CPFs tracked and read night after night over five sandbox days.
 * Nights 2 to 5 buy no search and take at most 0.02 calls a document; after night 5 the warehouse is a searches
 * night's.
 */
export const trackedPart: BenchPart = {
  name: 'tracked',
  keys: ['tracking_calls_per_document_night', 'tracked_documents_per_key_day', 'tracked_searches_after_first_night', 'tracked_equals_searches_night',
    'tracked_changed_after_last_runs', 'tracked_differing_lawsuits', 'tracked_calls_by_night', 'tracked_cpu_s_by_night'],
  async run(scale, line) {
    const size = at(scale, { toy: { universe: 20_000, documents: 4, nights: 2 }, quick: { universe: 1_000_000, documents: 1_000, nights: 5 }, full: { universe: 1_000_000, documents: 10_000, nights: 5 } });
    const portfolio = await withUniverse(size.universe, (sb) => individualDocuments(sb, size.documents));
    const t = await trackedPortfolio(portfolio.csv, size.documents, [...universeArgs(size.universe), '--rate-limit', '1000000'], (night) => {
      line(`tracked night ${night.night}`, night.calls, `${night.callsPerDocument} a document; ${night.searches} searches bought, ${night.runsRead} tracking runs read, `
        + `${night.responses} responses loaded; ${(night.ms / 1000).toFixed(0)} s (${night.cpuS} CPU s), exit ${night.exitCode}`);
    }, size.nights);
    line('tracking_calls_per_document_night', t.trackingCallsPerDocumentNight, `the most of nights 2-${size.nights}, ${t.documents} documents (${t.searchesAfterFirst} searches bought after night 1)`);
    line('tracked_documents_per_key_day', t.trackedDocumentsPerKeyDay, `${KEY_CALLS_PER_DAY} calls a key-day at that rate`);
    line('tracked warehouse = searches night', String(t.equalsSearchesNight), `lawsuits, parties and steps after night ${size.nights}, but ${t.changedSinceLastRuns} lawsuits changed after the last runs`
      + (t.differing.count ? `; ${t.differing.count} lawsuits differ, e.g. ${t.differing.some.join(', ')}` : '') + `; the searches night took ${(t.referenceMs / 1000).toFixed(0)} s`);
    return {
      tracking_calls_per_document_night: t.trackingCallsPerDocumentNight, tracked_documents_per_key_day: t.trackedDocumentsPerKeyDay,
      tracked_searches_after_first_night: t.searchesAfterFirst, tracked_equals_searches_night: t.equalsSearchesNight, tracked_changed_after_last_runs: t.changedSinceLastRuns, tracked_differing_lawsuits: t.differing.count,
      tracked_calls_by_night: t.nights.map((x) => x.calls), tracked_cpu_s_by_night: t.nights.map((x) => x.cpuS),
    };
  },
};
