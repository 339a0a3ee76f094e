// Whether the sweep still costs fewer calls than per-request reading would have. A key may be shared with
// other systems: their responses fill the sweep's pages too, and are skipped. Per-request reading would have
// paid one call per page of each request the sweep has read (at least one per request, even for one without
// responses). When the sweep's own calls exceed that, by more than a little slack for the first partial pages,
// the rest of the night is read per request.
//
// A page is bounded twice: by the items the upstream serves a page, and by the bytes a run holds a page to
// (page-size.ts). Per-request reading is bounded the same way, so its pages are counted by both: counted by items
// alone, big litigants' lawsuits (4 MB fill a page at about 680 of them, not 1000) made the sweep look costlier
// than per-request reading with no foreign response at all, and a companies night switched after 20 calls
// (against 17 "per request") to the reading that then cost 30 calls more than the sweep would have.

/** What a page holds at most: the items the upstream serves a page, and the characters of item text a run holds it to. */
export interface PageLimits { items: number; bytes: number }

/** What the sweep read of one member: its responses, and the characters of their text. */
export interface MemberRead { items: number; bytes: number }

export interface SweepTally {
  /** Calls the sweep made (listing pages, and single probes of requests that seemed to have no responses). */
  calls: number;
  /** Members the sweep has completed, with what it read of each. */
  completed: readonly MemberRead[];
  /** Members still being read, with what the sweep loaded of each so far. */
  partial: readonly MemberRead[];
  /** Responses read that were not the sweep's (skipped). */
  skipped: number;
  /** Responses read in all. */
  read: number;
}

/** Calls before the comparison means anything (the first pages of a night are partial). */
const MIN_CALLS = 5;
/** Slack, in calls, over per-request reading. */
const SLACK = 2;

/** Pages one listing of `items` responses takes: at least one (an answer of none is still a call). */
export function pagesFor(items: number, pageSize: number): number {
  return Math.max(1, Math.ceil(items / pageSize));
}

/** Pages per-request reading takes for what was read of one member: by its items or by its bytes, the more. */
function pagesOf(r: MemberRead, page: PageLimits): number {
  return Math.max(Math.ceil(r.items / page.items), Math.ceil(r.bytes / page.bytes));
}

/** What per-request reading would have cost for what the sweep has read. */
export function perRequestCalls(t: SweepTally, page: PageLimits): number {
  let n = 0;
  for (const r of t.completed) n += Math.max(1, pagesOf(r, page));
  for (const r of t.partial) n += pagesOf(r, page);
  return n;
}

/** The share of the responses read that were someone else's. */
export function foreignShare(t: Pick<SweepTally, 'skipped' | 'read'>): number {
  return t.read === 0 ? 0 : t.skipped / t.read;
}

/** True when the sweep costs more than per-request reading would have: switch for the rest of the night. */
export function sweepCostlier(t: SweepTally, page: PageLimits): boolean {
  return t.calls >= MIN_CALLS && t.calls > perRequestCalls(t, page) * 1.05 + SLACK;
}
