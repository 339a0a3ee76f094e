import { appendRows } from './stage.js';
import type { Warehouse } from './warehouse.js';

// The page ledger of a whole batch in three statements, whatever its number of pages: recordPage
// (ledger.ts) writes two statements per page, and with pages read small (large items) a batch carries hundreds.

export interface LoadedPage {
  requestId: string;
  /** 1-based page number. */
  page: number;
  /** Items on the page. */
  items: number;
  /** all_pages_count the page announced, stored on the request when given. */
  allPagesCount?: number;
}

/**
 * Records loaded pages (idempotent per request and page) and refreshes each request's pages_loaded,
 * items_loaded and, when given, all_pages_count. Call it in the transaction that loads the pages' rows.
 */
export async function recordPages(wh: Warehouse, pages: readonly LoadedPage[]): Promise<void> {
  if (pages.length === 0) return;
  await wh.transaction(async () => {
    await wh.run('CREATE OR REPLACE TEMP TABLE stg_pages (request_id VARCHAR, page INTEGER, items INTEGER, all_pages_count INTEGER)');
    await appendRows(wh, 'stg_pages', pages, (a, p) => {
      a.appendVarchar(p.requestId);
      a.appendInteger(p.page);
      a.appendInteger(p.items);
      if (p.allPagesCount === undefined) a.appendNull(); else a.appendInteger(p.allPagesCount);
    });
    await wh.run(`INSERT INTO request_pages (request_id, page, items, loaded_at)
      SELECT request_id, page, any_value(items), current_timestamp FROM stg_pages GROUP BY request_id, page
      ON CONFLICT DO NOTHING`);
    // The last page count announced for a request wins, as one markRequest per page, in order, would leave it.
    await wh.run(`UPDATE requests SET pages_loaded = t.n, items_loaded = t.items, all_pages_count = coalesce(a.all_pages, requests.all_pages_count)
      FROM (SELECT request_id, count(*) AS n, coalesce(sum(items), 0) AS items FROM request_pages
            WHERE request_id IN (SELECT request_id FROM stg_pages) GROUP BY request_id) t
      LEFT JOIN (SELECT request_id, arg_max(all_pages_count, rowid) FILTER (WHERE all_pages_count IS NOT NULL) AS all_pages
                 FROM stg_pages GROUP BY request_id) a ON a.request_id = t.request_id
      WHERE requests.request_id = t.request_id`);
    await wh.run('DROP TABLE stg_pages');
  });
}
