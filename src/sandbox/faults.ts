// Fault switches: the ways a real upstream misbehaves, injected on purpose so that the client's retries and
// resumption are exercised. A fault never corrupts the sandbox's own state: a call is either not processed at
// all (5xx, reset, storm) or fully processed before its answer is spoiled (reset_after, post_after_store,
// truncate, slow), and the client must cope with not knowing which.
//
// Spec string: comma-separated `name=rate[:ms]`, rate a probability in [0, 1]. Example:
//   "5xx=0.05,reset=0.02,slow=0.05:1500,truncate=0.02,storm=0.01:5000,pending_long=0.1:60000,cancel=0.05,post_after_store=0.5"
// Draws come from a PRNG seeded by the sandbox seed, so a given sequence of calls meets the same faults.
//
// Five switches describe an upstream that behaves differently rather than failing: `stale_listing` (the
// requests listing never shows some requests finished), `ignore_filters` (GET /responses ignores every
// parameter but request_id, page and page_size), `foreign` (another client shares the key and makes
// requests of its own during the night), `no_rate_headers` (answers carry no rate-limit header at all) and
// `lawsuit_unavailable` (some lawsuits the provider holds are refused to a lawsuit-level read).
//
// Four switches spoil the deliveries pushed to a callback_url (callbacks.ts), as a provider's webhooks may:
// `callback_twice` (a delivery sent again after it was answered 2xx), `callback_disorder=rate:ms` (a delivery held
// back up to ms, so that later ones overtake it), `callback_drop` (a delivery given up as if its last retry had
// failed: never delivered) and `callback_slow=rate:ms` (a delivery sent ms late).

import { LAWSUIT_NOT_FOUND, LAWSUIT_SECRET, type AppError } from './levels.js';
import { hash, hashString, Rng } from './random.js';

export interface FaultSettings {
  /** `5xx`: probability that an API call is answered 500/502/503 before it is processed. Default 0. */
  error5xx?: number;
  /** `reset`: probability that the connection is destroyed before the call is processed. Default 0. */
  reset?: number;
  /** `reset_after`: probability that a call is processed, then its connection destroyed unanswered. Default 0. */
  resetAfter?: number;
  /** `slow`: probability that an answer is held back `slowMs` milliseconds. Default 0. */
  slow?: number;
  /** Delay of a slow answer, in milliseconds. Default 1500. */
  slowMs?: number;
  /** `truncate`: probability that an answer's body is cut in half (Content-Length announces it whole). Default 0. */
  truncate?: number;
  /** `storm`: probability per call that a 429 storm starts: every API call is refused for `stormMs`, budget or not. Default 0. */
  storm?: number;
  /** Length of a 429 storm, in milliseconds. Default 5000. */
  stormMs?: number;
  /** `pending_long`: probability that a new request stays pending `pendingLongMs` longer than its courts need. Default 0. */
  pendingLong?: number;
  /** Extra pending time of such a request, in milliseconds (sandbox clock). Default 60000. */
  pendingLongMs?: number;
  /** `cancel`: probability that a new request ends `cancelled` halfway through its courts. Default 0. */
  cancel?: number;
  /** `post_after_store`: probability that a POST/PATCH is processed (stored) and then answered 500. Default 0. */
  postAfterStore?: number;
  /** `stale_listing`: share of requests that GET /requests lists as still running after they finished
   * (GET /requests/<id> tells the truth). Default 0. */
  staleListing?: number;
  /** `ignore_filters`: probability that a GET /responses call ignores every parameter but request_id, page and
   * page_size, answering the key's whole history in creation order (1: every call). Default 0. */
  ignoreFilters?: number;
  /** `foreign`: probability, in each tick of `foreignMs` (sandbox clock), that another client sharing the key
   * makes a request. Its calls take slots of the key's rate window. Default 0. */
  foreign?: number;
  /** Tick of the foreign client, in milliseconds. Default 1000. */
  foreignMs?: number;
  /** `no_rate_headers`: probability that an API answer carries no rate-limit header (no X-RateLimit-*, no
   * Retry-After), so that a client must pace from its own count alone (1: every answer). Default 0. */
  noRateHeaders?: number;
  /** `lawsuit_unavailable`: share of CNJ numbers whose lawsuit-level reads (lawsuit_cnj, lawsuit_id searches) answer
   * one application_error item instead of the lawsuit they find: LAWSUIT_NOT_FOUND for half of them, SECRET_LAWSUIT
   * for the others. Drawn per number from the seed, so a number is refused on every read while the rate stands, and
   * the same numbers for one seed and rate (a higher rate refuses a superset). Default 0. */
  lawsuitUnavailable?: number;
  /** `callback_twice`: probability that a delivery is sent a second time once answered 2xx. Default 0. */
  callbackTwice?: number;
  /** `callback_disorder`: probability that a delivery is held back a random time up to `callbackDisorderMs`, so that later
   * deliveries overtake it. Default 0. */
  callbackDisorder?: number;
  /** Longest hold of an out-of-order delivery, in ms (real time). Default 300. */
  callbackDisorderMs?: number;
  /** `callback_drop`: probability that a delivery is dropped as if its last retry had failed (never delivered). Default 0. */
  callbackDrop?: number;
  /** `callback_slow`: probability that a delivery is sent `callbackSlowMs` late. Default 0. */
  callbackSlow?: number;
  /** Delay of a slow delivery, in ms (real time). Default 1000. */
  callbackSlowMs?: number;
}

const KEYS: Record<string, [keyof FaultSettings, (keyof FaultSettings)?]> = {
  '5xx': ['error5xx'], reset: ['reset'], reset_after: ['resetAfter'], slow: ['slow', 'slowMs'], truncate: ['truncate'],
  storm: ['storm', 'stormMs'], pending_long: ['pendingLong', 'pendingLongMs'], cancel: ['cancel'], post_after_store: ['postAfterStore'],
  stale_listing: ['staleListing'], ignore_filters: ['ignoreFilters'], foreign: ['foreign', 'foreignMs'],
  no_rate_headers: ['noRateHeaders'], lawsuit_unavailable: ['lawsuitUnavailable'],
  callback_twice: ['callbackTwice'], callback_disorder: ['callbackDisorder', 'callbackDisorderMs'], callback_drop: ['callbackDrop'],
  callback_slow: ['callbackSlow', 'callbackSlowMs'],
};

/** Parses a fault spec string; throws a RangeError naming every bad part at once. */
export function parseFaults(spec: string): FaultSettings {
  const out: FaultSettings = {};
  const problems: string[] = [];
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z0-9_]+)=([0-9.]+)(?::([0-9]+))?$/.exec(part);
    const key = m ? KEYS[m[1]] : undefined;
    if (!m || !key) { problems.push(`unknown fault "${part}" (known: ${Object.keys(KEYS).join(', ')})`); continue; }
    const rate = Number(m[2]);
    if (!(rate >= 0 && rate <= 1)) { problems.push(`fault "${m[1]}" rate must be within [0, 1]`); continue; }
    (out as Record<string, number>)[key[0]] = rate;
    if (m[3] !== undefined) {
      if (!key[1]) { problems.push(`fault "${m[1]}" takes no duration`); continue; }
      if (m[1] === 'foreign' && Number(m[3]) < 1) { problems.push('fault "foreign" needs a tick of at least 1 ms'); continue; }
      (out as Record<string, number>)[key[1]] = Number(m[3]);
    }
  }
  if (problems.length > 0) throw new RangeError(`bad fault spec: ${problems.join('; ')}`);
  return out;
}

export function toFaultSettings(f: FaultSettings | string | undefined): FaultSettings {
  return f === undefined ? {} : typeof f === 'string' ? parseFaults(f) : { ...f };
}

interface CallFaults {
  storm429: boolean;
  error5xx: number | undefined;
  reset: boolean;
  resetAfter: boolean;
  slowMs: number;
  truncate: boolean;
  postAfterStore: boolean;
}

/** What spoils one delivery to a callback_url. */
export interface DeliveryFaults {
  /** Sent a second time once answered 2xx. */
  twice: boolean;
  /** Held back this long before its first attempt (out of order), ms. */
  holdMs: number;
  /** Never delivered, as if its last retry had failed. */
  drop: boolean;
  /** Sent this late, ms. */
  slowMs: number;
}

export class FaultInjector {
  private settings: FaultSettings;
  private rng: Rng;
  private stormUntil = 0;
  private listingCalls = 0;
  private answeredCalls = 0;
  constructor(private readonly seed: number, settings: FaultSettings | string | undefined) {
    this.settings = toFaultSettings(settings);
    this.rng = new Rng(hash(seed, 900));
  }

  set(f: FaultSettings | string): void {
    this.settings = toFaultSettings(f);
    this.rng = new Rng(hash(this.seed, 900));
    this.stormUntil = 0;
    this.listingCalls = 0;
    this.answeredCalls = 0;
  }

  get(): FaultSettings {
    return { ...this.settings };
  }

  /** The faults of one API call. Always draws the same number of values, so sequences stay reproducible. */
  draw(now = Date.now()): CallFaults {
    const s = this.settings;
    const r = Array.from({ length: 8 }, () => this.rng.next());
    if (r[0] < (s.storm ?? 0) && now >= this.stormUntil) this.stormUntil = now + (s.stormMs ?? 5000);
    return {
      storm429: now < this.stormUntil,
      error5xx: r[1] < (s.error5xx ?? 0) ? [500, 502, 503][Math.floor(r[7] * 3)] : undefined,
      reset: r[2] < (s.reset ?? 0),
      resetAfter: r[3] < (s.resetAfter ?? 0),
      slowMs: r[4] < (s.slow ?? 0) ? (s.slowMs ?? 1500) : 0,
      truncate: r[5] < (s.truncate ?? 0),
      postAfterStore: r[6] < (s.postAfterStore ?? 0),
    };
  }

  /** Milliseconds left in the current 429 storm (0 when none). */
  stormRemainingMs(now = Date.now()): number {
    return Math.max(0, this.stormUntil - now);
  }

  /** Whether the requests listing shows request `seq` as still running once it has finished. */
  listsStale(seq: number): boolean {
    return hash(this.seed, 903, seq) / 4294967296 < (this.settings.staleListing ?? 0);
  }

  /** Whether this GET /responses call ignores its filters (its own draw sequence, apart from the call faults). */
  ignoresFilters(): boolean {
    const rate = this.settings.ignoreFilters ?? 0;
    return rate > 0 && hash(this.seed, 904, this.listingCalls++) / 4294967296 < rate;
  }

  /** Whether this answer leaves out its rate headers (its own draw sequence: the call faults' stay as they were). */
  omitsRateHeaders(): boolean {
    const rate = this.settings.noRateHeaders ?? 0;
    return rate > 0 && hash(this.seed, 905, this.answeredCalls++) / 4294967296 < rate;
  }

  /** What a lawsuit-level read of this CNJ number answers instead of its lawsuit, under `lawsuit_unavailable`. */
  unavailableLawsuit(code: string): AppError | undefined {
    const rate = this.settings.lawsuitUnavailable ?? 0;
    if (rate <= 0) return undefined;
    const h = hashString(code.replace(/\D/g, ''));
    if (hash(this.seed, 906, h) / 4294967296 >= rate) return undefined;
    return hash(this.seed, 907, h) % 2 === 0 ? LAWSUIT_NOT_FOUND : LAWSUIT_SECRET;
  }

  /** The foreign client's pace, when it is on. */
  foreignClient(): { rate: number; tickMs: number } | undefined {
    const rate = this.settings.foreign ?? 0;
    return rate > 0 ? { rate, tickMs: this.settings.foreignMs ?? 1000 } : undefined;
  }

  /** What spoils delivery `seq` (callbacks.ts): drawn from its sequence number alone, so a given run of deliveries meets the same faults. */
  forDelivery(seq: number): DeliveryFaults {
    const s = this.settings;
    const u = (k: number) => hash(this.seed, 910 + k, seq) / 4294967296;
    return {
      twice: u(0) < (s.callbackTwice ?? 0),
      holdMs: u(1) < (s.callbackDisorder ?? 0) ? Math.floor(u(2) * (s.callbackDisorderMs ?? 300)) : 0,
      drop: u(3) < (s.callbackDrop ?? 0),
      slowMs: u(4) < (s.callbackSlow ?? 0) ? (s.callbackSlowMs ?? 1000) : 0,
    };
  }

  /** Request-level faults, decided once from the request's sequence number (deterministic per seed). */
  forRequest(seq: number): { pendingLongMs: number; cancel: boolean } {
    const s = this.settings;
    const a = hash(this.seed, 901, seq) / 4294967296;
    const b = hash(this.seed, 902, seq) / 4294967296;
    return { pendingLongMs: a < (s.pendingLong ?? 0) ? (s.pendingLongMs ?? 60000) : 0, cancel: b < (s.cancel ?? 0) };
  }
}
