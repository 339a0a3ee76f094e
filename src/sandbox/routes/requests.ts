// POST /requests, GET /requests/:id and GET /requests (the links/meta envelope).

import { listParam, notFound, pagination, validationError, type RouteModule, type SandboxState } from '../context.js';
import { linksEnvelope } from '../links-envelope.js';
import type { StoredRequest } from '../request-store.js';
import { validateSearchBody } from '../search-validation.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function renderRequest(state: SandboxState, r: StoredRequest, now: number, status?: string): Record<string, unknown> {
  return {
    request_id: r.id,
    search: r.search.echo,
    origin: 'api',
    origin_id: r.originId,
    user_id: r.userId,
    status: status ?? state.store.statusAt(r, now),
    tags: { dashboard_id: null },
    created_at: iso(r.createdMs),
    updated_at: iso(status ? r.createdMs : state.store.updatedAt(r, now)),
  };
}

export const requestRoutes: RouteModule = (state) => [
  {
    method: 'POST', path: '/requests', api: true, mutates: true,
    handle: ({ body, apiKey, now }) => {
      const v = validateSearchBody(body);
      if (!v.ok) return validationError(v.reasons, v.status, v.status === 422 ? 'Invalid CNJ number' : 'Invalid search');
      const r = state.store.create(apiKey, v.search, now, state.faults.forRequest(state.store.nextSeq()));
      return { status: 200, body: renderRequest(state, r, now, 'pending') };
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
      if (reasons.length) return validationError(reasons);
      const statuses = listParam(url, 'status');
      // Newest first (README, "Spec gaps").
      const all = [...state.store.listOf(apiKey)].reverse()
        .filter((r) => statuses.length === 0 || statuses.includes(state.store.statusAt(r, now)));
      return {
        status: 200,
        body: linksEnvelope({ baseUrl: state.baseUrl(), path: '/requests', all, page, pageSize, statuses, render: (r) => renderRequest(state, r, now) }),
      };
    },
  },
];
