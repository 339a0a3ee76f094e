import type { RequestObject } from '../api/types.js';
import { markRequest, pagesLoaded } from '../warehouse/ledger.js';
import type { RunContext } from './context.js';
import type { PageSink } from './page-sink.js';

// Reading a finished request's pages. Each page goes to the warehouse with its ledger row in one
// transaction (the sink may group it with other pages), so a run that dies between pages resumes at the
// first page not recorded, and a page is never loaded twice. Pages are streamed: the sink bounds how many
// items wait in memory.

export interface Collected { requestId: string; pages: number }

/**
 * Most pages one request is read for (a million items at 100 a page). A listing that announces more is
 * believed no further: the warning names it and the request is kept as read that far.
 */
export const MAX_PAGES_PER_REQUEST = 10_000;

export async function collectRequest(ctx: RunContext, req: RequestObject, sink: PageSink): Promise<Collected> {
  const requestId = req.request_id;
  await ctx.wh.transaction(() => markRequest(ctx.wh, requestId, {
    status: req.status, completed_at: req.updated_at ?? new Date().toISOString(), last_polled_at: new Date(),
  }));
  const [stored] = await ctx.wh.all<{ all_pages_count: number | null }>('SELECT all_pages_count FROM requests WHERE request_id = $1', [requestId]);
  const done = await pagesLoaded(ctx.wh, requestId);
  let total = stored?.all_pages_count ?? undefined;
  let pages = 0;
  const commits: Array<Promise<unknown>> = [];
  for (let page = 1; total === undefined || page <= Math.max(total, 1); page++) {
    if (done.has(page) && total !== undefined) continue;
    if (ctx.signal.aborted && pages > 0) break;
    const res = await ctx.api.responses.list({ request_id: requestId, page, page_size: ctx.cfg.pageSize, order: 'asc' });
    // What the listing announces is checked against what arrives: an empty page ends the walk whatever the
    // count said (a listing claiming a billion pages of nothing must not be read a billion times).
    let announced = res.allPagesCount;
    if (res.items.length === 0 && announced >= page) {
      ctx.log.warn({ request_id: requestId, page, announced }, 'GET /responses announced more pages than it has: an empty page ends the walk');
      announced = page - 1;
    } else if (announced > MAX_PAGES_PER_REQUEST) {
      ctx.log.warn({ request_id: requestId, announced, ceiling: MAX_PAGES_PER_REQUEST }, 'GET /responses announced more pages than the ceiling per request: reading no further than the ceiling');
      announced = MAX_PAGES_PER_REQUEST;
    }
    total = announced;
    commits.push(sink.add({ requestId, page, allPagesCount: announced, items: res.items }).then(() => ctx.progress?.('pages', 'tick', 1)));
    pages++;
    if (res.items.length === 0) break;
  }
  await Promise.all(commits);
  return { requestId, pages };
}
