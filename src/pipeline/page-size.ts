import { itemBytes } from '../warehouse/load.js';

// How many responses to ask for in one page, so that a page is something the run can hold. A page is held as
// text, then as parsed objects, then flattened, while the warehouse catches up; a page of 100 lawsuits of
// 20,000 steps each (2.6 MB apiece) is 260 MB of text, which the HTTP client refuses (64 MiB) and a 128 MB heap
// could not parse anyway. So the size follows the bytes per item of the pages just read, aiming at
// `targetBytes` a page, and a page refused as too large is asked for again one item at a time, then grown
// back as the items turn out smaller. Items of ordinary searches are a few KB: the size stays at its maximum.

interface PageSizerOptions {
  /** Most items a page: the page size the upstream serves, learned or pinned (1..1000; src/pipeline/dialect.ts). */
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
  private max: number;

  constructor(private readonly opts: PageSizerOptions) {
    this.max = Math.max(1, Math.floor(opts.max));
    this.current = this.max;
  }

  /** Characters of item text a page should stay near: what a page of big lawsuits is held to. */
  get targetBytes(): number {
    return this.opts.targetBytes;
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
    this.current = Math.max(1, Math.min(this.max, fits, this.current * 2));
  }

  /**
   * A page held fewer items than asked though the listing counted more: the upstream serves at most `served`
   * a page (a page size not verified yet, cut short silently). Returns false when that teaches nothing new (the
   * page is then short for another reason: a listing that lies).
   */
  clamped(asked: number, served: number): boolean {
    if (served <= 0 || served >= asked || served >= this.max) return false;
    this.max = served;
    this.current = Math.min(this.current, served);
    return true;
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

/**
 * The page size to ask for at item `offset`, near `size`: a listing read by page number reads from offset
 * (page - 1) * size, so a size that does not divide the offset re-reads the items before it. The sizer's size
 * moves page after page (689, 784, 955 items of 4 MB on a company's answers), and every page then read about half
 * of what it was billed for: 56 listing calls for 28 pages' worth on three companies' requests. So the largest
 * size from half of `size` up to `size` that divides the offset is taken; when none does (an offset left by a
 * killed run), `size` itself, once: the page ends on a multiple of it, and the next one is aligned.
 */
export function alignedSize(size: number, offset: number): number {
  if (offset <= 0 || offset % size === 0) return size;
  for (let d = size - 1; d * 2 >= size; d--) if (offset % d === 0) return d;
  return size;
}

