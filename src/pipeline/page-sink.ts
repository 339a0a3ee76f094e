import type { ResponseItem } from '../api/types.js';
import { loadResponseItems, type LoadCounts } from '../warehouse/load.js';
import { markRequest, recordPage } from '../warehouse/ledger.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { failpoint } from '../shared/failpoint.js';

// Group commit for response pages. A load transaction has a fixed cost (staging, merges) that dwarfs one
// small page, so pages that arrive while a transaction runs wait and go together into the next one, with
// their ledger rows: a page is still either wholly loaded and recorded, or neither. At most `maxItems`
// items wait in memory; a caller adding more waits for the warehouse (backpressure).

export interface PendingPage { requestId: string; page: number; allPagesCount: number; items: readonly ResponseItem[] }

export interface PageSinkOptions {
  runId: string;
  source?: string;
  /** Items buffered before add() waits for a flush. Default 500. */
  maxItems?: number;
  /** Called after each committed batch with its counts. */
  onCommit?: (counts: LoadCounts, pages: number) => void;
}

interface Waiter { page: PendingPage; resolve: (c: LoadCounts) => void; reject: (e: unknown) => void }

export class PageSink {
  private buffer: Waiter[] = [];
  private buffered = 0;
  private flushing: Promise<void> | undefined;
  private readonly space: Array<() => void> = [];

  constructor(private readonly wh: Warehouse, private readonly opts: PageSinkOptions) {}

  /** Resolves once the page is committed (with the counts of the whole batch it went in). */
  async add(page: PendingPage): Promise<LoadCounts> {
    while (this.buffered >= (this.opts.maxItems ?? 500)) await new Promise<void>((r) => this.space.push(r));
    const done = new Promise<LoadCounts>((resolve, reject) => this.buffer.push({ page, resolve, reject }));
    this.buffered += page.items.length;
    this.kick();
    return done;
  }

  private kick(): void {
    if (this.flushing || this.buffer.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = undefined;
      this.kick();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    const items = batch.flatMap((w) => w.page.items);
    try {
      const counts = await this.wh.transaction(async () => {
        const c = await loadResponseItems(this.wh, items, { runId: this.opts.runId, source: this.opts.source ?? 'async', batchSize: Math.max(items.length, 1) });
        for (const { page } of batch) {
          await recordPage(this.wh, page.requestId, page.page, page.items.length);
          await markRequest(this.wh, page.requestId, { all_pages_count: page.allPagesCount });
        }
        return c;
      });
      failpoint('collect.after-commit');
      this.opts.onCommit?.(counts, batch.length);
      for (const w of batch) w.resolve(counts);
    } catch (e) {
      for (const w of batch) w.reject(e);
    } finally {
      this.buffered -= items.length;
      for (const r of this.space.splice(0)) r();
    }
  }
}
