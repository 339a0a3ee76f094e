// Until a page has shown one of our responses, the listing may be one that answers nothing at all: a member
// about to be declared complete without a single response may be asked for on its own (one call, what reading
// it per request would have cost). Asking for every one made a night of searches that all find nothing cost
// twice its floor (1,000 empty CPFs: 2,153 calls against about 1,010), so a bounded sample is asked for: the
// first EMPTY_CHECKS_FIRST such members, then the 4th, 8th, 16th, ... (log2 of the night's empty members,
// 11 calls for 1,000). A listing that answers nothing is caught by the first member that has responses among
// those; what it costs is that a night where a few documents in hundreds find something could, on such a
// listing, miss them (docs/operating.md, "What a nightly run does", Collect).

/** Empty members checked on their own first, whatever the night's size. */
const EMPTY_CHECKS_FIRST = 3;

/** Whether the n-th empty member (from 1) of an unverified listing is checked on its own: the first few, then powers of two. */
export function sampledForEmptiness(n: number): boolean {
  return n <= EMPTY_CHECKS_FIRST || (n & (n - 1)) === 0;
}
