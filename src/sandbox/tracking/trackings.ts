// Trackings as the provider runs them: created, paused, resumed and deleted through the API (or behind the
// client's back through /_sandbox/), each re-running its search on the schedule (schedule.ts) as a request of
// origin `tracking` (request-store.ts). Lazy like the rest of the sandbox: nothing runs in the background; the runs
// due by now are made when the key calls (server.ts), each at its own instant, in time order across the key's
// trackings. A change of state first makes the runs due before it, so a run is made if and only if its tracking
// was running at its instant.

import type { Levels } from '../dialect.js';
import type { RequestStore } from '../request-store.js';
import type { NormalizedSearch } from '../search-validation.js';
import type { Universe } from '../universe.js';
import { TrackingRecords, type StoredTracking } from './records.js';
import { runMode, type RunContent } from './run-content.js';
import { firstRunAfter, MAX_RUNS_PER_CATCH_UP, RUN_QUEUE_MS, runInstant } from './schedule.js';
import { TrackedSearch } from './tracked-search.js';

interface TrackingsDeps {
  universe: Universe; requests: RequestStore; seed: number; bootId: string;
  /** The dialect's level model: what a run sends and in which order (run-content.ts, levels.ts). Default 'one'. */
  levels?: Levels;
}

export class Trackings {
  readonly records: TrackingRecords;
  /** Per key, the earliest instant a running tracking of it is due to run (a call before it has nothing to do). */
  private readonly nextDue = new Map<string, number>();

  constructor(private readonly deps: TrackingsDeps, private content: RunContent = 'changed') {
    this.records = new TrackingRecords(deps.seed, deps.bootId);
  }

  runContent(): RunContent {
    return this.content;
  }
  /** The runs due from `now` on send this; those due before, made or not yet, send what was asked until now. */
  setRunContent(c: RunContent, now: number): void {
    for (const key of this.records.keys()) this.catchUp(key, now);
    this.content = c;
  }

  create(apiKey: string, search: NormalizedSearch, recurrence: number, now: number, opts: { foreign?: boolean; callbackUrl?: string } = {}): StoredTracking {
    this.catchUp(apiKey, now);
    const t = this.records.add({
      apiKey, userId: this.deps.requests.userIdOf(apiKey), foreign: opts.foreign ?? false, search,
      tracked: new TrackedSearch(this.deps.universe, search, this.deps.levels), recurrence, createdMs: now,
      ...(opts.callbackUrl === undefined ? {} : { callbackUrl: opts.callbackUrl }),
    });
    this.wake(t);
    return t;
  }

  pause(t: StoredTracking, now: number): void {
    this.catchUp(t.apiKey, now);
    this.records.setState(t, 'paused', now);
  }

  /** Back on its schedule: the runs that fell while it was paused are not made; the next one sends what changed since the last one made. */
  resume(t: StoredTracking, now: number): void {
    this.catchUp(t.apiKey, now);
    if (t.state !== 'paused') return;
    this.records.setState(t, 'running', now);
    t.nextRun = firstRunAfter(t, now, t.nextRun);
    this.wake(t);
  }

  delete(t: StoredTracking, now: number): void {
    this.catchUp(t.apiKey, now);
    this.records.setState(t, 'deleted', now);
  }

  private wake(t: StoredTracking): void {
    const at = runInstant(t, t.nextRun);
    this.nextDue.set(t.apiKey, Math.min(this.nextDue.get(t.apiKey) ?? Number.POSITIVE_INFINITY, at));
  }

  /** Makes the runs of the key's trackings due by `now`, oldest first. */
  catchUp(apiKey: string, now: number): void {
    const due = this.nextDue.get(apiKey);
    if (due === undefined || due > now) return;
    const runs: Array<{ t: StoredTracking; at: number }> = [];
    let next = Number.POSITIVE_INFINITY;
    for (const t of this.records.listOf(apiKey)) {
      if (t.state !== 'running') continue;
      const after = firstRunAfter(t, now, t.nextRun);
      for (let k = Math.max(t.nextRun, after - MAX_RUNS_PER_CATCH_UP); k < after; k++) runs.push({ t, at: runInstant(t, k) });
      t.nextRun = after;
      next = Math.min(next, runInstant(t, after));
    }
    runs.sort((a, b) => a.at - b.at || a.t.seq - b.t.seq);
    for (const { t, at } of runs) this.run(t, at);
    this.nextDue.set(apiKey, next);
  }

  private run(t: StoredTracking, at: number): void {
    const hits = t.tracked.run(at, runMode(this.content, this.deps.levels ?? 'one', t.search.type));
    t.latest = this.deps.requests.createRun(t.apiKey, {
      trackingId: t.id, search: t.search, echoJson: t.echoJson, hits, at, queueMs: RUN_QUEUE_MS, foreign: t.foreign, callbackUrl: t.callbackUrl,
    });
    t.runs++;
  }
}
