// GET /responses: the response items of one request (or of all the key's requests), in the counts form of the
// pagination envelope, with the filters README, "Spec gaps" names. Without request_id the items of every
// request are merged by creation time (response-listing.ts).

import { listParam, notFound, pagination, unknownParams, validationError, type RouteModule, type SandboxState } from '../context.js';
import { hash } from '../random.js';
import { REQUEST_STATUSES, type ItemKind, type StoredRequest } from '../request-store.js';
import { listItems } from '../response-listing.js';

const iso = (ms: number) => new Date(ms).toISOString();
const RESPONSE_TYPES = ['lawsuit', 'application_error', 'parties', 'attachments', 'steps', 'lawsuits'];
const KNOWN = ['request_id', 'page', 'page_size', 'order_by', 'order', 'response_type', 'request_status',
  'request_created_at_gte', 'request_created_at_lte', 'created_at_gte', 'created_at_lte'];

export function renderItem(state: SandboxState, r: StoredRequest, n: number, now: number): Record<string, unknown> {
  const { universe, store, options } = state;
  const s = r.search;
  const kind = store.itemKind(r, n);
  let data: unknown;
  let cached = false;
  if (kind === 'error') {
    data = { code: 2, message: 'LAWSUIT_NOT_FOUND' };
  } else {
    const it = store.itemLawsuit(r, n);
    cached = it.cached;
    const shape = s.type === 'lawsuit_cnj' || s.type === 'lawsuit_id' ? 'full' : 'search';
    const privileged = s.customerKey !== undefined && options.credentialKeys.includes(s.customerKey);
    data = universe.lawsuit(it.index, it.observedAt, { onDemand: s.onDemand, shape, privileged });
  }
  const item: Record<string, unknown> = {
    request_id: r.id,
    response_id: store.responseIdOf(r, n),
    origin: 'api',
    origin_id: state.store.originIdOf(r),
    response_type: kind === 'error' ? 'application_error' : 'lawsuit',
    response_data: data,
    user_id: r.userId,
    created_at: iso(store.itemTime(r, n)),
  };
  // Seen on some items only (spec): half of the requests carry it.
  if (hash(options.seed, 960, r.seq) % 2 === 0) item.request_created_at = iso(r.createdMs);
  item.request_status = store.statusAt(r, now);
  item.tags = { debug: false, dashboard_id: null, cached_response: cached };
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
      // An upstream that does not know our guessed filter names ignores them (the `ignore_filters` fault).
      const lenient = state.faults.ignoresFilters();
      const param = (name: string) => (lenient ? null : url.searchParams.get(name));
      if (!lenient) unknownParams(url, KNOWN, reasons);
      const order = param('order') ?? 'asc';
      if (order !== 'asc' && order !== 'desc') reasons.push('order must be asc or desc');
      const orderBy = param('order_by') ?? 'created_at';
      if (orderBy !== 'created_at') reasons.push('order_by must be created_at');
      const types = lenient ? [] : listParam(url, 'response_type');
      for (const t of types) if (!RESPONSE_TYPES.includes(t)) reasons.push(`response_type must be among ${RESPONSE_TYPES.join(', ')} (got ${JSON.stringify(t).slice(0, 40)})`);
      const statuses = lenient ? [] : listParam(url, 'request_status');
      for (const t of statuses) if (!(REQUEST_STATUSES as readonly string[]).includes(t)) reasons.push(`request_status must be among ${REQUEST_STATUSES.join(', ')} (got ${JSON.stringify(t).slice(0, 40)})`);
      const reqGte = lenient ? undefined : dateParam(url, 'request_created_at_gte', reasons);
      const reqLte = lenient ? undefined : dateParam(url, 'request_created_at_lte', reasons);
      const gte = lenient ? undefined : dateParam(url, 'created_at_gte', reasons);
      const lte = lenient ? undefined : dateParam(url, 'created_at_lte', reasons);
      if (reasons.length) return validationError(reasons);
      const requestId = url.searchParams.get('request_id');
      let requests: readonly StoredRequest[];
      const store = state.store;
      const one = requestId === null ? undefined : store.get(requestId, apiKey);
      if (requestId !== null && !one) return notFound('request');
      // `lawsuits` is the listing's plural alias of `lawsuit`; parties, attachments and steps items never occur.
      const kinds = types.flatMap((t): ItemKind[] => (t === 'lawsuit' || t === 'lawsuits' ? ['lawsuit'] : t === 'application_error' ? ['error'] : []));
      const noKind = types.length > 0 && kinds.length === 0;
      requests = noKind ? [] : one ? [one] : store.listOf(apiKey);
      requests = requests.filter((r) => (statuses.length === 0 || statuses.includes(store.statusAt(r, now)))
        && (reqGte === undefined || r.createdMs >= reqGte) && (reqLte === undefined || r.createdMs <= reqLte));
      const { total, items } = listItems(store, requests, {
        gte, lte, kinds,
        order: order as 'asc' | 'desc', offset: (page - 1) * pageSize, limit: pageSize,
      }, now);
      const body: Record<string, unknown> = {};
      if (one) body.request_status = store.statusAt(one, now);
      Object.assign(body, {
        page,
        page_count: items.length,
        all_pages_count: Math.ceil(total / pageSize),
        all_count: total,
        page_data: items.map(({ r, n }) => renderItem(state, r, n, now)),
      });
      return { status: 200, body };
    },
  },
];
