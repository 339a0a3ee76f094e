// POST /requests, GET /requests/:id and GET /requests (in the dialect's envelope, order and filters).

import { listParam, notFound, validationError, type RouteModule, type SandboxState } from '../context.js';
import { inOrder, listingParams } from '../listing-params.js';
import { listEnvelope } from '../page-envelope.js';
import { requestFilters } from '../request-filters.js';
import { readCallbackUrl } from '../callbacks.js';
import { FINISHED, type StoredRequest } from '../request-store.js';
import { validateSearchBody } from '../search-validation.js';
import { refusedAsSecret, secretRefusal } from '../secret-search.js';
import { shownStatus } from '../shown-status.js';

const iso = (ms: number) => new Date(ms).toISOString();

function renderRequest(state: SandboxState, r: StoredRequest, now: number, shown?: { status: string; updatedMs: number }): Record<string, unknown> {
  return {
    request_id: r.id,
    search: JSON.parse(r.echoJson),
    origin: state.store.originOf(r),
    origin_id: state.store.originIdOf(r),
    user_id: r.userId,
    status: shown?.status ?? shownStatus(state, r, state.store.statusAt(r, now)),
    tags: { dashboard_id: null },
    created_at: iso(r.createdMs),
    updated_at: iso(shown?.updatedMs ?? state.store.updatedAt(r, now)),
    // The emulator's own field, not the provider's: what of the request it did not honour (docs/sandbox.md).
    ...(r.ignored ? { sandbox_ignored: r.ignored } : {}),
  };
}

/**
 * The status the requests listing shows. Under the `stale_listing` fault some finished requests are shown
 * still running, as an upstream whose listing lags its own records would (GET /requests/<id> tells the truth).
 */
function listedState(state: SandboxState, r: StoredRequest, now: number): { status: string; updatedMs: number } {
  const status = state.store.statusAt(r, now);
  if (FINISHED.includes(status) && state.faults.listsStale(r.seq)) return { status: shownStatus(state, r, 'started'), updatedMs: r.startMs };
  return { status: shownStatus(state, r, status), updatedMs: state.store.updatedAt(r, now) };
}

export const requestRoutes: RouteModule = (state) => [
  {
    method: 'POST', path: '/requests', api: true, mutates: true,
    handle: ({ body, apiKey, now }) => {
      const v = validateSearchBody(body);
      const bad: string[] = [];
      const callbackUrl = readCallbackUrl(body, bad);
      if (!v.ok) return validationError([...v.reasons, ...bad], bad.length ? 400 : v.status, v.status === 422 && !bad.length ? 'Invalid CNJ number' : 'Invalid search');
      if (bad.length) return validationError(bad, 400, 'Invalid search');
      if (refusedAsSecret(state, v.search, now)) return secretRefusal();
      const r = state.store.create(apiKey, v.search, now, state.faults.forRequest(state.store.nextSeq()), {
        levels: state.dialect.levels, unavailable: (code) => state.faults.unavailableLawsuit(code), callbackUrl,
      });
      if (v.search.ignored?.length) r.ignored = v.search.ignored;
      return { status: state.dialect.createdStatus, body: renderRequest(state, r, now, { status: 'pending', updatedMs: r.createdMs }) };
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
      const { page, pageSize, direction } = listingParams(state.dialect, 'requests', url, { filters: state.dialect.requestFilters }, reasons);
      const matches = requestFilters(state, url, reasons);
      if (reasons.length) return validationError(reasons);
      // By creation: the spec's reading lists newest first, the documented examples oldest first (docs/dialect-and-spec-gaps.md, "Spec gaps").
      const all = inOrder(state.store.listOf(apiKey), direction)
        .map((r) => ({ r, shown: listedState(state, r, now) }))
        .filter(({ r, shown }) => matches(r, shown.status));
      return {
        status: 200,
        body: listEnvelope(state.dialect, {
          baseUrl: state.baseUrl(), path: '/requests', all, page, pageSize, statuses: listParam(url, 'status'),
          render: ({ r, shown }) => renderRequest(state, r, now, shown),
        }),
      };
    },
  },
];

