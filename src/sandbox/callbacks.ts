// Webhooks, as the provider documents them (REFERENCE.md, "Two levels", Webhooks): a request or a tracking made with
// a `callback_url` (top level of the body) has each of its responses POSTed there as it is made, in the envelope
// `{user_id, callback_id, event_type: "response_created", reference_type: "request" | "tracking", reference_id,
// payload}`, the payload being the response item the listing shows (response-item.ts). A delivery not answered 2xx,
// or not answered in time, is tried again after a wait that doubles, up to a number of attempts, then given up: the
// provider does not say for how long it retries, so a receiver that was down longer must catch up by listing.
// Nothing is signed (the URL carries the receiver's secret).
//
// Unlike the rest of the sandbox this runs in the background: a response is pushed when it is made, not when a
// client asks. A tick walks the requests with a callback whose responses are still to come, hands out those made
// by now (in the request's order), and makes the runs due of the keys whose trackings push. Sends go through one
// queue of bounded concurrency; the fault switches (faults.ts, `callback_*`) repeat, hold back, delay or drop
// deliveries, each drawn from the delivery's sequence number.

import { EventEmitter, once } from 'node:events';
import PQueue from 'p-queue';
import type { SandboxClock } from './clock.js';
import type { DeliveryFaults, FaultInjector } from './faults.js';
import { uuidOf } from './random.js';
import { FINISHED, type RequestStore, type StoredRequest } from './request-store.js';
import type { Trackings } from './tracking/trackings.js';

interface CallbackOptions {
  /** Wait before the second attempt of a delivery not answered 2xx, doubled for each attempt after it (at most 60 s), in real ms. Default 1000. */
  retryMs: number;
  /** Attempts of one delivery before it is given up. Default 8 (some two minutes of retries at the default wait). */
  attempts: number;
  /** Longest wait for the receiver's answer, in ms. Default 10000. */
  timeoutMs: number;
  /** Deliveries in flight at once. Default 16. */
  concurrency: number;
}

export const DEFAULT_CALLBACK_OPTIONS: Readonly<CallbackOptions> = { retryMs: 1000, attempts: 8, timeoutMs: 10_000, concurrency: 16 };

/** What the pushing did, for introspection (GET /_sandbox/callbacks) and tests. */
export interface CallbackStats {
  /** Deliveries made: one per response of a request (or a tracking's run) with a callback_url. */
  deliveries: number;
  /** Deliveries answered 2xx (a repeated one counted once). */
  delivered: number;
  /** POSTs sent, retries and repeats included. */
  attempts: number;
  /** Attempts not answered 2xx, or not answered in time. */
  failedAttempts: number;
  /** Deliveries given up: past their last attempt, or by the callback_drop fault. */
  dropped: number;
  /** Deliveries sent again once delivered (callback_twice). */
  repeated: number;
  /** Response ids of the deliveries given up, in the order given up. */
  droppedIds: string[];
}

interface Delivery { seq: number; url: string; responseId: string; body: string; attempt: number; faults: DeliveryFaults }

interface CallbackDeps {
  store: RequestStore;
  clock: SandboxClock;
  faults: FaultInjector;
  trackings: Trackings;
  seed: number;
  /** The response item n of r as seen at `now` (response-item.ts). */
  render(r: StoredRequest, n: number, now: number): Record<string, unknown>;
}

/** How often the requests with a callback are looked at for responses made since, in real ms. */
const TICK_MS = 20;
const MAX_RETRY_WAIT_MS = 60_000;

/** The callback_url of a request or tracking body, checked: an http(s) address, or undefined when absent. */
export function readCallbackUrl(body: unknown, reasons: string[]): string | undefined {
  const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).callback_url : undefined;
  if (v === undefined || v === null) return undefined;
  let ok = typeof v === 'string' && v.length <= 2048;
  if (ok) {
    try {
      ok = ['http:', 'https:'].includes(new URL(v as string).protocol);
    } catch {
      ok = false;
    }
  }
  if (!ok) reasons.push('callback_url must be an http or https address (at most 2048 characters)');
  return ok ? (v as string) : undefined;
}

export class CallbackDispatcher {
  readonly stats: CallbackStats = { deliveries: 0, delivered: 0, attempts: 0, failedAttempts: 0, dropped: 0, repeated: 0, droppedIds: [] };
  /** Requests whose responses are still to be handed out, with the index of the next one. */
  private readonly watching = new Map<StoredRequest, number>();
  /** Keys with a tracking that pushes: their runs are made as they fall due, not when the key next calls. */
  private readonly keys = new Set<string>();
  private readonly queues: {
    /** Every delivery until it is answered 2xx or given up, waits included: idle when settled. */
    work: PQueue;
    /** The POSTs themselves, at most `concurrency` at once. */
    sends: PQueue;
  };
  private readonly ticks = new EventEmitter();
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;
  private closed = false;

  constructor(private readonly deps: CallbackDeps, private readonly opts: CallbackOptions = DEFAULT_CALLBACK_OPTIONS) {
    this.queues = { work: new PQueue(), sends: new PQueue({ concurrency: opts.concurrency }) };
    deps.store.onCallbackRequest((r) => {
      this.watching.set(r, 0);
      this.wake();
    });
  }

  /** The key has a tracking that pushes: its runs are made when due. */
  watchKey(apiKey: string): void {
    this.keys.add(apiKey);
    this.wake();
  }

  /** Resolves once every response made so far by a request with a callback, and by every one still running, is delivered or given up. */
  async settled(): Promise<void> {
    // A tick under way may make runs or hand out responses: what it finds is part of what is waited for.
    if (this.timer !== undefined && !this.closed) await once(this.ticks, 'tick');
    for (;;) {
      if (this.closed) return;
      await this.queues.work.onIdle();
      if (this.watching.size === 0 || this.closed) return;
      await once(this.ticks, 'tick');
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.ticks.emit('tick');
  }

  private wake(): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = undefined;
    const { store, clock, trackings } = this.deps;
    const now = clock.now();
    for (const key of this.keys) trackings.catchUp(key, now);
    for (const [r, next] of this.watching) {
      const made = store.countUpTo(r, now);
      for (let n = next; n < made; n++) this.deliver(r, n, now);
      this.watching.set(r, made);
      if (made >= store.itemCount(r) && FINISHED.includes(store.statusAt(r, now))) this.watching.delete(r);
    }
    this.ticks.emit('tick');
    if (this.watching.size > 0 || this.keys.size > 0) this.wake();
  }

  /** Response n of r is made: its delivery starts (held back or dropped as the faults say). */
  private deliver(r: StoredRequest, n: number, now: number): void {
    const seq = ++this.seq;
    const faults = this.deps.faults.forDelivery(seq);
    const payload = this.deps.render(r, n, now);
    const d: Delivery = {
      seq, url: r.callbackUrl!, responseId: String(payload.response_id), attempt: 0, faults,
      body: JSON.stringify({
        user_id: r.userId, callback_id: uuidOf(this.deps.seed, `callback:${r.id}`, n), event_type: 'response_created',
        reference_type: r.trackingId === undefined ? 'request' : 'tracking', reference_id: r.trackingId ?? r.id, payload,
      }),
    };
    this.stats.deliveries++;
    if (faults.drop) return this.giveUp(d);
    void this.queues.work.add(() => this.after(faults.holdMs + faults.slowMs, () => this.attempt(d)));
  }

  /** One attempt, then, unless answered 2xx, the next after its wait, or the delivery given up. */
  private async attempt(d: Delivery, repeat = false): Promise<void> {
    if (this.closed) return;
    d.attempt++;
    this.stats.attempts++;
    const ok = await this.queues.sends.add(() => this.post(d));
    if (ok) {
      if (repeat) return;
      this.stats.delivered++;
      if (d.faults.twice) {
        this.stats.repeated++;
        await this.attempt(d, true);
      }
      return;
    }
    this.stats.failedAttempts++;
    if (repeat) return;
    if (d.attempt >= this.opts.attempts) return this.giveUp(d);
    const wait = Math.min(MAX_RETRY_WAIT_MS, this.opts.retryMs * 2 ** (d.attempt - 1));
    await this.after(wait, () => this.attempt(d));
  }

  private async post(d: Delivery): Promise<boolean> {
    if (this.closed) return false;
    try {
      const res = await fetch(d.url, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: d.body, signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.status >= 200 && res.status < 300;
    } catch {
      return false;
    }
  }

  private giveUp(d: Delivery): void {
    this.stats.dropped++;
    this.stats.droppedIds.push(d.responseId);
  }

  /** Runs `f` after `ms` (real time), as part of the delivery's work. */
  private async after(ms: number, f: () => Promise<void>): Promise<void> {
    // unref'd: a retry waiting must not keep a closed sandbox's process alive
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms).unref());
    await f();
  }
}
