import type { Logger } from 'pino';
import type { CallDeadlines } from '../shared/config.js';
import type { CallEvent, HttpStats } from './call-stats.js';
import { HttpClient } from './http.js';
import { AdaptiveLimiter } from './rate-limit.js';
import { RequestsResource } from './requests.js';
import { ResponsesResource } from './responses.js';
import { TrackingResource } from './tracking.js';
import { LawsuitsResource } from './lawsuits.js';
import { TransferFilesResource } from './transfer-files.js';
import { ListingProbe } from './probe.js';

// The client of the Lawsuit Query Service: one limiter for the key, one HTTP layer, one object per resource.

export interface ApiClientOptions {
  /** The api-key header value. Never logged nor put in a message. */
  apiKey: string;
  /** The four base addresses; any may carry a path prefix. Base addresses on one origin share a socket pool. */
  urls: { requests: string; tracking: string; lawsuits: string; transfer: string };
  /** Configured ceiling of calls in flight, across all four addresses. Default 16. */
  maxConcurrency?: number;
  /** Configured ceiling of calls per rate-limit window, below the service's. Default: the service's limit. */
  rateLimit?: number;
  /** Retries after the first attempt of one call. Default 6. */
  retries?: number;
  /** First window of the exponential backoff, in ms. Default 500. */
  baseDelayMs?: number;
  /** Ceiling of the backoff window and of the jitter on a server-named wait, in ms. Default 30 000. */
  maxDelayMs?: number;
  /** Longest Retry-After accepted before giving up on a call, in ms. Default 300 000. */
  maxWaitMs?: number;
  /** Deadlines of one call (connect, headers, whole body; a download's whole body), in ms. Default DEFAULT_DEADLINES. */
  deadlines?: Partial<CallDeadlines>;
  /** Wait before looking up a request whose creation went unanswered, in ms. Default 1000. */
  lookupDelayMs?: number;
  logger?: Logger;
  /** Aborted on SIGTERM: nothing more is sent; queued calls and retry waits end at once (API_CLOSED). */
  signal?: AbortSignal;
  /** Called after every attempt (status 'network' when no answer arrived). */
  onCall?: (e: CallEvent) => void;
  /** Send only GET calls (a dry run's client); any other is refused before it leaves (HttpOptions.readsOnly). */
  readsOnly?: boolean;
  /** Largest answer body accepted, in bytes (HttpOptions.maxBodyBytes). Default 64 MiB. */
  maxBodyBytes?: number;
  /**
   * Sent as `callback_url` with every request and tracking made (the webhook intake's URL): their responses are
   * pushed there as they are made. It carries the intake's secret: never logged.
   */
  callbackUrl?: string;
}

export type ApiStats = HttpStats;

export class LawsuitApi {
  readonly limiter: AdaptiveLimiter;
  readonly requests: RequestsResource;
  readonly responses: ResponsesResource;
  readonly tracking: TrackingResource;
  readonly lawsuits: LawsuitsResource;
  readonly transfer: TransferFilesResource;
  /** Any listing's first page as it comes, headers kept: for learning the dialect, never for loading. */
  readonly probe: ListingProbe;
  private readonly http: HttpClient;

  constructor(opts: ApiClientOptions) {
    const maxConcurrency = opts.maxConcurrency ?? 16;
    this.limiter = new AdaptiveLimiter({ maxConcurrency, limit: opts.rateLimit, maxPauseMs: opts.maxWaitMs });
    const logger = opts.logger?.child({ component: 'api' });
    this.http = new HttpClient({
      apiKey: opts.apiKey, urls: opts.urls, limiter: this.limiter, retries: opts.retries,
      baseDelayMs: opts.baseDelayMs, maxDelayMs: opts.maxDelayMs, maxWaitMs: opts.maxWaitMs,
      deadlines: opts.deadlines, connections: maxConcurrency, logger, onCall: opts.onCall, signal: opts.signal, readsOnly: opts.readsOnly,
      maxBodyBytes: opts.maxBodyBytes,
    });
    this.requests = new RequestsResource(this.http, { logger, lookupDelayMs: opts.lookupDelayMs, callbackUrl: opts.callbackUrl });
    this.responses = new ResponsesResource(this.http);
    this.tracking = new TrackingResource(this.http, opts.callbackUrl);
    this.lawsuits = new LawsuitsResource(this.http);
    this.transfer = new TransferFilesResource(this.http, {
      baseDelayMs: opts.baseDelayMs, maxDelayMs: opts.maxDelayMs, deadlines: opts.deadlines, signal: opts.signal,
    });
    this.probe = new ListingProbe(this.http);
  }

  /** The key as the upstream may echo it: what the transfer step removes from a file's text (shared/echoed-secret.ts). */
  get keyForms(): readonly string[] {
    return this.http.keyForms;
  }

  /** Calls made (every attempt), by status ("network" when none came back) and by route, and retries. */
  stats(): ApiStats {
    return this.http.stats();
  }

  /**
   * The stage's wait budget ends at `at` (epoch ms), or undefined for none: past it nothing is retried and the
   * first failure ends sending (HttpClient.budgetUntil).
   */
  budgetUntil(at: number | undefined): void {
    this.http.budgetUntil(at);
  }

  /** Set once the stage's wait budget was spent on a failing upstream: nothing more is sent this stage. */
  spentBudget(): Error | undefined {
    return this.http.spentBudget();
  }

  /**
   * The provider's now (epoch ms on its clock), as its Date headers bound it (the middle of what they allow), or
   * undefined before any answer carried one: its created_at are on that clock, however far ours is off.
   */
  providerNow(): number | undefined {
    const c = this.http.providerClock();
    return c ? Date.now() + Math.round((c.low + c.high) / 2) : undefined;
  }

  /** Drops queued calls and closes the sockets; calls in flight are cut. */
  async close(): Promise<void> {
    this.limiter.close();
    await Promise.all([this.http.close(), this.transfer.close()]);
  }
}
