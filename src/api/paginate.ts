import { ShapeError, arr, isObj, obj, type Obj } from './validate.js';

// The service answers lists in two envelope forms (spec, "Pagination envelope"): the counts form
// {page, page_count, all_pages_count, all_count, page_data} and the links form {page_data, links, meta}.
// Both become one Page, and one walker follows either: links.next while it is present, else page numbers up
// to all_pages_count.

export interface Page<T> {
  items: T[];
  /** 1-based number of this page. */
  page: number;
  /** Items in this page, as the service counts them. */
  pageCount: number;
  /** Pages in the whole listing at the time of this answer. */
  allPagesCount: number;
  /** Items in the whole listing at the time of this answer. */
  allCount: number;
  /** The answer gave all_count (else allCount is this page's own items, which says nothing of the rest). */
  allCountGiven?: boolean;
  /** links.next of the links form: an address, null on the last page; undefined in the counts form. */
  next?: string | null;
  /** request_status of the responses listing, when given. */
  requestStatus?: string;
  /** Which envelope form answered, and whether its counts were written as strings (what the dialect probe notes). */
  form?: 'counts' | 'links';
  countsAsStrings?: boolean;
}

/**
 * A count of the envelope: a whole number, or one written as a string of digits (the provider's documentation
 * shows `"page": "1"`; docs/dialect-and-spec-gaps.md, "The provider's dialect"). Anything else is not a count.
 */
function count(o: Obj, key: string, what: string, fallback: number): number {
  const v = o[key];
  if (v === undefined || v === null) return fallback;
  const n = typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new ShapeError(`${what}.${key} is not a count (${JSON.stringify(v).slice(0, 40)})`);
  return n;
}

/** Either envelope form to a Page; `item` checks each element (throws ShapeError). */
export function readEnvelope<T>(body: unknown, item: (v: unknown, i: number) => T): Page<T> {
  const o = obj(body, 'envelope');
  const raw = arr(o, 'page_data', 'envelope');
  const items = raw.map((v, i) => item(v, i));
  const meta = isObj(o.meta) ? o.meta : o;
  const what = meta === o ? 'envelope' : 'envelope.meta';
  const page: Page<T> = {
    items,
    page: count(meta, 'page', what, 1),
    pageCount: count(meta, 'page_count', what, items.length),
    allPagesCount: count(meta, 'all_pages_count', what, 0),
    allCount: count(meta, 'all_count', what, items.length),
    allCountGiven: meta.all_count !== undefined && meta.all_count !== null,
  };
  if (o.links !== undefined) {
    if (!isObj(o.links)) throw new ShapeError('envelope.links is not an object');
    const next = o.links.next;
    if (next !== undefined && next !== null && typeof next !== 'string') throw new ShapeError('envelope.links.next is not an address');
    page.next = next === undefined || next === '' ? null : next;
  }
  if (typeof o.request_status === 'string') page.requestStatus = o.request_status;
  page.form = meta === o && o.links === undefined ? 'counts' : 'links';
  page.countsAsStrings = ['page', 'page_count', 'all_pages_count', 'all_count'].some((k) => typeof meta[k] === 'string');
  return page;
}

/** Where the next page is: a page number, or the service's own next address. */
export interface Cursor { page: number; next?: string }

export interface WalkOptions {
  /** First page to read. Default 1. */
  startPage?: number;
  /** Stop after this many pages, a guard against a listing that never ends. Default 10 000. */
  maxPages?: number;
  /** Stop between two pages once aborted (SIGTERM). */
  signal?: AbortSignal;
  /** The listing's name for warnings, e.g. "GET /transfer-file". */
  label?: string;
  /** Told why a walk stopped before the listing said it ended (a listing that lies). */
  onStop?: (why: string, fields: Record<string, unknown>) => void;
}

/** Identity of a page's content: a listing that answers the same page again is not followed further. */
function pageIdentity(items: readonly unknown[]): string {
  const id = (v: unknown): string => {
    try {
      return JSON.stringify(v)?.slice(0, 2_000) ?? '';
    } catch {
      return '';
    }
  };
  return `${items.length}|${id(items[0])}|${id(items[items.length - 1])}`;
}

/**
 * Yields every page of a listing. The links form is followed by links.next until it is null or absent; the
 * counts form by page number while page < all_pages_count. A listing cannot make the walk loop or run on for
 * ever, whatever it claims: an empty page ends it, a `next` address already followed ends it, a page whose
 * content repeats the previous one ends it (a service ignoring `page`), and so does the ceiling of pages per
 * walk; each early end is told to `onStop`. A listing that announces more pages than it counts items (each page
 * holds one at least) is read by its count of items instead: it ends once that many are read. Followed by its
 * pages, an all_pages_count of 10^9 read 85 pages where 2 held every item.
 */
export async function* walkPages<T>(fetch: (c: Cursor) => Promise<Page<T>>, opts: WalkOptions = {}): AsyncGenerator<Page<T>> {
  let cursor: Cursor = { page: opts.startPage ?? 1 };
  const maxPages = opts.maxPages ?? 10_000;
  const label = opts.label ?? 'listing';
  const stop = (why: string, fields: Record<string, unknown> = {}): void => opts.onStop?.(`${label}: ${why}`, { listing: label, ...fields });
  const followed = new Set<string>();
  let previous: string | undefined;
  let read = 0;
  for (let n = 0; ; n++) {
    if (opts.signal?.aborted) return;
    if (n >= maxPages) {
      stop(`more than ${maxPages} pages: the walk stops at the ceiling`, { pages: n });
      return;
    }
    const p = await fetch(cursor);
    if (p.items.length > 0) {
      const identity = pageIdentity(p.items);
      if (identity === previous) {
        stop('a page repeats the one before it (the listing ignores the page asked for): the walk stops', { page: cursor.page });
        return;
      }
      previous = identity;
    }
    yield p;
    read += p.items.length;
    if (p.items.length === 0) {
      if (p.next || cursor.page < p.allPagesCount) stop('an empty page ends the walk though more pages were announced', { page: cursor.page, announced: p.allPagesCount });
      return;
    }
    if (p.allCountGiven && p.allPagesCount > p.allCount && read >= p.allCount) return;
    if (p.next !== undefined) {
      if (p.next === null) return;
      if (followed.has(p.next)) {
        stop('links.next points to an address already followed: the walk stops', { page: cursor.page });
        return;
      }
      followed.add(p.next);
      cursor = { page: cursor.page + 1, next: p.next };
    } else {
      // Our own page number, not the echoed one: a service echoing a wrong page cannot make the walk loop.
      if (cursor.page >= p.allPagesCount) return;
      cursor = { page: cursor.page + 1 };
    }
  }
}

/** Every item of every page, in order. */
export async function* walkItems<T>(fetch: (c: Cursor) => Promise<Page<T>>, opts: WalkOptions = {}): AsyncGenerator<T> {
  for await (const p of walkPages(fetch, opts)) yield* p.items;
}
