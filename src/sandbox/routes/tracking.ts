// POST /tracking and GET /tracking (the dialect's envelope and order, repeatable status filter), plus an
// introspection route to pause a record, since the spec shows no pause endpoint.

import { listParam, notFound, validationError, type RouteModule, type SandboxState } from '../context.js';
import { inOrder, listingParams } from '../listing-params.js';
import { listEnvelope } from '../page-envelope.js';
import { validateSearchBody } from '../search-validation.js';
import { TRACKING_STATUSES, TrackingStore, type StoredTracking } from '../sync/tracking-store.js';

/** Key of `state.extensions` under which the tracking store lives (white-box tests reach it there). */
const TRACKING_STORE_KEY = 'tracking.store';

const iso = (ms: number) => new Date(ms).toISOString();
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function trackingStoreOf(state: SandboxState): TrackingStore {
  let store = state.extensions.get(TRACKING_STORE_KEY) as TrackingStore | undefined;
  if (!store) { store = new TrackingStore(state.options.seed, state.options.bootId); state.extensions.set(TRACKING_STORE_KEY, store); }
  return store;
}

function render(store: TrackingStore, t: StoredTracking, now: number): Record<string, unknown> {
  const st = store.stateAt(t, now);
  return {
    tracking_id: t.id,
    user_id: t.userId,
    status: st.status,
    recurrence: t.recurrence,
    search: t.search.echo,
    created_at: iso(t.createdMs),
    updated_at: iso(st.sinceMs),
  };
}

export const trackingRoutes: RouteModule = (state) => {
  const store = trackingStoreOf(state);
  return [
    {
      method: 'POST', path: '/tracking', api: true, mutates: true,
      handle: ({ body, apiKey, now }) => {
        const reasons: string[] = [];
        const rec = isObj(body) ? body.recurrence : undefined;
        if (!Number.isInteger(rec) || (rec as number) < 1) reasons.push('recurrence must be a whole number of days >= 1');
        const v = validateSearchBody(body);
        if (!v.ok) return validationError([...v.reasons, ...reasons], reasons.length ? 400 : v.status, v.status === 422 && !reasons.length ? 'Invalid CNJ number' : 'Invalid tracking');
        if (reasons.length) return validationError(reasons, 400, 'Invalid tracking');
        const dup = store.existing(apiKey, v.search);
        if (dup) {
          return { status: 409, body: { error: { name: 'Conflict', message: 'A tracking of this search already exists', data: [dup.id] } } };
        }
        const t = store.create(apiKey, state.store.userIdOf(apiKey), v.search, rec as number, now);
        return { status: 200, body: render(store, t, now) };
      },
    },
    {
      method: 'GET', path: '/tracking', api: true,
      handle: ({ url, apiKey, now }) => {
        const reasons: string[] = [];
        const { page, pageSize, direction } = listingParams(state.dialect, 'tracking', url, { filters: ['status'] }, reasons);
        const statuses = listParam(url, 'status');
        for (const s of statuses) {
          if (!(TRACKING_STATUSES as readonly string[]).includes(s)) reasons.push(`status must be among ${TRACKING_STATUSES.join(', ')} (got ${JSON.stringify(s).slice(0, 40)})`);
        }
        if (reasons.length) return validationError(reasons);
        const all = inOrder(store.listOf(apiKey), direction).filter((t) => statuses.length === 0 || statuses.includes(store.stateAt(t, now).status));
        return {
          status: 200,
          body: listEnvelope(state.dialect, { baseUrl: state.baseUrl(), path: '/tracking', all, page, pageSize, statuses, render: (t: StoredTracking) => render(store, t, now) }),
        };
      },
    },
    {
      method: 'POST', path: '/_sandbox/tracking/:id/pause', api: false,
      handle: ({ params, now }) => {
        const t = store.get(params.id);
        if (!t) return notFound('tracking');
        store.pause(t, now);
        return { status: 200, body: render(store, t, now) };
      },
    },
  ];
};
