// The synchronous endpoints (spec, "Synchronous historical query", "Grouped summary", "Count", "True/false
// query"): answered at once from the datalake, i.e. the lagging database view of the same universe and the
// same filters as POST /requests. POST /requests/create with create_complete_request also starts an
// asynchronous request, whose id is then the answer's request_id.
//
// Memory: a party can have tens of thousands of lawsuits (1M universe: a municipality with 28,500). The historical
// answer is written lawsuit by lawsuit as the client reads it (a stream, never one array nor one string), without
// steps and attachments, which the provider leaves out of by-document historical queries (REFERENCE.md); the
// grouped summary keeps running counts of each lawsuit's cover values and builds no lawsuit object at all.

import { validationError, type Reply, type RouteModule, type SandboxState } from '../context.js';
import { uuidOf } from '../random.js';
import { runSearch, type Hit } from '../search.js';
import type { NormalizedSearch } from '../search-validation.js';
import { coverOf, GroupTally, searchedRoles } from '../sync/grouped.js';
import { validateSyncBody, type SyncBody, type SyncKind } from '../sync/validate.js';

/** Lawsuits written to the socket at a time: few enough to stay small, enough to keep writes few. */
const LAWSUITS_PER_CHUNK = 25;

/** The historical answer as JSON text, a chunk of lawsuits at a time, pulled as the socket drains. */
function* historicalBody(state: SandboxState, s: NormalizedSearch, hits: readonly Hit[], now: number, processStatus: boolean, requestId: string): Generator<string> {
  const { universe, options } = state;
  const privileged = s.customerKey !== undefined && options.credentialKeys.includes(s.customerKey);
  yield `{"has_lawsuits":${hits.length > 0},"request_id":${JSON.stringify(requestId)},"response_data":[`;
  let chunk = '';
  let written = 0;
  for (let k = 0; k < hits.length; k++) {
    const o = universe.observe(hits[k].index, now, false);
    if (!o) continue;
    const obj = universe.render(o, 'historical', privileged);
    if (!processStatus) { delete obj.phase; delete obj.status; }
    chunk += (written++ > 0 ? ',' : '') + JSON.stringify(obj);
    if (written % LAWSUITS_PER_CHUNK === 0) { yield chunk; chunk = ''; }
  }
  yield `${chunk}]}`;
}

export const syncRoutes: RouteModule = (state) => {
  let seq = 0;
  const syncId = () => uuidOf(state.options.seed, `sync-request:${state.options.bootId}`, ++seq);

  const handler = (kind: SyncKind, answer: (b: SyncBody, hits: Hit[], ctx: { apiKey: string; now: number }) => Reply) =>
    ({ body, apiKey, now }: { body: unknown; apiKey: string; now: number }): Reply => {
      const v = validateSyncBody(body, kind);
      if (!v.ok) return validationError(v.reasons, v.status, v.status === 422 ? 'Invalid CNJ number' : 'Invalid search');
      return answer(v.body, runSearch(state.universe, v.body.search, now), { apiKey, now });
    };

  return [
    {
      method: 'POST', path: '/lawsuits', api: true,
      handle: handler('historical', (b, hits, { now }) => ({ status: 200, stream: historicalBody(state, b.search, hits, now, b.processStatus, syncId()) })),
    },
    {
      method: 'POST', path: '/requests/count', api: true,
      handle: handler('count', (_b, hits) => ({ status: 200, body: { total: hits.length } })),
    },
    {
      method: 'POST', path: '/requests/create/grouped', api: true,
      handle: handler('grouped', (b, hits, { now }) => {
        const tally = new GroupTally();
        for (const h of hits) {
          const o = state.universe.observe(h.index, now, false);
          if (o) tally.add(coverOf(o), searchedRoles(b.search, o.parties));
        }
        return { status: 200, body: tally.result() };
      }),
    },
    {
      method: 'POST', path: '/requests/create', api: true, mutates: true,
      handle: handler('truefalse', (b, hits, { apiKey, now }) => {
        let requestId = syncId();
        if (b.createCompleteRequest) {
          const r = state.store.create(apiKey, b.search, now, state.faults.forRequest(state.store.nextSeq()), {
            initial: 'created', levels: state.dialect.levels, unavailable: (code) => state.faults.unavailableLawsuit(code),
          });
          requestId = r.id;
        }
        return { status: 200, body: { has_lawsuits: hits.length > 0, request_id: requestId, response_data: [] } };
      }),
    },
  ];
};
