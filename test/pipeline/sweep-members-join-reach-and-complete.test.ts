import { describe, expect, it } from 'vitest';
import { SweepMembers } from '../../src/pipeline/sweep/members.js';
import { perRequestCalls, sweepCostlier } from '../../src/pipeline/sweep/cost.js';
import { untrustedPage } from '../../src/pipeline/sweep/verify.js';

// The rules that keep the sweep exact (members.ts), its checks of a provider's pages (verify.ts) and its cost
// against per-request reading (cost.ts), on the provider's clock only.

describe('who joins the sweep', () => {
  it('a request created after the newest response read joins; one created before it is read per request', () => {
    const m = new SweepMembers(1_000);
    expect(m.admit('late', 1_001, 0)).toBe(true);
    expect(m.admit('early', 1_000, 0)).toBe(false);
    expect(m.admit('no-date', Number.NaN, 0)).toBe(false);
    expect(m.has('late')).toBe(true);
    expect(m.has('early')).toBe(false);
  });
});

describe('how far the sweep may read', () => {
  it('up to just before the oldest member still running', () => {
    const m = new SweepMembers();
    m.admit('a', 100, 0);
    m.admit('b', 200, 0);
    m.admit('c', 300, 0);
    expect(m.reach()).toEqual({ open: true, until: 99 });
    m.finished('a', 150);
    expect(m.reach()).toEqual({ open: true, until: 199 });
    m.finished('c', 350);
    expect(m.reach()).toEqual({ open: true, until: 199 });
    m.finished('b', 260);
    expect(m.reach()).toEqual({ open: true });
  });

  it('not past a submission still unanswered: its request is created after every request known when it was sent', () => {
    const m = new SweepMembers();
    const first = m.submitting();
    expect(m.reach()).toEqual({ open: false });
    m.admit('a', 100, 0);
    m.settled(first);
    m.finished('a', 120);
    const second = m.submitting();
    expect(m.reach()).toEqual({ open: true, until: 99 });
    m.admit('b', 130, 0);
    m.settled(second);
    expect(m.reach()).toEqual({ open: true, until: 129 });
  });
});

describe('when a member is complete', () => {
  it('once read past its completion, or after a page reached the newest response asked for after it finished', () => {
    const m = new SweepMembers();
    m.admit('a', 100, 0);
    m.admit('b', 200, 0);
    m.finished('a', 180);
    expect(m.complete(180).map((x) => x.id)).toEqual([]);
    expect(m.complete(181).map((x) => x.id)).toEqual(['a']);
    const before = m.issue();
    m.finished('b', Number.NaN); // no completion time given: only a page that reached the end completes it
    expect(m.complete(10_000).map((x) => x.id)).toEqual(['a']);
    expect(m.complete(0, before).map((x) => x.id)).toEqual(['a']);
    expect(m.complete(0, m.issue()).map((x) => x.id).sort()).toEqual(['a', 'b']);
  });

  it('never while running', () => {
    const m = new SweepMembers();
    m.admit('a', 100, 0);
    expect(m.complete(Number.POSITIVE_INFINITY, m.issue())).toEqual([]);
  });
});

describe('checking a page before trusting it', () => {
  const q = { from: 1_000, until: 2_000, page: 1, size: 100 };
  it('accepts responses within the bounds, oldest first', () => {
    expect(untrustedPage(q, [1_000, 1_000, 1_500, 2_000], [])).toBeUndefined();
    expect(untrustedPage({ ...q, until: undefined }, [1_000, 9_000], [])).toBeUndefined();
  });
  it('names the check that failed', () => {
    expect(untrustedPage(q, [999, 1_500], [])?.reason).toMatch(/before the lower bound.*created_at filter is not honoured/);
    expect(untrustedPage(q, [1_500, 2_001], [])?.reason).toMatch(/after the upper bound/);
    expect(untrustedPage(q, [1_600, 1_500], [])?.reason).toMatch(/not in creation order.*order is not honoured/);
    expect(untrustedPage(q, [Number.NaN], ['yesterday'])?.reason).toMatch(/no readable created_at \("yesterday"\)/);
  });
  it('says when it is the order that failed, and only then', () => {
    expect(untrustedPage(q, [1_600, 1_500], [])?.order).toBe(true);
    expect(untrustedPage({ ...q, page: 2 }, [1_200], [], 1_300)?.order).toBe(true);
    expect(untrustedPage(q, [999, 1_500], [])?.order).toBe(false);
    expect(untrustedPage(q, [1_500, 2_001], [])?.order).toBe(false);
    expect(untrustedPage(q, [Number.NaN], ['yesterday'])?.order).toBe(false);
  });
});

describe('the sweep against per-request reading', () => {
  /** Pages of `items` responses or 4 MB of their text; `read(n, kb)`: n responses of kb KB each. */
  const page = (items: number) => ({ items, bytes: 4 * 2 ** 20 });
  const read = (items: number, kb = 2) => ({ items, bytes: items * kb * 1024 });

  it('a portfolio of individuals stays cheaper even when nine responses in ten are another client\'s', () => {
    // 300 documents, 1.5 responses each, 90% of the listing foreign: 45 pages against 300 calls
    const completed = Array.from({ length: 300 }, (_, i) => read(i % 2 === 0 ? 1 : 2));
    const t = { calls: 45, completed, partial: [], read: 4_500, skipped: 4_050 };
    expect(perRequestCalls(t, page(100))).toBe(300);
    expect(sweepCostlier(t, page(100))).toBe(false);
  });
  it('companies with thousands of responses each, half the listing foreign: switch', () => {
    const t = { calls: 60, completed: [], partial: [read(1_500), read(1_500)], read: 6_000, skipped: 3_000 };
    expect(perRequestCalls(t, page(100))).toBe(30);
    expect(sweepCostlier(t, page(100))).toBe(true);
    // the same without foreign responses is the per-request cost: no switch
    expect(sweepCostlier({ ...t, calls: 31, read: 3_000, skipped: 0 }, page(100))).toBe(false);
  });
  it('big litigants\' responses, 4 MB a page at about 700 of them: per-request pages are counted by bytes too, so nothing foreign never switches', () => {
    // Five companies' requests half read, 2,300 responses of 6 KB each so far (13.5 MB: 4 pages each by bytes, 3
    // by items at 1000), and 20 full pages of the sweep's: as many as per-request reading would have made.
    const t = { calls: 20, completed: [], partial: Array.from({ length: 5 }, () => read(2_300, 6)), read: 11_500, skipped: 0 };
    expect(perRequestCalls(t, page(1_000))).toBe(20);
    expect(sweepCostlier(t, page(1_000))).toBe(false);
    // Counted by items alone, the same night looked costlier (20 calls against 15) and switched.
    expect(sweepCostlier(t, { items: 1_000, bytes: Infinity })).toBe(true);
  });
});
