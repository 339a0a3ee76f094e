// The synchronous endpoints (spec, "Synchronous historical query", "Grouped summary", "Count", "True/false
// query"): answered at once from the datalake, i.e. the lagging database view of the same universe and the
// same filters as POST /requests. POST /requests/create with create_complete_request also starts an
// asynchronous request, whose id is then the answer's request_id.

import type { Json } from '../lawsuit-object.js';
import { validationError, type Reply, type RouteModule, type SandboxState } from '../context.js';
import { uuidOf } from '../random.js';
import { runSearch, type Hit } from '../search.js';
import type { NormalizedSearch } from '../search-validation.js';
import { groupLawsuits, searchedRoles, type GroupInput } from '../sync/grouped.js';
import { validateSyncBody, type SyncBody, type SyncKind } from '../sync/validate.js';

function lawsuitOf(state: SandboxState, s: NormalizedSearch, h: Hit, now: number, processStatus: boolean): { obj: Json; input: GroupInput } | undefined {
  const { universe, options } = state;
  const o = universe.observe(h.index, now, false);
  if (!o) return undefined;
  const privileged = s.customerKey !== undefined && options.credentialKeys.includes(s.customerKey);
  let obj = universe.render(o, 'full', privileged);
  const input: GroupInput = { lawsuit: obj, roles: searchedRoles(s, o.parties) };
  const byNumber = s.type === 'lawsuit_cnj' || s.type === 'lawsuit_id';
  // Document and name searches may leave out steps and attachments, as their asynchronous answers do.
  if (!byNumber && o.plan.tribunal.sparse) { delete obj.steps; delete obj.attachments; }
  if (!processStatus) obj = withoutStatus(obj);
  return { obj, input };
}

function withoutStatus(obj: Json): Json {
  const { phase: _p, status: _s, ...rest } = obj;
  return rest;
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
      handle: handler('historical', (b, hits, { now }) => {
        const data = hits.map((h) => lawsuitOf(state, b.search, h, now, b.processStatus)?.obj).filter((x): x is Json => x !== undefined);
        return { status: 200, body: { has_lawsuits: data.length > 0, request_id: syncId(), response_data: data } };
      }),
    },
    {
      method: 'POST', path: '/requests/count', api: true,
      handle: handler('count', (_b, hits) => ({ status: 200, body: { total: hits.length } })),
    },
    {
      method: 'POST', path: '/requests/create/grouped', api: true,
      handle: handler('grouped', (b, hits, { now }) => {
        const inputs = hits.map((h) => lawsuitOf(state, b.search, h, now, true)?.input).filter((x): x is GroupInput => x !== undefined);
        return { status: 200, body: groupLawsuits(inputs) };
      }),
    },
    {
      method: 'POST', path: '/requests/create', api: true, mutates: true,
      handle: handler('truefalse', (b, hits, { apiKey, now }) => {
        let requestId = syncId();
        if (b.createCompleteRequest) {
          const r = state.store.create(apiKey, b.search, now, state.faults.forRequest(state.store.nextSeq()), { initial: 'created' });
          requestId = r.id;
        }
        return { status: 200, body: { has_lawsuits: hits.length > 0, request_id: requestId, response_data: [] } };
      }),
    },
  ];
};
