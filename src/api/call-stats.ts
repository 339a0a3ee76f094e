import type { Logger } from 'pino';

// The client's figures: calls by status and route, retries, calls answered, and the calls over time for the
// report's chart against the rate limit. An observer of the attempts: it decides nothing.

export interface CallEvent { method: string; route: string; status: number | 'network'; ms: number; attempt: number }

/** Calls in one slice of the run's time line (TIMELINE_SLICE_MS), for charts of the calls against the limit. */
export interface CallSlice {
  /** Start of the slice, ms after the client's first call. */
  at: number;
  calls: number;
  /** Of which answered 429. */
  limited: number;
  /** X-RateLimit-Limit last seen in the slice (the key's calls per window), when the provider sent it. */
  limit?: number;
  /** Lowest X-RateLimit-Remaining seen in the slice. */
  remaining?: number;
}

export interface HttpStats {
  calls: number;
  byStatus: Record<string, number>;
  byRoute: Record<string, number>;
  /** Calls by route and status, `GET /responses 200`. */
  byRouteStatus: Record<string, number>;
  retries: number;
  /**
   * Calls whose answer arrived whole with a status below 500: the upstream was reached. None of many means the
   * service was unreachable, or failing, all along (the run then exits 75, try later).
   */
  answered: number;
  /** The calls over time, in slices of TIMELINE_SLICE_MS. */
  timeline: CallSlice[];
}

/** Width of a time-line slice: 10 s keeps a nine-hour night to some 3 000 slices. */
export const TIMELINE_SLICE_MS = 10_000;

/** The rate figures of an answer, as the time line keeps them. */
export interface RateFigures { limit?: number; remaining?: number }

/** One attempt as the observer sees it: `status` 'network' when no answer arrived. */
interface Attempted extends CallEvent { figures?: RateFigures; answered: boolean }

export class CallStats {
  private readonly counters: HttpStats = { calls: 0, byStatus: {}, byRoute: {}, byRouteStatus: {}, retries: 0, answered: 0, timeline: [] };
  private firstCallAt: number | undefined;

  constructor(private readonly observers: { logger?: Logger; onCall?: (e: CallEvent) => void } = {}, private readonly now: () => number = Date.now) {}

  attempted(a: Attempted): void {
    const c = this.counters;
    const status = String(a.status);
    c.calls++;
    c.byStatus[status] = (c.byStatus[status] ?? 0) + 1;
    c.byRoute[a.route] = (c.byRoute[a.route] ?? 0) + 1;
    const rs = `${a.route} ${status}`;
    c.byRouteStatus[rs] = (c.byRouteStatus[rs] ?? 0) + 1;
    if (a.answered) c.answered++;
    this.slice(a.status, a.figures ?? {});
    const event: CallEvent = { method: a.method, route: a.route, status: a.status, ms: a.ms, attempt: a.attempt };
    this.observers.onCall?.(event);
    this.observers.logger?.debug(event, 'api call');
  }

  retried(): void {
    this.counters.retries++;
  }

  snapshot(): HttpStats {
    const c = this.counters;
    return {
      ...c, byStatus: { ...c.byStatus }, byRoute: { ...c.byRoute }, byRouteStatus: { ...c.byRouteStatus }, timeline: c.timeline.map((x) => ({ ...x })),
    };
  }

  /** Counts a call in the time line's current slice. */
  private slice(status: number | 'network', figures: RateFigures): void {
    const now = this.now();
    this.firstCallAt ??= now;
    const at = Math.floor((now - this.firstCallAt) / TIMELINE_SLICE_MS) * TIMELINE_SLICE_MS;
    const line = this.counters.timeline;
    let cur = line[line.length - 1];
    if (!cur || cur.at !== at) {
      cur = { at, calls: 0, limited: 0 };
      line.push(cur);
    }
    cur.calls++;
    if (status === 429) cur.limited++;
    if (figures.limit !== undefined) cur.limit = figures.limit;
    if (figures.remaining !== undefined) cur.remaining = Math.min(cur.remaining ?? Infinity, figures.remaining);
  }
}
