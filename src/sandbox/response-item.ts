// A response item as the provider shows it: in a page of GET /responses (routes/responses.ts) and as the payload of a
// `response_created` delivery to a request's or tracking's callback_url (callbacks.ts). One rendering, so that a
// pushed response and a listed one are the same item.

import type { SandboxState } from './context.js';
import { isLawsuitLevel, LAWSUIT_NOT_FOUND } from './levels.js';
import { hash } from './random.js';
import type { StoredRequest } from './request-store.js';
import { shownStatus } from './shown-status.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** Item n of request r as seen at `now` (its request_status is the request's at that instant). */
export function renderResponseItem(state: SandboxState, r: StoredRequest, n: number, now: number): Record<string, unknown> {
  const { universe, store, options } = state;
  const s = r.search;
  const kind = store.itemKind(r, n);
  let data: unknown;
  let cached = false;
  if (kind === 'error') {
    data = { ...(r.appError ?? LAWSUIT_NOT_FOUND) };
  } else {
    const it = store.itemLawsuit(r, n);
    cached = it.cached;
    // Two levels: a document or name search (or such a tracking's run) answers headers (levels.ts).
    const shape = isLawsuitLevel(s.type) ? 'full' : 'search';
    const privileged = s.customerKey !== undefined && options.credentialKeys.includes(s.customerKey);
    data = universe.lawsuit(it.index, it.observedAt, { onDemand: s.onDemand, shape, privileged, levels: state.dialect.levels });
  }
  const item: Record<string, unknown> = {
    request_id: r.id,
    response_id: store.responseIdOf(r, n),
    origin: state.store.originOf(r),
    origin_id: state.store.originIdOf(r),
    response_type: kind === 'error' ? 'application_error' : 'lawsuit',
    response_data: data,
    user_id: r.userId,
    created_at: iso(store.itemTime(r, n)),
  };
  // Seen on some items only (spec): half of the requests carry it.
  if (hash(options.seed, 960, r.seq) % 2 === 0) item.request_created_at = iso(r.createdMs);
  item.request_status = shownStatus(state, r, store.statusAt(r, now));
  item.tags = { debug: false, dashboard_id: null, cached_response: cached };
  return item;
}
