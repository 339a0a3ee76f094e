import type { RequestObject } from '../spec/types.js';
import { resolveFailure } from '../shared/failure-policy.js';
import type { SortNames } from '../api/dialect.js';
import type { RunContext } from './context.js';
import type { PageSink } from './page-sink.js';
import { alignedSize, type PageSizer } from './page-size.js';

// Reading a finished request's responses on their own (`GET /responses?request_id=`), page by page. Each page
// goes to the warehouse with its ledger entry in one transaction (the sink may group it with other pages), so
// a run that dies between pages resumes where the ledger stands, and a response is never loaded twice.
//
// The ledger keeps an item offset, not a page number (read-ledger.ts): the page size follows the size of the
// items (page-size.ts), and page p of size s holds items (p-1)·s .. p·s-1 of the request, so reading on from
// offset k asks for the page holding item k and drops the items before it. A completed request's responses
// no longer change, so offsets are stable. A page refused as too large is asked for again one item at a time.
//
// The caller has recorded the request completed (markCompleted) first: the search stage when it reads the
// request, or the sweep when it saw the request finish, before handing it over.

interface Collected { requestId: string; pages: number }

/**
 * Most responses one request is read for (10,000 pages of 100). A listing that announces more is believed no
 * further: the warning names it and the request is kept as read that far.
 */
const MAX_ITEMS_PER_REQUEST = 1_000_000;

export async function collectRequest(ctx: RunContext, req: RequestObject, sink: PageSink, sizer: PageSizer, sort?: SortNames | null): Promise<Collected> {
  const requestId = req.request_id;
  const [stored] = await ctx.wh.all<{ items_loaded: number; loaded_at: Date | null }>(
    'SELECT items_loaded, loaded_at FROM requests WHERE request_id = $1', [requestId]);
  if (stored?.loaded_at) return { requestId, pages: 0 };
  let offset = stored?.items_loaded ?? 0;
  let pages = 0;
  const commits: Array<Promise<unknown>> = [];
  for (;;) {
    if (ctx.signal.aborted && pages > 0) break;
    const size = alignedSize(sizer.size(), offset);
    const page = Math.floor(offset / size) + 1;
    const skip = offset - (page - 1) * size;
    let res;
    try {
      res = await ctx.api.responses.list({ request_id: requestId, page, page_size: size, ...(sort === undefined ? { order: 'asc' as const } : { sort }) });
    } catch (e) {
      if (resolveFailure(e, { pageSized: true }).action === 'shrink-page' && sizer.refused(size)) {
        ctx.log.warn({ request_id: requestId, page_size: size }, 'a page of responses was too large to read: reading it again in smaller pages');
        continue;
      }
      throw e;
    }
    pages++;
    sizer.measured(res.items);
    const fresh = res.items.slice(skip);
    // What the listing announces is checked against what arrives: a short page (an empty one above all) ends
    // the walk whatever the count said, so a listing claiming a billion items of nothing is read once.
    let total = res.allCount;
    let end = res.items.length < size || total <= (page - 1) * size + res.items.length;
    if (res.items.length < size && total > (page - 1) * size + res.items.length && sizer.clamped(size, res.items.length)) {
      // The upstream cut the page short of what was asked: it serves no more a page. Nothing of it is loaded;
      // the walk asks again from the same offset at the size it serves.
      ctx.log.warn({ request_id: requestId, asked: size, served: res.items.length }, 'GET /responses serves fewer responses a page than asked: reading on at the size it serves');
      continue;
    }
    if (res.items.length < size && total > (page - 1) * size + res.items.length) {
      ctx.log.warn({ request_id: requestId, page, announced: total }, 'GET /responses announced more responses than it has: a short page ends the walk');
      total = offset + fresh.length;
    } else if (!end && offset + fresh.length >= MAX_ITEMS_PER_REQUEST) {
      ctx.log.warn({ request_id: requestId, announced: total, ceiling: MAX_ITEMS_PER_REQUEST }, 'GET /responses announced more responses than the ceiling per request: reading no further than the ceiling');
      end = true;
    }
    await sink.room();
    commits.push(sink.add({ items: fresh, ledger: [{ kind: 'span', requestId, from: offset, count: fresh.length, total, complete: end }] })
      .then(() => ctx.progress?.('pages', 'tick', 1)));
    offset += fresh.length;
    if (end) break;
  }
  await Promise.all(commits);
  return { requestId, pages };
}
