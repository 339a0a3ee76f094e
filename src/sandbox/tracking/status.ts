// The status a tracking shows, from its state and its latest run: `created` until its first run, `updating`
// while a run's request is queued or searching, then `updated` (the spec's reading names `active` too, shown
// after the first run, before any re-run: the dialect's `trackingRanOnce`), `paused`, `deleted`. Every status
// either dialect may show is a value the status filter accepts.

import type { Dialect } from '../dialect.js';
import { FINISHED, type RequestStore } from '../request-store.js';
import type { StoredTracking } from './records.js';

export const TRACKING_STATUSES = ['created', 'active', 'updating', 'updated', 'paused', 'deleted'] as const;
type TrackingStatus = (typeof TRACKING_STATUSES)[number];

/** Status at time `now`, and the instant it began (the record's `updated_at`). */
export function trackingStatus(d: Dialect, requests: RequestStore, t: StoredTracking, now: number): { status: TrackingStatus; sinceMs: number } {
  if (t.state !== 'running') return { status: t.state, sinceMs: t.changedMs! };
  const resumed = t.changedMs ?? t.createdMs;
  const r = t.latest;
  if (!r) return { status: 'created', sinceMs: resumed };
  if (!FINISHED.includes(requests.statusAt(r, now))) return { status: 'updating', sinceMs: Math.max(resumed, r.createdMs) };
  return { status: t.runs === 1 ? d.trackingRanOnce : 'updated', sinceMs: Math.max(resumed, r.cancelledMs ?? r.completeMs) };
}
