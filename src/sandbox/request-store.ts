// The asynchronous requests and their response items. Lifecycle is lazy and time-based: nothing runs in the
// background; a request's status and visible items are computed from its creation time and the clock, so
// court k's items appear at created_at + (k+1) * courtDelayMs and a page once filled never changes.

import { uuidOf } from './random.js';
import { runSearch, type Hit } from './search.js';
import type { NormalizedSearch } from './search-validation.js';
import type { Universe } from './universe.js';

export type RequestStatus = 'pending' | 'completed' | 'cancelled';

export interface ItemRef {
  kind: 'lawsuit' | 'error';
  index: number;
  /** Instant at which the lawsuit was observed (the creating request's time, for cached items). */
  observedAt: number;
  cached: boolean;
  /** When the item appears (sandbox clock, ms). */
  visibleAt: number;
  /** Order of the item within its request. */
  n: number;
}

export interface StoredRequest {
  id: string;
  seq: number;
  apiKey: string;
  userId: string;
  originId: string;
  createdMs: number;
  search: NormalizedSearch;
  signature: string;
  hits: Hit[];
  items: ItemRef[];
  completeMs: number;
  cancelMs?: number;
}

const DAY_MS = 86_400_000;

export interface StoreOptions { seed: number; courtDelayMs: number }

export class RequestStore {
  private readonly byId = new Map<string, StoredRequest>();
  private readonly byUser = new Map<string, StoredRequest[]>();
  private seq = 0;

  constructor(private readonly universe: Universe, private readonly opts: StoreOptions) {}

  /** Sequence number the next request will get (request-level faults are drawn from it). */
  nextSeq(): number {
    return this.seq + 1;
  }

  userIdOf(apiKey: string): string {
    return uuidOf(this.opts.seed, `user:${apiKey}`);
  }

  get(id: string, apiKey: string): StoredRequest | undefined {
    const r = this.byId.get(id);
    return r && r.apiKey === apiKey ? r : undefined;
  }

  listOf(apiKey: string): StoredRequest[] {
    return this.byUser.get(apiKey) ?? [];
  }

  statusAt(r: StoredRequest, now: number): RequestStatus {
    if (r.cancelMs !== undefined && now >= r.cancelMs) return 'cancelled';
    return now >= r.completeMs ? 'completed' : 'pending';
  }

  updatedAt(r: StoredRequest, now: number): number {
    const st = this.statusAt(r, now);
    if (st === 'cancelled') return r.cancelMs!;
    if (st === 'completed') return r.completeMs;
    let last = r.createdMs;
    for (const it of r.items) if (it.visibleAt <= now && it.visibleAt > last) last = it.visibleAt;
    return last;
  }

  visibleItems(r: StoredRequest, now: number): ItemRef[] {
    return r.items.filter((it) => it.visibleAt <= now);
  }

  /** Creates a request at time `now`. The search runs at once; its items are revealed with the clock. */
  create(apiKey: string, search: NormalizedSearch, now: number, faults: { pendingLongMs: number; cancel: boolean }): StoredRequest {
    const seq = ++this.seq;
    const id = uuidOf(this.opts.seed, `request:${seq}`);
    const signature = JSON.stringify([search.type, search.key, search.onDemand, search.instance ?? null, search.customerKey ?? null, search.filter]);
    const hits = runSearch(this.universe, search, now);
    const delay = this.opts.courtDelayMs;
    const courts: string[] = [];
    for (const h of hits) if (courts[courts.length - 1] !== h.tribunal) courts.push(h.tribunal);
    const nCourts = Math.max(1, courts.length);
    const items: ItemRef[] = [];
    if (search.cacheTtlDays !== undefined && search.cacheTtlDays > 0) {
      const cached = this.cachedSource(apiKey, signature, now, search.cacheTtlDays);
      if (cached) {
        for (const it of cached.items) {
          if (it.kind !== 'lawsuit' || it.cached) continue;
          items.push({ kind: 'lawsuit', index: it.index, observedAt: it.observedAt, cached: true, visibleAt: now, n: items.length });
        }
      }
    }
    const cancelAfterCourts = faults.cancel ? Math.floor(nCourts / 2) : Infinity;
    let court = -1;
    let prev = '';
    for (const h of hits) {
      if (h.tribunal !== prev) { court++; prev = h.tribunal; }
      if (court >= cancelAfterCourts) break;
      items.push({ kind: 'lawsuit', index: h.index, observedAt: now, cached: false, visibleAt: now + (court + 1) * delay, n: items.length });
    }
    // A cancelled request never completes.
    const completeMs = faults.cancel ? Number.POSITIVE_INFINITY : now + nCourts * delay + faults.pendingLongMs;
    if (hits.length === 0 && search.type === 'name' && !faults.cancel) {
      items.push({ kind: 'error', index: -1, observedAt: now, cached: false, visibleAt: now + nCourts * delay, n: items.length });
    }
    const r: StoredRequest = {
      id, seq, apiKey, userId: this.userIdOf(apiKey), originId: uuidOf(this.opts.seed, `origin:${seq}`), createdMs: now,
      search, signature, hits, items, completeMs,
      cancelMs: faults.cancel ? now + cancelAfterCourts * delay : undefined,
    };
    this.byId.set(id, r);
    let list = this.byUser.get(apiKey);
    if (!list) { list = []; this.byUser.set(apiKey, list); }
    list.push(r);
    return r;
  }

  /** The latest completed request of the same user and search within the TTL (`cache_ttl_in_days`). */
  private cachedSource(apiKey: string, signature: string, now: number, ttlDays: number): StoredRequest | undefined {
    const list = this.byUser.get(apiKey) ?? [];
    for (let k = list.length - 1; k >= 0; k--) {
      const r = list[k];
      if (r.signature !== signature || this.statusAt(r, now) !== 'completed') continue;
      if (r.completeMs >= now - ttlDays * DAY_MS) return r;
    }
    return undefined;
  }

  responseIdOf(r: StoredRequest, n: number): string {
    return uuidOf(this.opts.seed, `response:${r.id}`, n);
  }
}
