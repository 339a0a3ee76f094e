// Another client sharing the caller's key (the `foreign` fault): every tick of the sandbox clock it may make a
// request of its own, for documents of its own portfolio, so that its responses show up in GET /responses
// without request_id, interleaved in creation time with the caller's, and its requests in GET /requests.
//
// It is lazy like the rest of the sandbox: the requests due since the key's previous call are made when the
// key calls again, each at its own tick's instant (always later than the key's previous call, so the key's
// requests stay in creation order). Each one takes a slot of the key's rate window when it is made, and is not
// made when the window is full: the foreign client met a 429.
//
// It may also own trackings on the key (`track`, through /_sandbox/): their runs are requests of origin
// `tracking` on the key like the caller's trackings' runs, their responses in GET /responses without request_id,
// and the trackings themselves in GET /tracking; the caller must tell them from its own by the ids it created.

import type { FaultInjector } from './faults.js';
import { hash } from './random.js';
import type { SlidingWindowLimiter } from './rate-limit.js';
import type { RequestStore } from './request-store.js';
import { validateSearchBody, type NormalizedSearch } from './search-validation.js';
import type { StoredTracking } from './tracking/records.js';
import type { Trackings } from './tracking/trackings.js';
import type { Universe } from './universe.js';

/** What the foreign client works with: the same universe, store, trackings, rate window and switches as the caller. */
interface ForeignClientDeps { universe: Universe; store: RequestStore; trackings: Trackings; limiter: SlidingWindowLimiter; faults: FaultInjector }

/** At most this many ticks are caught up at once (after a jump of the clock, the older ones are skipped). */
const MAX_CATCH_UP = 200;
const PORTFOLIO = 40;

export class ForeignClient {
  private readonly lastTick = new Map<string, number>();
  private portfolio?: NormalizedSearch[];

  constructor(private readonly deps: ForeignClientDeps) {}

  /** Makes the requests due by `now` on `apiKey`. */
  catchUp(apiKey: string, now: number): void {
    const pace = this.deps.faults.foreignClient();
    if (!pace) { this.lastTick.delete(apiKey); return; }
    const tick = Math.floor(now / pace.tickMs);
    const last = this.lastTick.get(apiKey);
    this.lastTick.set(apiKey, tick);
    // The foreign client starts with the key's first call seen while the switch is on.
    if (last === undefined || tick <= last) return;
    const seed = this.deps.universe.seed;
    for (let k = Math.max(last + 1, tick - MAX_CATCH_UP + 1); k <= tick; k++) {
      if (hash(seed, 910, k) / 4294967296 >= pace.rate) continue;
      if (!this.deps.limiter.take(apiKey).allowed) continue;
      const searches = this.searches(now);
      if (searches.length === 0) return;
      const search = searches[hash(seed, 911, k) % searches.length];
      this.deps.store.create(apiKey, search, k * pace.tickMs, { pendingLongMs: 0, cancel: false }, { foreign: true });
    }
  }

  /**
   * Tracks up to `count` documents of its portfolio on `apiKey` at `now` (those it, or anyone on the key, already
   * tracks are skipped): the trackings it made.
   */
  track(apiKey: string, count: number, recurrence: number, now: number): StoredTracking[] {
    const made: StoredTracking[] = [];
    const { trackings } = this.deps;
    for (const search of this.searches(now)) {
      if (made.length >= count) break;
      if (trackings.records.existing(apiKey, search)) continue;
      made.push(trackings.create(apiKey, search, recurrence, now, { foreign: true }));
    }
    return made;
  }

  /** Documents of the foreign client's own portfolio: parties of lawsuits drawn apart from the samples'. */
  private searches(now: number): NormalizedSearch[] {
    if (this.portfolio) return this.portfolio;
    const u = this.deps.universe;
    const out: NormalizedSearch[] = [];
    for (let tries = 0; out.length < PORTFOLIO && tries < PORTFOLIO * 20; tries++) {
      const o = u.observe(hash(u.seed, 912, tries) % u.count, now, false);
      if (!o) continue;
      const q = o.parties[hash(u.seed, 913, tries) % o.parties.length];
      const type = q.documentType === 'CPF' ? 'cpf' : q.documentType === 'CNPJ' ? 'cnpj' : 'oab';
      const v = validateSearchBody({ search: { search_type: type, search_key: q.document } });
      if (v.ok) out.push(v.search);
    }
    this.portfolio = out;
    return out;
  }
}
