import { API_CODES, ApiError } from './errors.js';
import type { HttpClient } from './http.js';
import { readEnvelope, walkItems, type Page, type WalkOptions } from './paginate.js';
import type { Search, Tracking } from '../spec/types.js';
import { record } from './validate.js';

// Tracking (monitoring) records. A duplicate is answered 409 with the existing id in error.data
// (docs/dialect-and-spec-gaps.md, "Spec gaps"); that is an expected outcome, not a failure, so it comes back as a value. For the
// same reason a creation may be retried after an ambiguous failure: a second one can only meet that 409.

export function parseTracking(v: unknown): Tracking {
  return record<Tracking>(v, 'tracking', ['tracking_id', 'status']);
}

export type CreateTrackingResult =
  | { conflict: false; tracking: Tracking }
  | { conflict: true; /** The existing tracking's id, when the service named it. */ trackingId?: string };

export interface ListTrackingQuery {
  /** 1-based. Default 1. */
  page?: number;
  /** Default 20 (service), maximum 100. */
  pageSize?: number;
  /** Repeated status filter: active, updated, updating, ... */
  status?: string[];
}

export class TrackingResource {
  constructor(private readonly http: HttpClient) {}

  async create(search: Search, recurrence: number, opts: { priority?: number } = {}): Promise<CreateTrackingResult> {
    try {
      const res = await this.http.call({
        base: 'tracking', method: 'POST', path: '/tracking', route: 'POST /tracking',
        body: { recurrence, search }, safety: 'idempotent', priority: opts.priority, parse: parseTracking,
      });
      return { conflict: false, tracking: res.body };
    } catch (e) {
      if (e instanceof ApiError && e.code === API_CODES.conflict) {
        const id = e.reasons.find((r) => /^[0-9a-f-]{8,}$/i.test(r));
        return id === undefined ? { conflict: true } : { conflict: true, trackingId: id };
      }
      throw e;
    }
  }

  async list(q: ListTrackingQuery = {}, next?: string): Promise<Page<Tracking>> {
    const res = await this.http.call({
      base: 'tracking', method: 'GET', path: '/tracking', absolute: next, route: 'GET /tracking',
      query: { page: q.page, page_size: q.pageSize, status: q.status },
      parse: (b) => readEnvelope(b, parseTracking),
    });
    return res.body;
  }

  /** Every tracking record, page after page. */
  walk(q: Omit<ListTrackingQuery, 'page'> = {}, opts: WalkOptions = {}): AsyncGenerator<Tracking> {
    return walkItems((c) => this.list({ ...q, page: c.page }, c.next), { label: 'GET /tracking', ...opts });
  }
}
