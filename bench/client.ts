import { LawsuitApi, type ApiClientOptions } from '../src/api/client.js';
import { HttpClient } from '../src/api/http.js';
import { AdaptiveLimiter } from '../src/api/rate-limit.js';

// The one client every bench part talks to an upstream through (STYLE.md, habit 18). The service's endpoints go
// through the project's own client (src/api: `api`), which takes what the dialect answers (200, 201 or 202 where
// the provider documents them) and reads both error bodies (the spec's `{error, message, code}` and the
// documented `{error: {name, message, data}}`, errorForStatus). What src/api rightly does not know, the sandbox's
// own endpoints (/_sandbox/...) and a page timed as it comes, goes through `call`: the same HTTP layer, any 2xx
// an answer, anything else the error src/api makes of it. A part that is itself a client under measure (the
// fixed-concurrency client of rate-use.ts) uses `send`, which hands back whatever came. A part that expected 200
// where the documented dialect answers 201 once stopped the whole bench; here no part reads a status itself.

const TWO_XX: readonly number[] = Array.from({ length: 100 }, (_, i) => 200 + i);

export interface BenchClientOptions {
  /** The api-key header. Default 'sandbox-key'. */
  apiKey?: string;
  /** Calls in flight at once. Default 16. */
  maxConcurrency?: number;
  /** Retries of a failing call (a part that may kill its upstream asks for few). Default the client's (6). */
  retries?: number;
  /** Largest answer accepted, in bytes. Default 256 MiB: the bench reads whole synchronous answers of big parties. */
  maxBodyBytes?: number;
}

/** What came back from `send`: any status. */
export interface Sent { status: number; headers: Record<string, string>; text: string }

export class BenchClient {
  /** The project's API client (src/api), for every endpoint of the service. */
  readonly api: LawsuitApi;
  private readonly http: HttpClient;
  private readonly limiter: AdaptiveLimiter;
  private readonly apiKey: string;

  constructor(readonly url: string, opts: BenchClientOptions = {}) {
    const urls = { requests: url, tracking: url, lawsuits: url, transfer: url };
    const apiKey = (this.apiKey = opts.apiKey ?? 'sandbox-key');
    const base: ApiClientOptions = { apiKey, urls, maxConcurrency: opts.maxConcurrency, retries: opts.retries, maxBodyBytes: opts.maxBodyBytes ?? 256 * 2 ** 20 };
    this.api = new LawsuitApi(base);
    this.limiter = new AdaptiveLimiter({ maxConcurrency: opts.maxConcurrency ?? 16 });
    this.http = new HttpClient({ apiKey, urls, limiter: this.limiter, retries: opts.retries, connections: opts.maxConcurrency ?? 16, maxBodyBytes: base.maxBodyBytes });
  }

  /** `method path` answered with any 2xx: its JSON body; any other status throws the ApiError src/api makes of it. */
  async call<T = unknown>(method: 'GET' | 'POST', path: string, opts: { query?: Record<string, string | number | undefined>; body?: unknown } = {}): Promise<T> {
    const res = await this.http.call({
      base: 'requests', method, path, route: `${method} ${path.replace(/\/[0-9a-f-]{16,}(?=\/|$)/g, '/:id')}`, query: opts.query, body: opts.body,
      safety: 'idempotent', ok: TWO_XX, parse: (b) => b as T,
    });
    return res.body;
  }

  /** One attempt, whatever it answers (no retry, no limiter): for a client under measure that reads statuses itself. */
  async send(method: 'GET' | 'POST', path: string, query: Record<string, string | number> = {}): Promise<Sent> {
    const q = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const res = await fetch(`${this.url}${path}${q ? `?${q}` : ''}`, { method, headers: { 'api-key': this.apiKey } });
    return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
  }

  /** The sandbox's clock now (epoch ms). */
  async clock(): Promise<number> {
    return Date.parse((await this.call<{ now: string }>('GET', '/_sandbox/clock')).now);
  }

  /** Moves the sandbox's clock on by `days` (never waited for). */
  async advanceClock(days: number): Promise<void> {
    await this.call('POST', '/_sandbox/clock', { body: { advance_days: days } });
  }

  /** The lawsuits whose content a search sees changed between two instants of the sandbox's clock, as `code#instance`. */
  async changedBetween(from: number, to: number): Promise<Set<string>> {
    const out = new Set<string>();
    type Changes = { lawsuits: Array<{ code: string; instance: number }>; next_index: number | null };
    for (let index: number | null = 0; index !== null;) {
      const query: Record<string, string | number> = { from: new Date(from).toISOString(), to: new Date(to).toISOString(), limit: 10_000, from_index: index };
      const body: Changes = await this.call<Changes>('GET', '/_sandbox/changes', { query });
      for (const l of body.lawsuits) out.add(`${l.code}#${l.instance}`);
      index = body.next_index;
    }
    return out;
  }

  /** The sandbox's own figures (requests it holds, ...). */
  stats(): Promise<{ requests_held: number }> {
    return this.call('GET', '/_sandbox/stats');
  }

  async close(): Promise<void> {
    this.limiter.close();
    await Promise.all([this.api.close(), this.http.close()]);
  }
}
