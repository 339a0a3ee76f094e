// GET /responses: the response items of one request (or of all the key's requests), in the counts form of the
// pagination envelope, with the filters docs/dialect-and-spec-gaps.md, "Spec gaps" names (the dialect's `responseFilters`: the
// documented one knows only the creation-date bounds). Without request_id the items of every request are
// merged by creation time (response-listing.ts).

import { listParam, notFound, validationError, type RouteModule } from '../context.js';
import { dateParam, listingParams } from '../listing-params.js';
import { flatCounts } from '../page-envelope.js';
import { REQUEST_STATUSES, type ItemKind, type StoredRequest } from '../request-store.js';
import { renderResponseItem } from '../response-item.js';
import { listItems } from '../response-listing.js';
import { shownStatus } from '../shown-status.js';

const RESPONSE_TYPES = ['lawsuit', 'application_error', 'parties', 'attachments', 'steps', 'lawsuits'];

export const responseRoutes: RouteModule = (state) => [
  {
    method: 'GET', path: '/responses', api: true,
    handle: ({ url, apiKey, now }) => {
      const reasons: string[] = [];
      const d = state.dialect;
      // An upstream that does not know our guessed filter names ignores them (the `ignore_filters` fault).
      const lenient = state.faults.ignoresFilters();
      const { page, pageSize, direction } = listingParams(d, 'responses', url, { leading: ['request_id'], filters: d.responseFilters, lenient }, reasons);
      const honoured = (name: string) => !lenient && d.responseFilters.includes(name);
      const types = honoured('response_type') ? listParam(url, 'response_type') : [];
      for (const t of types) if (!RESPONSE_TYPES.includes(t)) reasons.push(`response_type must be among ${RESPONSE_TYPES.join(', ')} (got ${JSON.stringify(t).slice(0, 40)})`);
      const statuses = honoured('request_status') ? listParam(url, 'request_status') : [];
      for (const t of statuses) if (!(REQUEST_STATUSES as readonly string[]).includes(t)) reasons.push(`request_status must be among ${REQUEST_STATUSES.join(', ')} (got ${JSON.stringify(t).slice(0, 40)})`);
      const reqGte = honoured('request_created_at_gte') ? dateParam(url, 'request_created_at_gte', reasons) : undefined;
      const reqLte = honoured('request_created_at_lte') ? dateParam(url, 'request_created_at_lte', reasons) : undefined;
      const gte = honoured('created_at_gte') ? dateParam(url, 'created_at_gte', reasons) : undefined;
      const lte = honoured('created_at_lte') ? dateParam(url, 'created_at_lte', reasons) : undefined;
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
        order: direction, offset: (page - 1) * pageSize, limit: pageSize,
      }, now);
      const body: Record<string, unknown> = {};
      if (one) body.request_status = shownStatus(state, one, store.statusAt(one, now));
      Object.assign(body, flatCounts(d, page, pageSize, items.length, total), { page_data: items.map(({ r, n }) => renderResponseItem(state, r, n, now)) });
      return { status: 200, body };
    },
  },
];
