import PQueue from 'p-queue';
import type { ResponseItem } from '../spec/types.js';
import { loadResponseItems, type LoadCounts } from '../warehouse/load.js';
import { recordReads, type ReadEntry } from '../warehouse/read-ledger.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { failpoint } from '../shared/failpoint.js';
import { itemsBytes } from './page-size.js';

// Group commit for response pages. A load transaction has a fixed cost (staging, merges) that dwarfs one
// small page, so pages that arrive while a transaction runs wait and go together into the next one, with
// their ledger entries (read-ledger.ts): a page is still either wholly loaded and recorded, or neither, and
// entries commit in the order they were added (a sweep's cursor never gets ahead of its responses, a request
// handed to per-request reading is reset after the sweep's last page of it). At most `maxItems` items, and
// `maxBytes` of their text, wait in memory; a caller waits for room (backpressure).
// The bytes bound is the loader's own batch budget (load-budget.ts): a group commit of twenty pages of large
// lawsuits must not become one transaction DuckDB cannot hold.

/** What a page brings: its responses (those to load) and the ledger entries that record them. */
export interface PendingPage { items: readonly ResponseItem[]; ledger: readonly ReadEntry[] }

interface PageSinkOptions {
  runId: string;
  source?: string;
  /** Items buffered before add() waits for a flush. Default 500. */
  maxItems?: number;
  /** Characters of item text buffered before add() waits for a flush. Default the warehouse's batch budget. */
  maxBytes?: number;
  /** Called after each committed batch with its counts. */
  onCommit?: (counts: LoadCounts, pages: number) => void;
}

interface Waiter { page: PendingPage; bytes: number; resolve: (c: LoadCounts) => void; reject: (e: unknown) => void }

export class PageSink {
  private buffer: Waiter[] = [];
  /** Items, and characters of their text, added and not yet committed (waiting, or in the transaction). */
  private held = { items: 0, bytes: 0 };
  /** One transaction at a time; a flush waiting its turn takes every page buffered when it starts. */
  private readonly flushes = new PQueue({ concurrency: 1 });

  constructor(private readonly wh: Warehouse, private readonly opts: PageSinkOptions) {}

  /**
   * Resolves once there is room for another page. Await it before reading the next page, so that pages read
   * faster than the warehouse loads them wait on the provider, not in memory.
   */
  async room(): Promise<void> {
    // Only a commit makes room: each one ends with no transaction running until the next starts.
    while (this.full()) await this.flushes.onPendingZero();
  }

  /** Resolves once the page is committed (with the counts of the whole batch it went in). */
  async add(page: PendingPage): Promise<LoadCounts> {
    await this.room();
    const bytes = itemsBytes(page.items);
    const done = new Promise<LoadCounts>((resolve, reject) => this.buffer.push({ page, bytes, resolve, reject }));
    this.held.items += page.items.length;
    this.held.bytes += bytes;
    if (this.flushes.size === 0) void this.flushes.add(() => this.flush());
    return done;
  }

  private full(): boolean {
    return this.held.items >= (this.opts.maxItems ?? 500) || this.held.bytes >= (this.opts.maxBytes ?? this.wh.budget.batchBytes);
  }

  private async flush(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length === 0) return;
    const items = batch.flatMap((w) => w.page.items);
    const bytes = batch.reduce((n, w) => n + w.bytes, 0);
    try {
      const counts = await this.wh.transaction(async () => {
        const c = await loadResponseItems(this.wh, items, { runId: this.opts.runId, source: this.opts.source ?? 'async', batchSize: Math.max(items.length, 1) });
        await recordReads(this.wh, batch.flatMap((w) => w.page.ledger));
        return c;
      });
      // counted in pages: how many commits carry them depends on timing (a kill at the 6th commit was
      // never reached on a loaded CI machine, where more pages wait for each transaction and go together)
      failpoint('collect.after-commit', batch.length);
      this.opts.onCommit?.(counts, batch.length);
      for (const w of batch) w.resolve(counts);
    } catch (e) {
      for (const w of batch) w.reject(e);
    } finally {
      this.held.items -= items.length;
      this.held.bytes -= bytes;
    }
  }
}
