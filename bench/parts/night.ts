import { universeArgs, withUniverse, ordinaryDocuments } from '../documents.js';
import { at, type BenchPart } from '../part.js';
import { pipelineRun, ranToItsEnd } from '../pipeline-run.js';
import { round } from '../round.js';

/**
 * Calls per document and polls per request: a night over ordinary documents (every search type, big litigants
 * among them) against the sandbox. 100 documents (300 until 2026-11-28, a tenth of the whole bench's time for a
 * figure per document).
 */
export const nightPart: BenchPart = {
  name: 'night',
  keys: ['calls_per_document', 'polls_per_request'],
  async run(scale, line) {
    const size = at(scale, { toy: { universe: 20_000, documents: 4 }, quick: { universe: 1_000_000, documents: 50 }, full: { universe: 1_000_000, documents: 100 } });
    const csv = await withUniverse(size.universe, (sb) => ordinaryDocuments(sb, size.documents));
    const calls = await pipelineRun({ csv, sandboxArgs: [...universeArgs(size.universe), '--rate-limit', '1000000'] });
    if (!ranToItsEnd(calls.exitCode)) throw new Error(`the night exited ${calls.exitCode}`);
    const callsPerDocument = round(calls.calls / calls.documents);
    const pollsPerRequest = round(calls.polls / calls.requests);
    line('calls_per_document', callsPerDocument, `${calls.calls} calls for ${calls.documents} documents`);
    line('polls_per_request', pollsPerRequest, `${calls.polls} polling calls for ${calls.requests} requests`);
    return { calls_per_document: callsPerDocument, polls_per_request: pollsPerRequest };
  },
};
