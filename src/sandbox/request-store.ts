// The asynchronous requests and their response items. Lifecycle is lazy and time-based: nothing runs in the
// background; a request's status and visible items are computed from its creation time and the clock.
//
// Timeline of a request, with D = courtDelayMs: `pending` (queued; `created` for one made by the true/false
// query) for D ms, or longer under the pending_long fault; then `started`, while its courts are searched one
// after the other: court c's items appear at start + (c+1)·D, item n of the request at that instant + n ms, so
// that every item has its own creation time, in the request's order, and appears when its `created_at` is
// reached (never in the future, never rewritten). `completed` once the last court is done and its last item
// has appeared. Under the cancel fault: `cancelling` halfway through the courts for D ms, then `cancelled`.
// A tracking's run is a request like the others (origin `tracking`), made by the sandbox at the run's instant,
// queued longer (tracking/schedule.ts) and holding the lawsuits its tracking chose to send.
//
// Memory: a request keeps its lawsuits as one Int32Array of universe indexes (4 bytes an item), nothing per
// item; a finished request is forgotten `retentionMs` (wall clock) after it finished, its responses with it.

import { randomUUID } from 'node:crypto';
import type { Levels } from './dialect.js';
import { answerOf, LAWSUIT_NOT_FOUND, type AppError } from './levels.js';
import { hashString, uuidOf } from './random.js';
import { runSearch } from './search.js';
import type { NormalizedSearch } from './search-validation.js';
import type { Universe } from './universe.js';

type RequestStatus = 'created' | 'pending' | 'started' | 'cancelling' | 'cancelled' | 'completed';
export const REQUEST_STATUSES: readonly RequestStatus[] = ['created', 'pending', 'started', 'cancelling', 'cancelled', 'completed'];
export const FINISHED: readonly RequestStatus[] = ['cancelled', 'completed'];

export type ItemKind = 'lawsuit' | 'error';

/** A lawsuit a request holds, and the court it comes from (a request's items are appended court by court). */
export interface RunLawsuit { index: number; tribunal: string }

/** Integers of a request: a plain array when short (smaller than a typed array's own header), else 4 bytes each. */
type Ints = Int32Array | number[];
const SHORT = 16;
const ints = (values: number[]): Ints => (values.length === 0 ? NONE : values.length <= SHORT ? values : Int32Array.from(values));

export interface StoredRequest {
  id: string;
  seq: number;
  apiKey: string;
  /** Made by another client sharing the key (the `foreign` fault, or its trackings), not by the caller. */
  foreign: boolean;
  /** The tracking this request is a run of (origin `tracking`); absent for a request made through the API. */
  trackingId?: string;
  /** Where its responses are pushed as they are made (the request's `callback_url`, or its tracking's). */
  callbackUrl?: string;
  userId: string;
  /** Sandbox clock. */
  createdMs: number;
  /** Wall clock at creation: retention is measured in real time, like the rate limit. */
  createdWall: number;
  /** What rendering its items needs of the search (the whole search is not kept: memory). */
  search: Pick<NormalizedSearch, 'type' | 'onDemand' | 'customerKey'>;
  /** The search as the Request object echoes it, serialised. */
  echoJson: string;
  /** What the request asked that the sandbox does not act on (NormalizedSearch.ignored); absent when nothing. */
  ignored?: string[];
  /** Hash of what makes two searches the same answer (cache_ttl_in_days finds earlier answers by it). */
  signature: number;
  /** Status before the search starts: `pending`, or `created` for a request made by the true/false query. */
  initial: 'pending' | 'created';
  /** Items repeated from a previous answer (cache_ttl_in_days), and the instant they were observed. */
  cached: Ints;
  cachedObservedAt: number;
  /** Lawsuits found, court after court. */
  fresh: Ints;
  /** courtEnds[c] = number of fresh items of courts 0..c. */
  courtEnds: Ints;
  /** A name search that found nothing, or a lawsuit-level read answered with an error (levels.ts), ends with one
   * application_error item. */
  errorItem: boolean;
  /** That item's response_data, when it is not LAWSUIT_NOT_FOUND (a shared constant: no memory per request). */
  appError?: AppError;
  startMs: number;
  /** When the last court is done (no cancel). */
  completeMs: number;
  /** Cancel fault: `cancelling` from cancelMs, `cancelled` from cancelledMs. */
  cancelMs?: number;
  cancelledMs?: number;
}

interface RequestFaults { pendingLongMs: number; cancel: boolean }

interface CreateOptions {
  /** Made by another client sharing the key. Default false. */
  foreign?: boolean;
  /** Status before the search starts. Default 'pending'. */
  initial?: 'pending' | 'created';
  /** The dialect's level model (levels.ts). Default 'one'. */
  levels?: Levels;
  /** Whether the provider refuses a lawsuit it holds, by CNJ number (the `lawsuit_unavailable` fault). */
  unavailable?: (code: string) => AppError | undefined;
  /** Where its responses are pushed as they are made (the body's `callback_url`). */
  callbackUrl?: string;
}

interface StoreOptions {
  seed: number;
  /** Part of every id: two boots with one seed never give the same request or response id. */
  bootId: string;
  courtDelayMs: number;
  /** How long a finished request and its responses are kept, in wall-clock ms. */
  retentionMs: number;
  /** Wall clock (tests may drive it). Default Date.now. */
  wallNow?: () => number;
}

const DAY_MS = 86_400_000;
/** One shared empty array: most requests have no cached items, many no lawsuits. */
const NONE: Ints = [];
/** Forgetting is checked at most this often: a sweep walks every stored request. */
const SWEEP_EVERY_MS = 1000;

/** A fresh random boot id (the default: every process its own). */
export function randomBootId(): string {
  return randomUUID().slice(0, 8);
}

export class RequestStore {
  private readonly byId = new Map<string, StoredRequest>();
  private readonly byKey = new Map<string, StoredRequest[]>();
  private readonly users = new Map<string, string>();
  private seq = 0;
  private lastSweep = 0;
  private readonly wallNow: () => number;
  /** Told of every request made with a callback_url (callbacks.ts pushes its responses). */
  private readonly withCallback: Array<(r: StoredRequest) => void> = [];

  constructor(private readonly universe: Universe, readonly opts: StoreOptions) {
    this.wallNow = opts.wallNow ?? Date.now;
  }

  /** Calls `f` with every request made from now on with a callback_url. */
  onCallbackRequest(f: (r: StoredRequest) => void): void {
    this.withCallback.push(f);
  }

  /** Sequence number the next request will get (request-level faults are drawn from it). */
  nextSeq(): number {
    return this.seq + 1;
  }

  userIdOf(apiKey: string): string {
    let id = this.users.get(apiKey);
    if (id === undefined) { id = uuidOf(this.opts.seed, `user:${apiKey}`); this.users.set(apiKey, id); }
    return id;
  }

  get(id: string, apiKey: string): StoredRequest | undefined {
    this.sweep();
    const r = this.byId.get(id);
    return r && r.apiKey === apiKey ? r : undefined;
  }

  /** The key's requests (its own and any foreign client's), oldest first. */
  listOf(apiKey: string): readonly StoredRequest[] {
    this.sweep();
    return this.byKey.get(apiKey) ?? [];
  }

  /** Requests held, all keys (for the memory figures). */
  size(): number {
    return this.byId.size;
  }

  itemCount(r: StoredRequest): number {
    return r.cached.length + r.fresh.length + (r.errorItem ? 1 : 0);
  }

  /** Creation instant of item n (sandbox clock, ms). Increasing in n. */
  itemTime(r: StoredRequest, n: number): number {
    const nc = r.cached.length;
    if (n < nc) return r.createdMs + n;
    const j = n - nc;
    const d = this.opts.courtDelayMs;
    if (j >= r.fresh.length) return r.startMs + r.courtEnds.length * d + n;
    let lo = 0;
    let hi = r.courtEnds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (r.courtEnds[mid] > j) hi = mid; else lo = mid + 1;
    }
    return r.startMs + (lo + 1) * d + n;
  }

  /** Number of items created at or before t (they are the first ones). */
  countUpTo(r: StoredRequest, t: number): number {
    let lo = 0;
    let hi = this.itemCount(r);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.itemTime(r, mid) <= t) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  itemKind(r: StoredRequest, n: number): ItemKind {
    return r.errorItem && n === this.itemCount(r) - 1 ? 'error' : 'lawsuit';
  }

  /** The lawsuit of item n and the instant it was observed. */
  itemLawsuit(r: StoredRequest, n: number): { index: number; observedAt: number; cached: boolean } {
    const nc = r.cached.length;
    return n < nc ? { index: r.cached[n], observedAt: r.cachedObservedAt, cached: true } : { index: r.fresh[n - nc], observedAt: r.createdMs, cached: false };
  }

  statusAt(r: StoredRequest, now: number): RequestStatus {
    if (r.cancelMs !== undefined) {
      if (now >= r.cancelledMs!) return 'cancelled';
      if (now >= r.cancelMs) return 'cancelling';
    } else if (now >= r.completeMs) return 'completed';
    return now >= r.startMs ? 'started' : r.initial;
  }

  /** When the request last changed, as seen at `now`. */
  updatedAt(r: StoredRequest, now: number): number {
    let last = r.createdMs;
    for (const t of [r.startMs, r.completeMs, r.cancelMs, r.cancelledMs]) if (t !== undefined && t <= now && t > last) last = t;
    const visible = this.countUpTo(r, now);
    if (visible > 0) last = Math.max(last, this.itemTime(r, visible - 1));
    return last;
  }

  /** Who made the request: the API (a client's POST /requests), or a tracking's run. */
  originOf(r: StoredRequest): 'api' | 'tracking' {
    return r.trackingId === undefined ? 'api' : 'tracking';
  }

  /** The origin id of a request: its tracking's id for a run, else an id of its own (derived, not stored: memory). */
  originIdOf(r: StoredRequest): string {
    return r.trackingId ?? uuidOf(this.opts.seed, `origin:${this.opts.bootId}:${r.seq}`);
  }

  responseIdOf(r: StoredRequest, n: number): string {
    return uuidOf(this.opts.seed, `response:${r.id}`, n);
  }

  /**
   * Creates a request at time `now`. The search runs at once; its items are revealed with the clock. `levels` and
   * `unavailable` decide what a lawsuit-level read answers (levels.ts); by default, as the spec shows.
   */
  create(apiKey: string, search: NormalizedSearch, now: number, faults: RequestFaults, opts: CreateOptions = {}): StoredRequest {
    const signature = hashString(JSON.stringify([search.type, search.key, search.onDemand, search.instance ?? null, search.customerKey ?? null, search.filter]));
    const { hits, error } = answerOf(opts.levels ?? 'one', search, runSearch(this.universe, search, now), opts.unavailable);
    let cached: Ints = NONE;
    let cachedObservedAt = now;
    if (search.cacheTtlDays !== undefined && search.cacheTtlDays > 0) {
      this.sweep();
      const source = this.cachedSource(apiKey, signature, now, search.cacheTtlDays);
      if (source) { cached = source.fresh; cachedObservedAt = source.createdMs; }
    }
    return this.admit(apiKey, {
      search, echoJson: JSON.stringify(search.echo), signature, hits, cached, cachedObservedAt, now,
      // Queued for one court's time; longer under the pending_long fault.
      queueMs: this.opts.courtDelayMs + faults.pendingLongMs, cancel: faults.cancel,
      foreign: opts.foreign ?? false, initial: opts.initial ?? 'pending',
      errorItem: error !== undefined && !faults.cancel, appError: error, callbackUrl: opts.callbackUrl,
    });
  }

  /**
   * Records a tracking's run made at `at`: a request of origin `tracking` whose lawsuits the tracking chose
   * (tracking/runs.ts), queued `queueMs` before its courts are searched one after the other like any request's.
   */
  createRun(apiKey: string, run: { trackingId: string; search: NormalizedSearch; echoJson: string; hits: readonly RunLawsuit[]; at: number; queueMs: number; foreign: boolean; callbackUrl?: string }): StoredRequest {
    return this.admit(apiKey, {
      search: run.search, echoJson: run.echoJson, signature: 0, hits: run.hits, cached: NONE, cachedObservedAt: run.at, now: run.at,
      queueMs: run.queueMs, cancel: false, foreign: run.foreign, initial: 'pending', errorItem: false, trackingId: run.trackingId, callbackUrl: run.callbackUrl,
    });
  }

  /** Stores a request whose lawsuits are known, with its timeline: queued, then court after court. */
  private admit(apiKey: string, a: {
    search: NormalizedSearch; echoJson: string; signature: number; hits: readonly RunLawsuit[]; cached: Ints; cachedObservedAt: number; now: number;
    queueMs: number; cancel: boolean; foreign: boolean; initial: 'pending' | 'created'; errorItem: boolean; appError?: AppError; trackingId?: string; callbackUrl?: string;
  }): StoredRequest {
    this.sweep();
    const seq = ++this.seq;
    const d = this.opts.courtDelayMs;
    const { hits, now } = a;
    const courtEnds: number[] = [];
    for (let k = 0; k < hits.length; k++) {
      if (k > 0 && hits[k].tribunal !== hits[k - 1].tribunal) courtEnds.push(k);
    }
    if (hits.length > 0) courtEnds.push(hits.length);
    const nCourts = Math.max(1, courtEnds.length);
    const cancelAfterCourts = a.cancel ? Math.floor(nCourts / 2) : nCourts;
    const kept = cancelAfterCourts >= courtEnds.length ? hits.length : cancelAfterCourts === 0 ? 0 : courtEnds[cancelAfterCourts - 1];
    const fresh = ints(hits.slice(0, kept).map((h) => h.index));
    const ends = courtEnds.slice(0, Math.min(courtEnds.length, cancelAfterCourts));
    const r: StoredRequest = {
      id: uuidOf(this.opts.seed, `request:${this.opts.bootId}:${seq}`), seq, apiKey, foreign: a.foreign,
      userId: this.userIdOf(apiKey),
      createdMs: now, createdWall: this.wallNow(),
      search: { type: a.search.type, onDemand: a.search.onDemand, customerKey: a.search.customerKey }, echoJson: a.echoJson,
      signature: a.signature, initial: a.initial,
      cached: a.cached, cachedObservedAt: a.cachedObservedAt, fresh, courtEnds: ints(ends),
      errorItem: a.errorItem, startMs: now + a.queueMs, completeMs: 0,
    };
    if (a.trackingId !== undefined) r.trackingId = a.trackingId;
    if (a.errorItem && a.appError !== undefined && a.appError !== LAWSUIT_NOT_FOUND) r.appError = a.appError;
    if (a.callbackUrl !== undefined) r.callbackUrl = a.callbackUrl;
    const n = this.itemCount(r);
    const lastItem = n > 0 ? this.itemTime(r, n - 1) : r.startMs;
    if (a.cancel) {
      r.cancelMs = Math.max(r.startMs + cancelAfterCourts * d, lastItem);
      r.cancelledMs = r.cancelMs + d;
      r.completeMs = Number.POSITIVE_INFINITY;
    } else {
      r.completeMs = Math.max(r.startMs + nCourts * d, lastItem);
    }
    this.byId.set(r.id, r);
    let list = this.byKey.get(apiKey);
    if (!list) { list = []; this.byKey.set(apiKey, list); }
    // Kept in creation order: a tracking's run or another client's request may be made, lazily, at an instant
    // before requests already held (they were due while no call came).
    let at = list.length;
    while (at > 0 && list[at - 1].createdMs > r.createdMs) at--;
    list.splice(at, 0, r);
    if (r.callbackUrl !== undefined) for (const f of this.withCallback) f(r);
    return r;
  }

  /** The latest completed request of the same key and search within the TTL (`cache_ttl_in_days`). */
  private cachedSource(apiKey: string, signature: number, now: number, ttlDays: number): StoredRequest | undefined {
    const list = this.byKey.get(apiKey) ?? [];
    for (let k = list.length - 1; k >= 0; k--) {
      const r = list[k];
      // A tracking's run holds only what it chose to send (what changed): never an answer to repeat.
      if (r.trackingId !== undefined || r.signature !== signature || this.statusAt(r, now) !== 'completed') continue;
      if (r.completeMs >= now - ttlDays * DAY_MS) return r;
    }
    return undefined;
  }

  /** Wall-clock instant after which a request is forgotten. */
  expiresWall(r: StoredRequest): number {
    const finished = r.cancelledMs ?? r.completeMs;
    return r.createdWall + (finished - r.createdMs) + this.opts.retentionMs;
  }

  /** Forgets the requests past retention (at most once a second: it walks them all). */
  sweep(force = false): void {
    const wall = this.wallNow();
    if (!force && wall - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = wall;
    for (const [key, list] of this.byKey) {
      const keep = list.filter((r) => this.expiresWall(r) > wall);
      if (keep.length === list.length) continue;
      for (const r of list) if (this.expiresWall(r) <= wall) this.byId.delete(r.id);
      if (keep.length === 0) this.byKey.delete(key); else this.byKey.set(key, keep);
    }
  }
}
