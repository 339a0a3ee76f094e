// Tracking records: who tracks what, since when, and where each one stands (running, paused, deleted) and in its
// runs. One live record per (key, search_type, search_key): a second one is answered 409, unless the first was
// deleted. Records of one key are listed in creation order; a key shared with another client (foreign-client.ts)
// holds that client's records too, as one account would.

import { uuidOf } from '../random.js';
import type { StoredRequest } from '../request-store.js';
import type { NormalizedSearch } from '../search-validation.js';
import type { TrackedSearch } from './tracked-search.js';

type TrackingState = 'running' | 'paused' | 'deleted';

export interface StoredTracking {
  id: string;
  seq: number;
  apiKey: string;
  userId: string;
  /** Made by another client sharing the key, not by the caller. */
  foreign: boolean;
  /** Where its runs' responses are pushed (the `callback_url` it was created with). */
  callbackUrl?: string;
  search: NormalizedSearch;
  /** The search as requests echo it, serialised once: every run's request shares this string. */
  echoJson: string;
  /** The search kept between runs (what it found last, where to look again). */
  tracked: TrackedSearch;
  recurrence: number;
  createdMs: number;
  state: TrackingState;
  /** The last pause, resume or delete. */
  changedMs?: number;
  /** Since when it is paused (`paused_at`). */
  pausedMs?: number;
  /** The next run on the schedule (its index, schedule.ts). */
  nextRun: number;
  /** The latest run's request, and how many runs were made. */
  latest?: StoredRequest;
  runs: number;
}

export class TrackingRecords {
  private readonly live = new Map<string, StoredTracking>();
  private readonly byId = new Map<string, StoredTracking>();
  private readonly byKey = new Map<string, StoredTracking[]>();
  private seq = 0;

  /** `bootId` is part of every id, so that a restarted sandbox never gives a tracking id twice. */
  constructor(private readonly seed: number, private readonly bootId = '') {}

  private static liveKey(apiKey: string, s: NormalizedSearch): string {
    return `${apiKey}\u0000${s.type}\u0000${s.key}`;
  }

  /** The live (not deleted) record of the same key and search, if there is one (a duplicate is answered 409). */
  existing(apiKey: string, s: NormalizedSearch): StoredTracking | undefined {
    return this.live.get(TrackingRecords.liveKey(apiKey, s));
  }

  add(t: Omit<StoredTracking, 'id' | 'seq' | 'state' | 'nextRun' | 'runs' | 'echoJson'>): StoredTracking {
    const seq = ++this.seq;
    const rec: StoredTracking = { ...t, id: uuidOf(this.seed, `tracking:${this.bootId}:${seq}`), seq, state: 'running', nextRun: 0, runs: 0, echoJson: JSON.stringify(t.search.echo) };
    this.live.set(TrackingRecords.liveKey(t.apiKey, t.search), rec);
    this.byId.set(rec.id, rec);
    let list = this.byKey.get(t.apiKey);
    if (!list) { list = []; this.byKey.set(t.apiKey, list); }
    list.push(rec);
    return rec;
  }

  /** The record of this id, if it belongs to this key (another key's is unknown to it); any key's without one. */
  get(id: string, apiKey?: string): StoredTracking | undefined {
    const t = this.byId.get(id);
    return t && (apiKey === undefined || t.apiKey === apiKey) ? t : undefined;
  }

  /** The key's records in creation order (stable pages while records are added at the end). */
  listOf(apiKey: string): readonly StoredTracking[] {
    return this.byKey.get(apiKey) ?? [];
  }

  /** The keys that hold records. */
  keys(): Iterable<string> {
    return this.byKey.keys();
  }

  /** Records a change of state at `at`; a deleted record frees its search for a new tracking. */
  setState(t: StoredTracking, state: TrackingState, at: number): void {
    if (t.state === state || t.state === 'deleted') return;
    if (state === 'paused') t.pausedMs = at;
    else t.pausedMs = undefined;
    if (state === 'deleted') {
      const k = TrackingRecords.liveKey(t.apiKey, t.search);
      if (this.live.get(k) === t) this.live.delete(k);
    }
    t.state = state;
    t.changedMs = at;
  }
}
