import type { Query } from './call-spec.js';
import type { HttpClient } from './http.js';
import { readEnvelope, walkPages, type Page } from './paginate.js';
import { objectMembers, pageDataElements, rememberRawText } from '../shared/raw-json.js';
import type { ResponseItem } from '../spec/types.js';
import { record } from './validate.js';
import type { SortNames } from './dialect.js';

// GET /responses, the results of asynchronous requests. Filter names follow docs/dialect-and-spec-gaps.md, "Spec gaps".

function parseResponseItem(v: unknown): ResponseItem {
  return record<ResponseItem>(v, 'response item', ['response_id', 'request_id', 'response_type']);
}

/**
 * A responses page from its text: each item, and its `response_data` object, remember the exact text they were
 * parsed from (shared/raw-json.ts; read back with rawTextOf), so that responses_raw keeps the payload as received.
 */
export function parseResponsesPage(text: string): Page<ResponseItem> {
  const page = readEnvelope(JSON.parse(text), parseResponseItem);
  const raws = pageDataElements(text);
  if (raws === undefined || raws.length !== page.items.length) return page;
  page.items.forEach((item, i) => {
    rememberRawText(item, raws[i]);
    const data = objectMembers(raws[i])?.get('response_data');
    if (data !== undefined) rememberRawText(item.response_data, data);
  });
  return page;
}

interface ResponsesQuery {
  request_id?: string;
  /** 1-based. Default 1. */
  page?: number;
  /** Default 20 (service), maximum 100. */
  page_size?: number;
  /** Default created_at (service). */
  order_by?: string;
  /** Default asc (service), which keeps read pages stable while a request still appends. */
  order?: 'asc' | 'desc';
  /**
   * Oldest first by names the upstream was seen to honour (src/api/dialect.ts), instead of `order_by`/`order`;
   * null: no sort at all (the upstream honours none; its own order must then hold still).
   */
  sort?: SortNames | null;
  response_type?: string[];
  request_status?: string[];
  request_created_at_gte?: string;
  request_created_at_lte?: string;
  created_at_gte?: string;
  created_at_lte?: string;
}

interface WalkResponsesOptions {
  /** Items per page. Default 100 (the maximum). */
  pageSize?: number;
  /** First page to read, to resume a request read in part. Default 1. */
  startPage?: number;
  /** Limiter priority. Default 0. */
  priority?: number;
}

export class ResponsesResource {
  constructor(private readonly http: HttpClient) {}

  /** One page. `opts.next` is a links.next address given by the service, followed instead of `q`. */
  list(q: ResponsesQuery = {}, opts: { priority?: number; next?: string } = {}): Promise<Page<ResponseItem>> {
    const { sort, ...rest } = q;
    if (sort === undefined) return this.page({ ...rest }, opts);
    const { order_by: _by, order: _order, ...unsorted } = rest;
    return this.page(sort === null ? unsorted : { ...unsorted, [sort.field]: sort.value, [sort.direction]: sort.asc }, opts);
  }

  /**
   * One page of the responses of every request of the key (no `request_id`), with filters whose names are the
   * caller's (the spec gives them by meaning only: configuration, docs/dialect-and-spec-gaps.md "Spec gaps").
   */
  listAcross(query: Record<string, string | number | undefined>, opts: { priority?: number } = {}): Promise<Page<ResponseItem>> {
    return this.page(query, opts);
  }

  /**
   * Every page of one request's responses in creation order. Each page carries its number and the
   * request_status seen with it, so a caller can stop at a still-running request and resume later.
   */
  walk(requestId: string, opts: WalkResponsesOptions = {}): AsyncGenerator<Page<ResponseItem>> {
    const pageSize = opts.pageSize ?? 100;
    return walkPages(
      (c) => this.list({ request_id: requestId, page: c.page, page_size: pageSize, order: 'asc' }, { priority: opts.priority, next: c.next }),
      { startPage: opts.startPage },
    );
  }

  /** One page of GET /responses; list() keeps the spec's filter names checked, listAcross() takes any. */
  private async page(query: Query, opts: { priority?: number; next?: string }): Promise<Page<ResponseItem>> {
    const res = await this.http.call({
      base: 'requests', method: 'GET', path: '/responses', absolute: opts.next, route: 'GET /responses',
      query, priority: opts.priority,
      parse: (b) => readEnvelope(b, parseResponseItem),
      parseText: parseResponsesPage,
    });
    return res.body;
  }
}
