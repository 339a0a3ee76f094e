// The tracking endpoints: POST /tracking and GET /tracking (the dialect's envelope, order and filters), and the
// single record's GET /tracking/<id> (with its latest run's request_id), POST /tracking/<id>/pause and /resume,
// DELETE /tracking/<id>, which the documentation lists and the spec does not show (docs/sandbox.md, "The sandbox"). A
// tracking of another key is unknown to the caller (404), as a request is.

import { readCallbackUrl } from '../callbacks.js';
import { listParam, notFound, validationError, type CallContext, type Reply, type RouteModule, type SandboxState } from '../context.js';
import { dateParam, inOrder, listingParams } from '../listing-params.js';
import { listEnvelope } from '../page-envelope.js';
import { keyForm } from '../request-filters.js';
import { SEARCH_TYPES, validateSearchBody, type SearchType } from '../search-validation.js';
import type { StoredTracking } from '../tracking/records.js';
import { TRACKING_STATUSES, trackingStatus } from '../tracking/status.js';

const iso = (ms: number) => new Date(ms).toISOString();
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function renderTracking(state: SandboxState, t: StoredTracking, now: number): Record<string, unknown> {
  const st = trackingStatus(state.dialect, state.store, t, now);
  return {
    tracking_id: t.id,
    user_id: t.userId,
    status: st.status,
    recurrence: t.recurrence,
    search: JSON.parse(t.echoJson),
    // The latest run's request (GET /responses?request_id= reads it), null before the first run.
    request_id: t.latest?.id ?? null,
    paused_at: t.pausedMs === undefined ? null : iso(t.pausedMs),
    created_at: iso(t.createdMs),
    updated_at: iso(st.sinceMs),
  };
}

function conflict(message: string, id: string): Reply {
  return { status: 409, body: { error: { name: 'Conflict', message, data: [id] } } };
}

/** GET /tracking's filters in the dialect (`trackingFilters`); problems are collected in `reasons`. */
function trackingMatcher(state: SandboxState, url: URL, now: number, reasons: string[]): (t: StoredTracking) => boolean {
  const honoured = (name: string) => state.dialect.trackingFilters.includes(name);
  const tests: Array<(t: StoredTracking) => boolean> = [];
  const statuses = listParam(url, 'status');
  for (const s of statuses) {
    if (!(TRACKING_STATUSES as readonly string[]).includes(s)) reasons.push(`status must be among ${TRACKING_STATUSES.join(', ')} (got ${JSON.stringify(s).slice(0, 40)})`);
  }
  if (statuses.length) tests.push((t) => statuses.includes(trackingStatus(state.dialect, state.store, t, now).status));
  const types = honoured('search_type') ? listParam(url, 'search_type') : [];
  for (const t of types) if (!(SEARCH_TYPES as readonly string[]).includes(t)) reasons.push(`search_type must be among ${SEARCH_TYPES.join(', ')} (got ${JSON.stringify(t).slice(0, 40)})`);
  if (types.length) tests.push((t) => types.includes(t.search.type));
  const key = honoured('search_key') ? url.searchParams.get('search_key') : null;
  if (key !== null) tests.push((t) => keyForm(t.search.type, String(JSON.parse(t.echoJson).search_key ?? '')) === keyForm(t.search.type as SearchType, key));
  const gte = honoured('created_at_gte') ? dateParam(url, 'created_at_gte', reasons) : undefined;
  const lte = honoured('created_at_lte') ? dateParam(url, 'created_at_lte', reasons) : undefined;
  if (gte !== undefined) tests.push((t) => t.createdMs >= gte);
  if (lte !== undefined) tests.push((t) => t.createdMs <= lte);
  return (t) => tests.every((f) => f(t));
}

/** POST /tracking: a tracking of the search for the key, or 409 when the key tracks that search already. */
function createTracking({ state, body, apiKey, now }: CallContext): Reply {
  const reasons: string[] = [];
  const rec = isObj(body) ? body.recurrence : undefined;
  if (!Number.isInteger(rec) || (rec as number) < 1) reasons.push('recurrence must be a whole number of days >= 1');
  const callbackUrl = readCallbackUrl(body, reasons);
  const v = validateSearchBody(body);
  if (!v.ok) return validationError([...v.reasons, ...reasons], reasons.length ? 400 : v.status, v.status === 422 && !reasons.length ? 'Invalid CNJ number' : 'Invalid tracking');
  if (reasons.length) return validationError(reasons, 400, 'Invalid tracking');
  const dup = state.trackings.records.existing(apiKey, v.search);
  if (dup) return conflict('A tracking of this search already exists', dup.id);
  const t = state.trackings.create(apiKey, v.search, rec as number, now, { callbackUrl });
  if (callbackUrl !== undefined) state.callbacks.watchKey(apiKey);
  return { status: 200, body: renderTracking(state, t, now) };
}

/** GET /tracking: the key's trackings, a page of them in the dialect's envelope, order and filters. */
function listTrackings({ state, url, apiKey, now }: CallContext): Reply {
  const reasons: string[] = [];
  const { page, pageSize, direction } = listingParams(state.dialect, 'tracking', url, { filters: state.dialect.trackingFilters }, reasons);
  const matches = trackingMatcher(state, url, now, reasons);
  if (reasons.length) return validationError(reasons);
  const all = inOrder(state.trackings.records.listOf(apiKey), direction).filter(matches);
  return {
    status: 200,
    body: listEnvelope(state.dialect, { baseUrl: state.baseUrl(), path: '/tracking', all, page, pageSize, statuses: listParam(url, 'status'), render: (t: StoredTracking) => renderTracking(state, t, now) }),
  };
}

export const trackingRoutes: RouteModule = (state) => {
  const trackings = state.trackings;
  const one = (id: string, apiKey: string, act: (t: StoredTracking) => Reply): Reply => {
    const t = trackings.records.get(id, apiKey);
    return t ? act(t) : notFound('tracking');
  };
  return [
    { method: 'POST', path: '/tracking', api: true, mutates: true, handle: createTracking },
    { method: 'GET', path: '/tracking', api: true, handle: listTrackings },
    {
      method: 'GET', path: '/tracking/:id', api: true,
      handle: ({ params, apiKey, now }) => one(params.id, apiKey, (t) => ({ status: 200, body: renderTracking(state, t, now) })),
    },
    {
      method: 'POST', path: '/tracking/:id/pause', api: true, mutates: true,
      handle: ({ params, apiKey, now }) => one(params.id, apiKey, (t) => {
        if (t.state === 'deleted') return conflict('The tracking is deleted', t.id);
        trackings.pause(t, now);
        return { status: 200, body: renderTracking(state, t, now) };
      }),
    },
    {
      method: 'POST', path: '/tracking/:id/resume', api: true, mutates: true,
      handle: ({ params, apiKey, now }) => one(params.id, apiKey, (t) => {
        if (t.state === 'deleted') return conflict('The tracking is deleted', t.id);
        trackings.resume(t, now);
        return { status: 200, body: renderTracking(state, t, now) };
      }),
    },
    {
      method: 'DELETE', path: '/tracking/:id', api: true, mutates: true,
      handle: ({ params, apiKey, now }) => one(params.id, apiKey, (t) => {
        trackings.delete(t, now);
        return { status: 200, body: renderTracking(state, t, now) };
      }),
    },
  ];
};
