import { describe, expect, it } from 'vitest';
import { advance, coveredBefore, queryAt, type SweepCursor, type SweepQuery } from '../../src/pipeline/sweep/cursor.js';

// The sweep's cursor on created_at (src/pipeline/sweep/cursor.ts) against a listing that keeps growing while it
// is read: each response must be read exactly once, whatever lands between two pages, however many responses
// share a millisecond, and whatever page size each query asks for.

interface Item { id: string; t: number }

/** A provider's listing across requests: oldest first, ties by id, bounds inclusive. */
class Listing {
  items: Item[] = [];
  add(t: number, n = 1): void {
    for (let k = 0; k < n; k++) this.items.push({ id: `r${this.items.length}`, t });
  }
  page(q: SweepQuery): Item[] {
    const sorted = this.items.filter((i) => i.t >= q.from && (q.until === undefined || i.t <= q.until))
      .sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1));
    return sorted.slice((q.page - 1) * q.size, q.page * q.size);
  }
}

/** Reads the listing to its end from `cursor`, `size()` items a page; returns the ids read, in order. */
function sweep(listing: Listing, cursor: SweepCursor, size: () => number, until?: number, between?: () => void): { read: string[]; cursor: SweepCursor } {
  const read: string[] = [];
  for (let guard = 0; guard < 10_000; guard++) {
    const q = queryAt(cursor, 0, until, size());
    const page = listing.page(q);
    const a = advance(cursor, q, page.map((i) => i.t), page.map((i) => i.id));
    for (const i of a.fresh) read.push(page[i].id);
    cursor = a.cursor;
    between?.();
    if (a.end) return { read, cursor };
  }
  throw new Error('the sweep did not end');
}

describe('the sweep cursor', () => {
  it('reads every response once while new ones are appended between pages', () => {
    const l = new Listing();
    let clock = 1000;
    for (let i = 0; i < 250; i++) l.add(clock += i % 3);
    let cursor: SweepCursor = { page: 1, seen: [] };
    const all: string[] = [];
    for (let round = 0; round < 5; round++) {
      const r = sweep(l, cursor, () => 100, undefined, () => { for (let k = 0; k < 37; k++) l.add(clock += k % 2); });
      all.push(...r.read);
      cursor = r.cursor;
    }
    const last = sweep(l, cursor, () => 100);
    all.push(...last.read);
    expect(all.length).toBe(l.items.length);
    expect(new Set(all).size).toBe(all.length);
  });

  it('reads a millisecond holding more than a page of responses, at a page size that changes every page', () => {
    const l = new Listing();
    l.add(5, 3);
    l.add(7, 260); // more than two pages in one millisecond
    l.add(8, 5);
    const sizes = [100, 30, 100, 7, 100, 50];
    let n = 0;
    const r = sweep(l, { page: 1, seen: [] }, () => sizes[n++ % sizes.length]);
    expect(r.read.sort()).toEqual(l.items.map((i) => i.id).sort());
    expect(new Set(r.read).size).toBe(r.read.length);
  });

  it('reads up to an upper bound, then on from it: nothing read twice, nothing skipped at the bound', () => {
    const l = new Listing();
    for (let t = 0; t < 100; t++) l.add(t, 2);
    const first = sweep(l, { page: 1, seen: [] }, () => 16, 49);
    expect(first.read).toHaveLength(100);
    expect(coveredBefore(first.cursor)).toBe(49);
    l.add(49, 1); // a response at the bound's millisecond that arrived late
    const rest = sweep(l, first.cursor, () => 16);
    expect(new Set([...first.read, ...rest.read]).size).toBe(l.items.length);
    expect(first.read.length + rest.read.length).toBe(l.items.length);
  });

  it('a response of someone else made visible late, before the page, shifts the pages: the rest is read once', () => {
    const l = new Listing();
    for (let t = 0; t < 400; t++) l.add(t);
    const ours = new Set(l.items.map((i) => i.id));
    let cursor: SweepCursor = { page: 1, seen: [] };
    const read: string[] = [];
    for (let guard = 0; guard < 100; guard++) {
      const q = queryAt(cursor, 0, undefined, 25);
      const page = l.page(q);
      const a = advance(cursor, q, page.map((i) => i.t), page.map((i) => i.id));
      a.fresh.forEach((k) => read.push(page[k].id));
      cursor = a.cursor;
      if (a.end) break;
      // a late one, created before the last response read
      if (guard % 3 === 0) l.items.push({ id: `late${guard}`, t: page[10].t });
    }
    const mine = read.filter((id) => ours.has(id));
    expect(mine.length).toBe(ours.size);
    expect(new Set(mine).size).toBe(mine.length);
  });

  it('says what it covers: every response created before its bound is read', () => {
    const l = new Listing();
    for (let t = 10; t < 20; t++) l.add(t, 30);
    let cursor: SweepCursor = { page: 1, seen: [] };
    const read = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const q = queryAt(cursor, 10, undefined, 45);
      const page = l.page(q);
      const a = advance(cursor, q, page.map((x) => x.t), page.map((x) => x.id));
      a.fresh.forEach((k) => read.add(page[k].id));
      cursor = a.cursor;
      for (const item of l.items) if (item.t < coveredBefore(cursor)) expect(read.has(item.id), `${item.id} at ${item.t}`).toBe(true);
    }
    expect(cursor.high).toBe(Math.max(...[...read].map((id) => l.items.find((i) => i.id === id)!.t)));
  });
});
