// What changed in the universe between two instants, as a search sees it. The universe is a function of time
// (universe.ts): a lawsuit's steps are dated along its procedure (timeline.ts), the database view shows each
// lawsuit as its crawler last read it, and lawsuits are distributed over the years up to the end of 2027. So the
// changes of a day are the steps the crawler found that day (phase and status follow the last step) and the
// lawsuits it saw for the first time; nothing dated before the sandbox's starting instant ever moves, which keeps
// the starting day's universe the one every test compares with. A crawl that found nothing new rewrites no
// content (only the crawl's id and time), so it is not a change.

import type { Universe } from './universe.js';

type ChangeKind = 'new' | 'steps';

/**
 * How lawsuit i as seen at `at` differs from what was seen at `before` (database view, or the courts themselves
 * when `onDemand`): 'new' (not seen then), 'steps' (new steps since), or undefined (the same, or not there).
 */
function changeOf(u: Universe, i: number, before: number, at: number, onDemand: boolean): ChangeKind | undefined {
  const then = u.observe(i, before, onDemand);
  if (!then) return u.observe(i, at, onDemand) ? 'new' : undefined;
  if (!recrawled(u, i, before, at, onDemand)) return undefined;
  const now = u.observe(i, at, onDemand)!;
  return now.steps.length !== then.steps.length ? 'steps' : undefined;
}

/**
 * The instant whose state a caller at `t` sees of lawsuit i: `t` itself on demand, else the database's last crawl
 * of it. Decided from the crawl's schedule alone, without the lawsuit's plan or life, so that the common case of a
 * re-run (not re-crawled: the same crawl shows the same steps) costs next to nothing.
 */
export function viewedAt(u: Universe, i: number, t: number, onDemand: boolean): number {
  return onDemand ? t : u.planner.snapshotMs(u.planner.crawlOf(i), t);
}

/** Whether the view of lawsuit i may differ between the two instants (re-crawled in between, or on demand). */
function recrawled(u: Universe, i: number, before: number, at: number, onDemand: boolean): boolean {
  return viewedAt(u, i, before, onDemand) !== viewedAt(u, i, at, onDemand);
}

interface ChangedLawsuit {
  index: number;
  change: ChangeKind;
}

/**
 * The lawsuits changed between `before` and `at`, by index, from `fromIndex` on, at most `limit` of them; the
 * whole universe is scanned (introspection only: a tracking's run looks at its own search's lawsuits).
 */
export function changedLawsuits(u: Universe, before: number, at: number, opts: { onDemand?: boolean; fromIndex?: number; limit?: number } = {}): { changed: ChangedLawsuit[]; nextIndex?: number } {
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const changed: ChangedLawsuit[] = [];
  for (let i = opts.fromIndex ?? 0; i < u.count; i++) {
    const change = changeOf(u, i, before, at, opts.onDemand ?? false);
    if (!change) continue;
    if (changed.length === limit) return { changed, nextIndex: i };
    changed.push({ index: i, change });
  }
  return { changed };
}
