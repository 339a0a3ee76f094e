// Tracking (monitoring) records. Like requests, their lifecycle is lazy and driven by the sandbox clock:
// `created` for the first hour, then `active`; at each recurrence boundary (recurrence is in days,
// REFERENCE.md) the provider re-runs the search, so the record is `updating` for an hour, then `updated`
// until the next boundary. A paused record stays `paused`. One record per (user, search_type, search_key).

import { uuidOf } from '../random.js';
import type { NormalizedSearch } from '../search-validation.js';

export const TRACKING_STATUSES = ['created', 'active', 'updated', 'updating', 'paused'] as const;
type TrackingStatus = (typeof TRACKING_STATUSES)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface StoredTracking {
  id: string;
  seq: number;
  apiKey: string;
  userId: string;
  search: NormalizedSearch;
  recurrence: number;
  createdMs: number;
  pausedMs?: number;
}

export class TrackingStore {
  private readonly byKey = new Map<string, StoredTracking>();
  private readonly byId = new Map<string, StoredTracking>();
  private readonly byUser = new Map<string, StoredTracking[]>();
  private seq = 0;

  /** `bootId` is part of every id, so that a restarted sandbox never gives a tracking id twice. */
  constructor(private readonly seed: number, private readonly bootId = '') {}

  private static keyOf(apiKey: string, s: NormalizedSearch): string {
    return `${apiKey}\u0000${s.type}\u0000${s.key}`;
  }

  /** The record of the same user and search, if there is one (a duplicate is answered 409). */
  existing(apiKey: string, s: NormalizedSearch): StoredTracking | undefined {
    return this.byKey.get(TrackingStore.keyOf(apiKey, s));
  }

  create(apiKey: string, userId: string, search: NormalizedSearch, recurrence: number, now: number): StoredTracking {
    const seq = ++this.seq;
    const t: StoredTracking = { id: uuidOf(this.seed, `tracking:${this.bootId}:${seq}`), seq, apiKey, userId, search, recurrence, createdMs: now };
    this.byKey.set(TrackingStore.keyOf(apiKey, search), t);
    this.byId.set(t.id, t);
    let list = this.byUser.get(apiKey);
    if (!list) { list = []; this.byUser.set(apiKey, list); }
    list.push(t);
    return t;
  }

  get(id: string): StoredTracking | undefined {
    return this.byId.get(id);
  }

  /** The user's records in creation order (stable pages while records are added at the end). */
  listOf(apiKey: string): StoredTracking[] {
    return this.byUser.get(apiKey) ?? [];
  }

  pause(t: StoredTracking, now: number): void {
    t.pausedMs ??= now;
  }

  /** Status and the instant it began, at time `now`. */
  stateAt(t: StoredTracking, now: number): { status: TrackingStatus; sinceMs: number } {
    if (t.pausedMs !== undefined && now >= t.pausedMs) return { status: 'paused', sinceMs: t.pausedMs };
    const age = now - t.createdMs;
    if (age < HOUR_MS) return { status: 'created', sinceMs: t.createdMs };
    const cycle = Math.max(1, t.recurrence) * DAY_MS;
    const k = Math.floor(age / cycle);
    if (k === 0) return { status: 'active', sinceMs: t.createdMs + HOUR_MS };
    const boundary = t.createdMs + k * cycle;
    return now - boundary < HOUR_MS ? { status: 'updating', sinceMs: boundary } : { status: 'updated', sinceMs: boundary + HOUR_MS };
  }
}
