// POST /requests, GET /requests/:id and GET /requests (the links/meta envelope).

import { listParam, notFound, pagination, unknownParams, validationError, type RouteModule, type SandboxState } from '../context.js';
import { linksEnvelope } from '../links-envelope.js';
import { FINISHED, REQUEST_STATUSES, type RequestStatus, type StoredRequest } from '../request-store.js';
import { validateSearchBody } from '../search-validation.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function renderRequest(state: SandboxState, r: StoredRequest, now: number, shown?: { status: RequestStatus; updatedMs: number }): Record<string, unknown> {
  return {
    request_id: r.id,
    search: JSON.parse(r.echoJson),
    origin: 'api',
    origin_id: state.store.originIdOf(r),
    user_id: r.userId,
    status: shown?.status ?? state.store.statusAt(r, now),
    tags: { dashboard_id: null },
    created_at: iso(r.createdMs),
    updated_at: iso(shown?.updatedMs ?? state.store.updatedAt(r, now)),
  };
}

/**
 * The status the requests listing shows. Under the `stale_listing` fault some finished requests are shown
 * still running, as an upstream whose listing lags its own records would (GET /requests/<id> tells the truth).
 */
function listedState(state: SandboxState, r: StoredRequest, now: number): { status: RequestStatus; updatedMs: number } {
  const status = state.store.statusAt(r, now);
  if (FINISHED.includes(status) && state.faults.listsStale(r.seq)) return { status: 'started', updatedMs: r.startMs };
  return { status, updatedMs: state.store.updatedAt(r, now) };
}

export const requestRoutes: RouteModule = (state) => [
  {
    method: 'POST', path: '/requests', api: true, mutates: true,
    handle: ({ body, apiKey, now }) => {
      const v = validateSearchBody(body);
      if (!v.ok) return validationError(v.reasons, v.status, v.status === 422 ? 'Invalid CNJ number' : 'Invalid search');
      const r = state.store.create(apiKey, v.search, now, state.faults.forRequest(state.store.nextSeq()));
      return { status: 200, body: renderRequest(state, r, now, { status: 'pending', updatedMs: r.createdMs }) };
    },
  },
  {
    method: 'GET', path: '/requests/:id', api: true,
    handle: ({ params, apiKey, now }) => {
      const r = state.store.get(params.id, apiKey);
      return r ? { status: 200, body: renderRequest(state, r, now) } : notFound('request');
    },
  },
  {
    method: 'GET', path: '/requests', api: true,
    handle: ({ url, apiKey, now }) => {
      const reasons: string[] = [];
      const { page, pageSize } = pagination(url, reasons);
      unknownParams(url, ['page', 'page_size', 'status'], reasons);
      const statuses = listParam(url, 'status');
      for (const s of statuses) if (!(REQUEST_STATUSES as readonly string[]).includes(s)) reasons.push(`status must be among ${REQUEST_STATUSES.join(', ')} (got ${JSON.stringify(s).slice(0, 40)})`);
      if (reasons.length) return validationError(reasons);
      // Newest first (README, "Spec gaps").
      const all = [...state.store.listOf(apiKey)].reverse()
        .map((r) => ({ r, shown: listedState(state, r, now) }))
        .filter(({ shown }) => statuses.length === 0 || statuses.includes(shown.status));
      return {
        status: 200,
        body: linksEnvelope({ baseUrl: state.baseUrl(), path: '/requests', all, page, pageSize, statuses, render: ({ r, shown }) => renderRequest(state, r, now, shown) }),
      };
    },
  },
];
