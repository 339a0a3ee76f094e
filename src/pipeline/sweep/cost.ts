// Whether the sweep still costs fewer calls than per-request reading would have. A key may be shared with
// other systems: their responses fill the sweep's pages too, and are skipped. Per-request reading would have
// paid one call per page of each request the sweep has read (at least one per request, even for one without
// responses). When the sweep's own calls exceed that, by more than a little slack for the first partial pages,
// the rest of the night is read per request.

export interface SweepTally {
  /** Calls the sweep made (listing pages, and single probes of requests that seemed to have no responses). */
  calls: number;
  /** Members the sweep has completed, with their responses. */
  completed: readonly number[];
  /** Members still being read, with the responses the sweep loaded so far. */
  partial: readonly number[];
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

/** What per-request reading would have cost for what the sweep has read. */
export function perRequestCalls(t: SweepTally, pageSize: number): number {
  let n = 0;
  for (const items of t.completed) n += pagesFor(items, pageSize);
  for (const items of t.partial) n += Math.ceil(items / pageSize);
  return n;
}

/** The share of the responses read that were someone else's. */
export function foreignShare(t: Pick<SweepTally, 'skipped' | 'read'>): number {
  return t.read === 0 ? 0 : t.skipped / t.read;
}

/** True when the sweep costs more than per-request reading would have: switch for the rest of the night. */
export function sweepCostlier(t: SweepTally, pageSize: number): boolean {
  return t.calls >= MIN_CALLS && t.calls > perRequestCalls(t, pageSize) * 1.05 + SLACK;
}
