import type { RequestObject } from '../../spec/types.js';
import type { SweepParams } from '../../shared/config.js';
import { sleep, type RunContext } from '../context.js';
import type { PageSink } from '../page-sink.js';
import { timeOf } from '../sweep/cursor.js';
import { LOOK_MS, untilHeld, untilQuiet } from './await-deliveries.js';
import { proofIo } from './counts.js';
import { prove, type Finished, type ProofIo } from './proof.js';
import type { SpoolReading } from './spool-reading.js';

// Between polling and reading, on a night whose requests carry the callback URL: a finished request is held here
// instead of being read at once, and its deliveries are given the chance to prove it complete (proof.ts). What is
// proved is recorded loaded, with nothing listed; what is not goes on to the listing, to the sweep or to per-request
// reading, as any finished request would (the loads are idempotent: a response delivered and listed is one row).
//
// Rounds run while polling waits (the poller asks `holding` each turn): once nothing is running or being
// submitted (quiet), or once many are held. A round first loads what the spool holds, waiting for it to stop
// growing (deliveries of the last requests are still arriving), then proves the batch. A single request whose count
// is short of what the provider counted waits for its missing deliveries (the provider retries a delivery not
// answered 2xx) without another call: each check compares what the warehouse holds with that count, for up to
// LAWSUIT_CALLBACK_WAIT_SECONDS, then it is listed. SIGTERM stops the rounds: what is held is the next run's (its
// requests are not loaded; their deliveries are).

/** What the gate hands on, as the poller would have. */
interface GateOut {
  /** Proved complete by its deliveries, recorded loaded: nothing to read. */
  proven(req: RequestObject): void;
  /** Not proved: read it as any finished request. */
  listing(req: RequestObject): void;
  /** A round failed (the warehouse, the disk): the stage ends with it. */
  failed(error: unknown): void;
}

/** What the gate works with: the run, the spool's reading, where the night's pages go, whom it hands requests on to. */
interface GateDeps { ctx: RunContext; reading: SpoolReading; sink: PageSink; out: GateOut }

interface GateFigures {
  /** Requests proved complete by their deliveries, and their responses. */
  delivered: number; deliveredResponses: number;
  /** Requests handed on to the listing. */
  listed: number;
  /** Counting calls. */
  proofCalls: number;
}

interface Expecting { req: RequestObject; count: number; until: number }

/** A round starts with this many requests held even while others run. */
const ROUND_AT = 2_000;
/** Between two looks at the spool while deliveries are expected, ms. */
const CHECK_EVERY_MS = LOOK_MS;

export class DeliveryGate {
  readonly figures: GateFigures = { delivered: 0, deliveredResponses: 0, listed: 0, proofCalls: 0 };
  private readonly held = new Map<string, RequestObject>();
  private readonly expecting = new Map<string, Expecting>();
  private round: Promise<void> | undefined;
  private lastCheck = 0;
  private readonly io: ProofIo;
  private rangesBroken: string | undefined;

  /** `params`: the listing's created_at names (the sweep's), or null when none is known to work (requests are then counted one by one). */
  constructor(private readonly d: GateDeps, params: SweepParams | null) {
    const io = proofIo(d.ctx, params);
    this.io = { ...io, settle: (from, until, count) => untilHeld(d.ctx, d.reading, d.sink, () => io.heldIn(from, until), count) };
    if (!params) this.rangesBroken = 'the responses listing honours no sort name (lawsuit-etl doctor)';
  }

  /** A request was seen completed: held for the next round. */
  finished(req: RequestObject): void {
    this.held.set(req.request_id, req);
  }

  /** Whether requests are held or awaited; starts a round when one is due. `quiet`: nothing else runs or is being submitted. */
  holding(quiet: boolean): boolean {
    if (this.round === undefined && !this.d.ctx.signal.aborted) {
      const prove = this.held.size > 0 && (quiet || this.held.size >= ROUND_AT);
      const check = this.expecting.size > 0 && Date.now() - this.lastCheck >= CHECK_EVERY_MS;
      if (prove || check) {
        this.round = this.runRound(prove).catch((e: unknown) => this.d.out.failed(e)).finally(() => { this.round = undefined; });
      }
    }
    return this.held.size > 0 || this.expecting.size > 0 || this.round !== undefined;
  }

  /** After polling: proves what is held and waits for what is expected, unless the stage is stopping. */
  async drain(): Promise<void> {
    for (;;) {
      await this.round;
      if (this.d.ctx.signal.aborted || (this.held.size === 0 && this.expecting.size === 0)) return;
      if (!this.holding(true)) return;
      if (this.round === undefined) await sleep(CHECK_EVERY_MS, this.d.ctx.signal);
    }
  }

  private async runRound(prove: boolean): Promise<void> {
    this.lastCheck = Date.now();
    if (prove) await untilQuiet(this.d.ctx, this.d.reading, this.d.sink);
    else await this.d.reading.catchUp(this.d.sink);
    if (this.expecting.size > 0) await this.check();
    if (prove) await this.proveHeld();
  }

  /** Expected requests whose deliveries are all in are proved; those past their wait are listed. */
  private async check(): Promise<void> {
    const held = await this.io.heldOf([...this.expecting.keys()]);
    const proven = new Map<string, number>();
    for (const [id, e] of this.expecting) {
      if ((held.get(id) ?? 0) === e.count) proven.set(id, e.count);
      else if (Date.now() >= e.until) {
        this.expecting.delete(id);
        this.list(e.req);
      }
    }
    const reqs = [...proven.keys()].map((id) => this.expecting.get(id)!.req);
    for (const id of proven.keys()) this.expecting.delete(id);
    await this.record(reqs, proven);
  }

  private async proveHeld(): Promise<void> {
    const batch = [...this.held.values()];
    this.held.clear();
    const finished: Finished[] = batch.map((r) => ({ requestId: r.request_id, createdAt: timeOf(r.created_at), doneAt: timeOf(r.updated_at ?? r.created_at) }));
    const ranges = this.rangesBroken === undefined && finished.every((f) => Number.isFinite(f.createdAt) && Number.isFinite(f.doneAt));
    const p = await prove(finished, this.io, { ranges });
    this.figures.proofCalls += p.calls;
    if (p.rangesBroken !== undefined && this.rangesBroken === undefined) {
      this.rangesBroken = p.rangesBroken;
      this.d.ctx.log.warn({ code: 'DELIVERIES_RANGE_UNTRUSTED' }, `deliveries are counted request by request from now on: ${p.rangesBroken}`);
    }
    const byId = new Map(batch.map((r) => [r.request_id, r]));
    await this.record(batch.filter((r) => p.proven.has(r.request_id)), p.proven);
    for (const id of p.unproven) {
      const count = p.expected.get(id);
      if (count !== undefined) this.expecting.set(id, { req: byId.get(id)!, count, until: Date.now() + this.d.ctx.cfg.callback.waitMs });
      else this.list(byId.get(id)!);
    }
  }

  /** Records the requests loaded by their deliveries (with their status), then hands them on. */
  private async record(reqs: readonly RequestObject[], items: ReadonlyMap<string, number>): Promise<void> {
    if (reqs.length === 0) return;
    await this.d.sink.add({
      items: [],
      ledger: [{
        kind: 'delivered',
        requests: reqs.map((r) => ({ requestId: r.request_id, items: items.get(r.request_id) ?? 0, status: String(r.status), completedAt: r.updated_at ?? new Date().toISOString() })),
      }],
    });
    for (const r of reqs) {
      this.figures.delivered++;
      this.figures.deliveredResponses += items.get(r.request_id) ?? 0;
      this.d.out.proven(r);
    }
  }

  private list(req: RequestObject): void {
    this.figures.listed++;
    this.d.out.listing(req);
  }
}
