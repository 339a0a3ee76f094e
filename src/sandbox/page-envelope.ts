// The pagination envelope in the dialect's form (dialect.ts): the spec's links/meta form for GET /requests and
// /tracking (links-envelope.ts), or the flat form every listing of the documented dialect answers in, with the
// fields its documentation shows as strings ("page": "1") sent as strings.

import type { Dialect } from './dialect.js';
import { linksEnvelope } from './links-envelope.js';

/** The envelope's fields the dialect sends as strings, turned into strings; the rest untouched. */
export function withStringFields<T extends object>(d: Dialect, body: T): T {
  if (d.stringFields.length === 0) return body;
  const out = { ...body } as Record<string, unknown>;
  for (const f of d.stringFields) if (typeof out[f] === 'number') out[f] = String(out[f]);
  return out as T;
}

/** page, page_count (items on this page), all_pages_count, all_count of the flat form. */
export function flatCounts(d: Dialect, page: number, pageSize: number, pageCount: number, total: number): Record<string, number | string> {
  return withStringFields(d, { page, page_count: pageCount, all_pages_count: Math.ceil(total / pageSize), all_count: total });
}

/** One page of `all` in the dialect's envelope for GET /requests and GET /tracking. */
export function listEnvelope<T, R>(d: Dialect, opts: {
  baseUrl: string; path: string; all: readonly T[]; page: number; pageSize: number; statuses: readonly string[]; render: (item: T) => R;
}): Record<string, unknown> {
  if (d.listEnvelope === 'links') return linksEnvelope(opts);
  const slice = opts.all.slice((opts.page - 1) * opts.pageSize, opts.page * opts.pageSize);
  return { ...flatCounts(d, opts.page, opts.pageSize, slice.length, opts.all.length), page_data: slice.map(opts.render) };
}
