import { besideTheSearch } from './beside-the-search.js';
import { API_CODES, ApiError } from './errors.js';
import type { HttpClient } from './http.js';
import { readEnvelope, walkItems, type Page, type WalkOptions } from './paginate.js';
import { resolveFailure } from '../shared/failure-policy.js';
import type { Search, Tracking } from '../spec/types.js';
import { record } from './validate.js';

// Tracking (monitoring) records. A duplicate is answered 409 with the existing id in error.data
// (docs/dialect-and-spec-gaps.md, "Spec gaps"); that is an expected outcome, not a failure, so it comes back as a value. For the
// same reason a creation may be retried after an ambiguous failure: a second one can only meet that 409.
// The single record's calls (GET, pause, resume, DELETE) are the documented dialect's (REFERENCE.md, "Tracking";
// the spec shows none): a 404 there means the record is gone (deleted, or another key's), which is an answer
// the caller decides on, so it comes back as the value 'gone' rather than an error.

function parseTracking(v: unknown): Tracking {
  return record<Tracking>(v, 'tracking', ['tracking_id', 'status']);
}

export type CreateTrackingResult =
  | { conflict: false; tracking: Tracking }
  | { conflict: true; /** The existing tracking's id, when the service named it. */ trackingId?: string };

interface ListTrackingQuery {
  /** 1-based. Default 1. */
  page?: number;
  /** Default 20 (service); at most 100 in the spec, 1000 in the provider's documentation. */
  pageSize?: number;
  /** Repeated status filter: active, updated, updating, ... */
  status?: string[];
}

/** What a call on one tracking record answers: the record as it now stands, or 'gone' (404). */
export type TrackingAnswer = Tracking | 'gone';

/** The calls on one record that change it; each is as harmless sent twice as once, so a lost answer is retried. */
type RecordAction = 'pause' | 'resume' | 'delete';

export class TrackingResource {
  /** `callbackUrl`: sent as `callback_url` (top level of the body) with every tracking made, so that its runs' responses are pushed. */
  constructor(private readonly http: HttpClient, private readonly callbackUrl?: string) {}

  /** `withAttachments`: the tracking's runs ask for attachments (`with_attachments`, the body's top level; lawsuit_cnj). */
  async create(search: Search, recurrence: number, opts: { priority?: number; withAttachments?: boolean } = {}): Promise<CreateTrackingResult> {
    try {
      const res = await this.http.call({
        base: 'tracking', method: 'POST', path: '/tracking', route: 'POST /tracking',
        body: { recurrence, search, ...besideTheSearch({ withAttachments: opts.withAttachments, callbackUrl: this.callbackUrl }) }, safety: 'idempotent', priority: opts.priority, parse: parseTracking,
      });
      return { conflict: false, tracking: res.body };
    } catch (e) {
      if (e instanceof ApiError && resolveFailure(e, { ofRecord: true }).action === 'read-record') {
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

  /** One record, with its latest run's `request_id` (the documented dialect); 'gone' when the service has none. */
  get(id: string): Promise<TrackingAnswer> {
    return this.one(id, 'GET', `/tracking/${encodeURIComponent(id)}`, 'GET /tracking/:id');
  }

  /** Pauses the record: it makes no run until resumed. */
  pause(id: string): Promise<TrackingAnswer> {
    return this.act(id, 'pause');
  }

  /** Resumes a paused record. */
  resume(id: string): Promise<TrackingAnswer> {
    return this.act(id, 'resume');
  }

  /** Deletes the record (not reversible: only an explicit command calls this). */
  delete(id: string): Promise<TrackingAnswer> {
    return this.act(id, 'delete');
  }

  private act(id: string, action: RecordAction): Promise<TrackingAnswer> {
    const path = `/tracking/${encodeURIComponent(id)}`;
    if (action === 'delete') return this.one(id, 'DELETE', path, 'DELETE /tracking/:id');
    return this.one(id, 'POST', `${path}/${action}`, `POST /tracking/:id/${action}`);
  }

  private async one(id: string, method: 'GET' | 'POST' | 'DELETE', path: string, route: string): Promise<TrackingAnswer> {
    // An answer without a body (204, as a DELETE may give) says only that it was done.
    const parse = (b: unknown, status: number): Tracking => (status === 204 ? { tracking_id: id, status: method === 'DELETE' ? 'deleted' : 'unknown' } as Tracking : parseTracking(b));
    try {
      // A pause or resume sent twice leaves the record as once: safe to send again after a lost answer.
      const res = await this.http.call({ base: 'tracking', method, path, route, safety: 'idempotent', parse, ok: [200, 201, 202, 204] });
      return res.body;
    } catch (e) {
      if (e instanceof ApiError && e.code === API_CODES.notFound) return 'gone';
      throw e;
    }
  }

  /**
   * Every record of the key, whatever its status (no status filter: paused and deleted ones included, where the
   * service lists them), every page, in either envelope form (the walk reads both). Pages of `pageSize` (default
   * 100): a service that gives fewer a page is still walked to its end by its own envelope.
   */
  async all(opts: WalkOptions & { pageSize?: number } = {}): Promise<Tracking[]> {
    const { pageSize = 100, ...walk } = opts;
    const out: Tracking[] = [];
    for await (const t of this.walk({ pageSize }, walk)) out.push(t);
    return out;
  }

  /** Every tracking record, page after page. */
  walk(q: Omit<ListTrackingQuery, 'page'> = {}, opts: WalkOptions = {}): AsyncGenerator<Tracking> {
    return walkItems((c) => this.list({ ...q, page: c.page }, c.next), { label: 'GET /tracking', ...opts });
  }
}
