import type { ResponseItem } from '../../spec/types.js';
import type { StoredCursor } from '../../warehouse/cursor-store.js';
import type { TrackingRunRead } from '../../warehouse/read-ledger.js';
import { advance, type SweepQuery, timeOf } from '../sweep/cursor.js';
import { untrustedPage } from '../sweep/verify.js';

// The sweep's rule of whose responses it takes, for a trackings night. A tracking's run is a request we did not
// create, so the search stage's sweep skips its responses as another client's. Here a response is ours when it
// is of a run of one of our trackings: origin `tracking` and origin_id the id of a tracking of a listed document or
// of a lawsuit kept whole (REFERENCE.md: each run is a request of origin tracking, origin_id the tracking's id; the
// response item carries both, so no call per tracking or per run is needed to attribute it). Every other response
// on the key (our own searches, another client's requests or trackings on a shared key) is skipped, never loaded.
//
// Pure: a page answered, checked as the sweep checks its pages (verify.ts), the cursor moved (cursor.ts), our
// responses picked out per run. The shell (read-runs.ts) performs the calls and commits.

/** The search a tracking of ours follows: a listed document's, or a lawsuit's (lawsuit_cnj, its number). */
export interface TrackedSearch { searchType: string; searchKey: string }

/** What one page of the listing across requests gives a trackings night. */
type TrackingPage =
  | { kind: 'untrusted'; reason: string }
  | { kind: 'page'; cursor: StoredCursor; items: ResponseItem[]; runs: TrackingRunRead[]; read: number; skipped: number; end: boolean };

/** Our responses among `items` at the positions `fresh`, grouped per run. */
function ourRuns(items: readonly ResponseItem[], fresh: readonly number[], ours: ReadonlyMap<string, TrackedSearch>): { items: ResponseItem[]; runs: TrackingRunRead[] } {
  const taken: ResponseItem[] = [];
  const runs = new Map<string, TrackingRunRead>();
  for (const i of fresh) {
    const item = items[i];
    const trackingId = item.origin === 'tracking' && typeof item.origin_id === 'string' ? item.origin_id : undefined;
    const doc = trackingId === undefined ? undefined : ours.get(trackingId);
    if (!doc || typeof item.request_id !== 'string') continue;
    taken.push(item);
    const run = runs.get(item.request_id);
    if (run) run.items++;
    else runs.set(item.request_id, { requestId: item.request_id, trackingId: trackingId!, searchType: doc.searchType, searchKey: doc.searchKey, items: 1 });
  }
  return { items: taken, runs: [...runs.values()] };
}

/**
 * A page answered `q` at `cursor`: untrusted (nothing on it is loaded), or our responses and the cursor after it.
 * `sameRun`: the page follows the one before at the same anchor and size (it must not start before that one ended).
 */
export function trackingPage(cursor: StoredCursor, q: SweepQuery, items: readonly ResponseItem[], ours: ReadonlyMap<string, TrackedSearch>, sameRun: boolean): TrackingPage {
  const times = items.map((i) => timeOf(i.created_at));
  const bad = untrustedPage(q, times, items.map((i) => i.created_at), sameRun ? cursor.last : undefined);
  if (bad) return { kind: 'untrusted', reason: `the responses listing across requests cannot be trusted: ${bad.reason}` };
  const adv = advance(cursor, q, times, items.map((i) => i.response_id));
  const taken = ourRuns(items, adv.fresh, ours);
  return { kind: 'page', cursor: adv.cursor, ...taken, read: adv.fresh.length, skipped: adv.fresh.length - taken.items.length, end: adv.end };
}
