// GET /responses: the response items of one request (or of all the caller's requests), in the counts form of
// the pagination envelope, with the filters README, "Spec gaps" names.

import { listParam, notFound, pagination, validationError, type RouteModule, type SandboxState } from '../context.js';
import { hash } from '../random.js';
import type { ItemRef, StoredRequest } from '../request-store.js';

const iso = (ms: number) => new Date(ms).toISOString();
const RESPONSE_TYPES = ['lawsuit', 'application_error', 'parties', 'attachments', 'steps', 'lawsuits'];
const REQUEST_STATUSES = ['created', 'pending', 'started', 'cancelling', 'cancelled', 'completed'];

export function renderItem(state: SandboxState, r: StoredRequest, it: ItemRef, status: string): Record<string, unknown> {
  const { universe, store, options } = state;
  const s = r.search;
  let data: unknown;
  if (it.kind === 'error') {
    data = { code: 2, message: 'LAWSUIT_NOT_FOUND' };
  } else {
    const shape = s.type === 'lawsuit_cnj' || s.type === 'lawsuit_id' ? 'full' : 'search';
    const privileged = s.customerKey !== undefined && options.credentialKeys.includes(s.customerKey);
    data = universe.lawsuit(it.index, it.observedAt, { onDemand: s.onDemand, shape, privileged });
  }
  const item: Record<string, unknown> = {
    request_id: r.id,
    response_id: store.responseIdOf(r, it.n),
    origin: 'api',
    origin_id: r.originId,
    response_type: it.kind === 'error' ? 'application_error' : 'lawsuit',
    response_data: data,
    user_id: r.userId,
    // Items of one court share its instant; the item's rank keeps them strictly ordered.
    created_at: iso(it.visibleAt + it.n),
  };
  // Seen on some items only (spec): half of the requests carry it.
  if (hash(options.seed, 960, r.seq) % 2 === 0) item.request_created_at = iso(r.createdMs);
  item.request_status = status;
  item.tags = { debug: false, dashboard_id: null, cached_response: it.cached };
  return item;
}

function dateParam(url: URL, name: string, reasons: string[]): number | undefined {
  const v = url.searchParams.get(name);
  if (v === null) return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) reasons.push(`${name} must be an ISO 8601 date-time`);
  return ms;
}

export const responseRoutes: RouteModule = (state) => [
  {
    method: 'GET', path: '/responses', api: true,
    handle: ({ url, apiKey, now }) => {
      const reasons: string[] = [];
      const { page, pageSize } = pagination(url, reasons);
      const order = url.searchParams.get('order') ?? 'asc';
      if (order !== 'asc' && order !== 'desc') reasons.push('order must be asc or desc');
      const orderBy = url.searchParams.get('order_by') ?? 'created_at';
      if (orderBy !== 'created_at') reasons.push('order_by must be created_at');
      const types = listParam(url, 'response_type');
      for (const t of types) if (!RESPONSE_TYPES.includes(t)) reasons.push(`response_type must be among ${RESPONSE_TYPES.join(', ')}`);
      const statuses = listParam(url, 'request_status');
      for (const t of statuses) if (!REQUEST_STATUSES.includes(t)) reasons.push(`request_status must be among ${REQUEST_STATUSES.join(', ')}`);
      const reqGte = dateParam(url, 'request_created_at_gte', reasons);
      const reqLte = dateParam(url, 'request_created_at_lte', reasons);
      const gte = dateParam(url, 'created_at_gte', reasons);
      const lte = dateParam(url, 'created_at_lte', reasons);
      if (reasons.length) return validationError(reasons);
      const requestId = url.searchParams.get('request_id');
      let requests: StoredRequest[];
      if (requestId !== null) {
        const r = state.store.get(requestId, apiKey);
        if (!r) return notFound('request');
        requests = [r];
      } else {
        requests = state.store.listOf(apiKey);
      }
      const wanted = types.map((t) => (t === 'lawsuits' ? 'lawsuit' : t === 'application_error' ? 'error' : t));
      const rows: Array<{ r: StoredRequest; it: ItemRef; status: string }> = [];
      for (const r of requests) {
        const status = state.store.statusAt(r, now);
        if (statuses.length && !statuses.includes(status)) continue;
        if (reqGte !== undefined && r.createdMs < reqGte) continue;
        if (reqLte !== undefined && r.createdMs > reqLte) continue;
        for (const it of r.items) {
          if (it.visibleAt > now) continue;
          if (wanted.length && !wanted.includes(it.kind)) continue;
          const created = it.visibleAt + it.n;
          if (gte !== undefined && created < gte) continue;
          if (lte !== undefined && created > lte) continue;
          rows.push({ r, it, status });
        }
      }
      if (order === 'desc') rows.reverse();
      const allPages = Math.ceil(rows.length / pageSize);
      const slice = rows.slice((page - 1) * pageSize, page * pageSize);
      const body: Record<string, unknown> = {};
      if (requests.length === 1 && requestId !== null) body.request_status = state.store.statusAt(requests[0], now);
      Object.assign(body, {
        page,
        page_count: slice.length,
        all_pages_count: allPages,
        all_count: rows.length,
        page_data: slice.map(({ r, it, status }) => renderItem(state, r, it, status)),
      });
      return { status: 200, body };
    },
  },
];
