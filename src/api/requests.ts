import { besideTheSearch } from './beside-the-search.js';
import type { Logger } from 'pino';
import { EtlError } from '../shared/errors.js';
import { resolveFailure } from '../shared/failure-policy.js';
import type { HttpClient } from './http.js';
import { retrying, type Healed } from './retry-loop.js';
import { readEnvelope, walkItems, walkPages, type Cursor, type Page, type WalkOptions } from './paginate.js';
import { NewestFirstWatch } from './listing-order.js';
import { sameSearch } from './search-match.js';
import type { RequestObject, Search } from '../spec/types.js';
import { record, str, obj } from './validate.js';

// Asynchronous requests. POST /requests may be billed, so it is never sent twice for one search unless the
// first surely was not acted on: the HTTP layer retries it only after a 429 or a refused connection, and
// after an ambiguous failure (a reset or time-out once the body was sent, or a 5xx) the failure policy asks
// for a look-up, which this module makes (in the one retry loop): it looks for the request in the listing, and
// submits again only when it is not there.

function parseRequest(v: unknown): RequestObject {
  const r = record<RequestObject>(v, 'request', ['request_id', 'status']);
  str(r, 'created_at', 'request');
  obj(r.search, 'request.search');
  return r;
}

interface CreateRequestOptions {
  /** Limiter priority. Default 1, so that submissions are not starved by polling. */
  priority?: number;
  /** Least wait before looking for a request whose creation went unanswered (the backoff comes on top), in ms. Default 1000. */
  lookupDelayMs?: number;
  /** How many times an ambiguous failure is resolved by a look-up before giving up. Default 3. */
  maxLookups?: number;
  /** Requests already accounted for (e.g. found for another search) that a look-up must not claim. */
  exclude?: ReadonlySet<string>;
  /** Sends `with_attachments: true` at the top level of the body, beside the search (lawsuit_cnj searches). Default false. */
  withAttachments?: boolean;
}

interface ListRequestsQuery {
  /** 1-based. Default 1. */
  page?: number;
  /** Default 20 (service), maximum 100. */
  pageSize?: number;
  /** One or several of created, pending, started, cancelling, cancelled, completed. */
  status?: string | string[];
  /** Requests created at or after this instant (ISO), as the provider documents `created_at_gte`. */
  createdGte?: string;
  /** Sort, with the provider's documented names (`orderField`, `orderDirection`): an upstream may ignore it. */
  newestFirst?: boolean;
  /** Who made the requests: `api` (a client's POST /requests) or `tracking` (a tracking's runs), as documented. */
  origin?: 'api' | 'tracking';
}

/** Whether an unanswered submission reached the provider could not be told: see findSubmitted. */
class LookupUnprovenError extends EtlError {
  constructor(message: string) {
    super('REQUEST_LOOKUP_UNPROVEN', message);
    this.name = 'LookupUnprovenError';
  }
}

interface RequestsOptions {
  logger?: Logger;
  /**
   * The look-up's margin: how long before our own clock at a submission the provider's created_at of it may be,
   * beyond how far behind ours its answered creations showed its created_at, in ms. Default 60 000.
   */
  clockSkewMs?: number;
  /** Default for CreateRequestOptions.lookupDelayMs, in ms. Default 1000. */
  lookupDelayMs?: number;
  /** Sent as `callback_url` (top level of the body) with every request made, so that its responses are pushed there. */
  callbackUrl?: string;
}

export class RequestsResource {
  /**
   * How far behind our clock the provider's created_at has been seen, in ms (never below 0): by each answered
   * creation, whose created_at was stamped before our clock read its answer. Only ever widens the look-up.
   */
  private createdBehindMs = 0;

  constructor(private readonly http: HttpClient, private readonly opts: RequestsOptions = {}) {}

  async create(search: Search, opts: CreateRequestOptions = {}): Promise<RequestObject> {
    const since = Date.now();
    const lookupDelayMs = opts.lookupDelayMs ?? this.opts.lookupDelayMs ?? 1000;
    const lookup = async (): Promise<Healed<RequestObject>> => {
      const found = await this.findSubmitted(search, since, { exclude: opts.exclude });
      if (!found) return 'again';
      this.opts.logger?.info({ request_id: found.request_id }, 'request was created despite the failed answer');
      return { result: found };
    };
    return retrying({
      attempt: async () => {
        const made = (await this.http.call({
          base: 'requests', method: 'POST', path: '/requests', route: 'POST /requests',
          // The spec shows the request returned; the documentation lists 201 and 202 as success.
          body: { search, ...besideTheSearch({ withAttachments: opts.withAttachments, callbackUrl: this.opts.callbackUrl }) }, safety: 'unsafe', priority: opts.priority ?? 1, parse: parseRequest, ok: [200, 201, 202],
        })).body;
        const behind = Date.now() - Date.parse(made.created_at);
        if (behind > this.createdBehindMs) this.createdBehindMs = behind;
        return made;
      },
      call: { safety: 'unsafe' },
      // What a plain retry can fix the client did already; here a creation that may have been made is looked for,
      // and submitted again only when the listing proves it was not.
      acts: { lookup },
      retries: opts.maxLookups ?? 3,
      // The provider needs a moment to list what it made: the delay is a floor, the client's backoff (a 503's
      // Retry-After honoured, jittered) comes on top, but for a Retry-After too long to honour (a look-up is a
      // read the client retries on its own terms).
      backoff: (n, e) => {
        const d = this.http.backoffFor(n, e);
        return { ms: lookupDelayMs + (d.giveUp ? 0 : d.ms), giveUp: false };
      },
      sleep: (ms) => this.http.wait(ms),
      onRetry: (e) => {
        const err = e as { code?: string; statusCode?: number };
        this.opts.logger?.warn({ route: 'POST /requests', code: err.code, status: err.statusCode }, 'request creation unanswered; looking for it before submitting again');
      },
    });
  }

  private walkDefaults(): WalkOptions {
    return { onStop: (why, fields) => this.opts.logger?.warn(fields, why) };
  }

  async get(requestId: string, opts: { priority?: number } = {}): Promise<RequestObject> {
    const res = await this.http.call({
      base: 'requests', method: 'GET', path: `/requests/${encodeURIComponent(requestId)}`, route: 'GET /requests/:id',
      priority: opts.priority, parse: parseRequest,
    });
    return res.body;
  }

  async list(q: ListRequestsQuery = {}, next?: string): Promise<Page<RequestObject>> {
    const res = await this.http.call({
      base: 'requests', method: 'GET', path: '/requests', absolute: next, route: 'GET /requests',
      query: {
        page: q.page, page_size: q.pageSize, status: q.status, created_at_gte: q.createdGte, origin: q.origin,
        ...(q.newestFirst === undefined ? {} : { orderField: 'created_at', orderDirection: q.newestFirst ? 'desc' : 'asc' }),
      },
      parse: (b) => readEnvelope(b, (v) => parseRequest(v)),
    });
    return res.body;
  }

  /** Every request of the listing (newest first), page after page. */
  walk(q: Omit<ListRequestsQuery, 'page'> = {}, opts: WalkOptions = {}): AsyncGenerator<RequestObject> {
    return walkItems((c) => this.list({ ...q, page: c.page }, c.next), { label: 'GET /requests', ...this.walkDefaults(), ...opts });
  }

  /**
   * The earliest `created_at` the look-up takes for a request we sent at `local` (our clock, epoch ms): our own
   * clock less a margin, and less how far behind ours the provider's created_at of our answered creations ran.
   * Never the provider's Date header: a Date a day ahead (a proxy's, or a clock that is not its created_at's)
   * bounded the look-up at tomorrow, found nothing, and the search was bought again. A bound too early costs a
   * page more of the listing; one too late buys twice.
   */
  private earliestCreatedAt(local: number): number {
    return local - (this.opts.clockSkewMs ?? 60_000) - this.createdBehindMs;
  }

  /**
   * Every page of the requests created at or after `since` (epoch ms on the provider's clock), asked newest
   * first by the documented names (an upstream may ignore either: NewestFirstWatch tells from the pages). An
   * upstream that refuses the names it does not know (400, as the spec's reading does) is asked again with the
   * spec's alone, and then lists its whole history.
   */
  walkSince(since: number, opts: { status?: string[] } & WalkOptions = {}): AsyncGenerator<Page<RequestObject>> {
    let plain = false;
    const { status, ...walk } = opts;
    const page = async (c: Cursor): Promise<Page<RequestObject>> => {
      if (!plain) {
        try {
          return await this.list({ page: c.page, pageSize: 100, status, createdGte: new Date(since).toISOString(), newestFirst: true }, c.next);
        } catch (e) {
          if (resolveFailure(e, { plainer: c.page === 1 }).action !== 'ask-plainer') throw e;
          plain = true;
        }
      }
      return this.list({ page: c.page, pageSize: 100, status }, c.next);
    };
    return walkPages(page, { label: 'GET /requests', ...walk });
  }

  /**
   * The most recent request for `search` the provider created at or after our local time `since` (epoch ms or
   * Date), or undefined when the listing proves there is none. The provider's created_at is compared with our
   * own clock, less a margin (see earliestCreatedAt).
   *
   * Buying a search twice is what this must never cause, so "none" is concluded only from what was read, never
   * from an order assumed: the listing is asked for the requests created since then, newest first (the
   * provider's documented names), and read to its end — or until its pages have shown they are newest first and
   * reached a request older than the bound. An upstream that ignores both (its documented examples list oldest
   * first) is read whole. A walk that ends early (a listing that lies, the page ceiling) proves nothing: then
   * LookupUnprovenError, and the search waits for the next run's look-up.
   */
  async findSubmitted(search: Search, since: number | Date, opts: { exclude?: ReadonlySet<string> } = {}): Promise<RequestObject | undefined> {
    const local = typeof since === 'number' ? since : since.getTime();
    const bound = this.earliestCreatedAt(local);
    let stoppedEarly: string | undefined;
    let best: RequestObject | undefined;
    const order = new NewestFirstWatch();
    const walk = this.walkSince(bound, { onStop: (why, fields) => { stoppedEarly = why; this.opts.logger?.warn(fields, why); } });
    for await (const page of walk) {
      order.saw(page.items.map((r) => Date.parse(r.created_at)));
      let older = false;
      for (const r of page.items) {
        const at = Date.parse(r.created_at);
        if (Number.isNaN(at)) continue;
        if (at < bound) { older = true; continue; }
        if (opts.exclude?.has(r.request_id) || !sameSearch(search, r.search)) continue;
        if (!best || at > Date.parse(best.created_at)) best = r;
      }
      if (older && order.shown()) return best;
    }
    if (stoppedEarly) throw new LookupUnprovenError(`cannot tell whether an unanswered submission reached the provider (${stoppedEarly}): not submitted again until a look-up can tell`);
    return best;
  }
}
