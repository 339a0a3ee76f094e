// What every listing (GET /responses, /requests, /tracking) reads the same way: unknown parameters, page and
// page_size, the sort, date bounds. The dialect (dialect.ts) decides each: the spec's reading refuses an
// unknown name and a page_size over 100 (the validation convention, README "Spec gaps"); the documented one
// ignores unknown names and clamps page_size to 1000 silently, as the provider's documentation reads.

import type { Dialect, Direction, Listing } from './dialect.js';

interface ListingParams { page: number; pageSize: number; direction: Direction }

interface ListingNames {
  /** Names the listing knows before page and page_size (e.g. request_id), in the order a 400 lists them. */
  leading?: readonly string[];
  /** Filters the listing knows after the sort names. */
  filters: readonly string[];
  /** The `ignore_filters` fault: every name but page and page_size (and the leading ones) is ignored. */
  lenient?: boolean;
}

/** Reads paging and sort, collecting problems in `reasons` (all reported at once by the caller). */
export function listingParams(d: Dialect, listing: Listing, url: URL, names: ListingNames, reasons: string[]): ListingParams {
  const { page, pageSize } = paging(d, url, reasons);
  const sort = d.sort[listing];
  const sortNames = sort.names ? [sort.names.field, sort.names.direction] : [];
  if (!names.lenient && d.unknownParams === 'reject') {
    unknownParams(url, [...(names.leading ?? []), 'page', 'page_size', ...sortNames, ...names.filters], reasons);
  }
  let direction = sort.byDefault;
  if (sort.names && !names.lenient) {
    const dir = url.searchParams.get(sort.names.direction) ?? sort.byDefault;
    if (dir !== 'asc' && dir !== 'desc') reasons.push(`${sort.names.direction} must be asc or desc`);
    else direction = dir;
    const field = url.searchParams.get(sort.names.field) ?? 'created_at';
    if (field !== 'created_at') reasons.push(`${sort.names.field} must be created_at`);
  }
  return { page, pageSize, direction };
}

/** page (from 1) and page_size (default 20): an integer each; above the dialect's maximum, refused or clamped. */
function paging(d: Dialect, url: URL, reasons: string[], defaultSize = 20): { page: number; pageSize: number } {
  const p = url.searchParams.get('page');
  const s = url.searchParams.get('page_size');
  const page = p === null ? 1 : Number(p);
  let pageSize = s === null ? defaultSize : Number(s);
  if (!Number.isInteger(page) || page < 1) reasons.push('page must be an integer >= 1');
  if (!Number.isInteger(pageSize) || pageSize < 1) reasons.push('page_size must be an integer >= 1');
  else if (pageSize > d.pageSize.max) {
    if (d.pageSize.above === 'reject') reasons.push(`page_size must be at most ${d.pageSize.max}`);
    else pageSize = d.pageSize.max;
  }
  return { page, pageSize };
}

/** The validation convention: a query parameter the endpoint does not know is a 400, all problems at once. */
function unknownParams(url: URL, known: readonly string[], reasons: string[]): void {
  const unknown = [...new Set(url.searchParams.keys())].filter((k) => !known.includes(k));
  if (unknown.length) reasons.push(`unknown query parameter(s): ${unknown.join(', ')} (known: ${known.join(', ')})`);
}

/** An inclusive date bound given as ISO 8601 text (undefined when absent). */
export function dateParam(url: URL, name: string, reasons: string[]): number | undefined {
  const v = url.searchParams.get(name);
  if (v === null) return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) reasons.push(`${name} must be an ISO 8601 date-time`);
  return ms;
}

/** A list held oldest first, in the asked order of creation. */
export function inOrder<T>(oldestFirst: readonly T[], direction: Direction): T[] {
  return direction === 'asc' ? [...oldestFirst] : [...oldestFirst].reverse();
}
