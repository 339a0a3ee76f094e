import { itemBytes } from '../warehouse/load.js';

// How many responses to ask for in one page, so that a page is something the run can hold. A page is held as
// text, then as parsed objects, then flattened, while the warehouse catches up; a page of 100 lawsuits of
// 20,000 steps each (2.6 MB apiece) is 260 MB of text, which the HTTP client refuses (64 MiB) and a 128 MB heap
// could not parse anyway. So the size follows the bytes per item of the pages just read, aiming at
// `targetBytes` a page, and a page refused as too large is asked for again one item at a time, then grown
// back as the items turn out smaller. Items of ordinary searches are a few KB: the size stays at its maximum.

export interface PageSizerOptions {
  /** Most items a page: the configured page size (1..100). */
  max: number;
  /** Bytes of item text a page should stay near (a few MB: the loader's batch budget / 2). */
  targetBytes: number;
}

/** Characters of the items' text, as received (2 KB for an item built here, whose text was never measured). */
export function itemsBytes(items: readonly unknown[]): number {
  let bytes = 0;
  for (const it of items) bytes += itemBytes(it) ?? 2_048;
  return bytes;
}

export class PageSizer {
  private current: number;

  constructor(private readonly opts: PageSizerOptions) {
    this.current = Math.max(1, Math.min(100, Math.floor(opts.max)));
  }

  /** Items to ask for next. */
  size(): number {
    return this.current;
  }

  /**
   * A page arrived. The size follows its bytes per item at once when that asks for fewer, and at most doubles
   * when it asks for more (one page of small items after large ones says little about the next).
   */
  measured(items: readonly unknown[]): void {
    if (items.length === 0) return;
    const fits = Math.max(1, Math.floor(this.opts.targetBytes / (itemsBytes(items) / items.length)));
    this.current = Math.max(1, Math.min(this.opts.max, fits, this.current * 2));
  }

  /**
   * A page was refused as too large: the next one is asked for alone, and the size grows back from what that
   * item weighs. Returns false when a single item was refused (nothing smaller can be asked for).
   */
  refused(size: number): boolean {
    this.current = 1;
    return size > 1;
  }
}
