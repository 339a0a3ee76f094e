import type { RequestObject } from '../api/types.js';
import { addCounts, emptyCounts, type LoadCounts } from '../warehouse/load.js';
import { loadPage, markRequest, pagesLoaded } from '../warehouse/ledger.js';
import type { RunContext } from './context.js';

// Reading a finished request's pages. Each page is loaded in its own transaction together with its ledger
// row, so a run that dies between pages resumes at the first page not recorded, and a page is never
// loaded twice. Pages are streamed: one page in memory per request being read.

export interface Collected { requestId: string; pages: number; counts: LoadCounts }

export async function collectRequest(ctx: RunContext, req: RequestObject): Promise<Collected> {
  const requestId = req.request_id;
  await ctx.wh.transaction(() => markRequest(ctx.wh, requestId, {
    status: req.status, completed_at: req.updated_at ?? new Date().toISOString(), last_polled_at: new Date(),
  }));
  const [stored] = await ctx.wh.all<{ all_pages_count: number | null }>('SELECT all_pages_count FROM requests WHERE request_id = $1', [requestId]);
  const done = await pagesLoaded(ctx.wh, requestId);
  let total = stored?.all_pages_count ?? undefined;
  let counts = emptyCounts();
  let pages = 0;
  for (let page = 1; total === undefined || page <= Math.max(total, 1); page++) {
    if (done.has(page) && total !== undefined) continue;
    if (ctx.signal.aborted && pages > 0) break;
    const res = await ctx.api.responses.list({ request_id: requestId, page, page_size: ctx.cfg.pageSize, order: 'asc' });
    total = res.allPagesCount;
    const pageTotal = res.allPagesCount;
    counts = addCounts(counts, await ctx.wh.transaction(async () => {
      const c = await loadPage(ctx.wh, requestId, page, res.items, { runId: ctx.runId, source: 'async' });
      await markRequest(ctx.wh, requestId, { all_pages_count: pageTotal });
      return c;
    }));
    pages++;
    ctx.progress?.('pages', 'tick', 1);
  }
  return { requestId, pages, counts };
}
