import PQueue from 'p-queue';
import type { RequestObject } from '../../spec/types.js';
import type { SweepParams } from '../../shared/config.js';
import { failpoint } from '../../shared/failpoint.js';
import { codeOf, resolveFailure } from '../../shared/failure-policy.js';
import { markCompleted } from '../../warehouse/ledger.js';
import { activeSweep, assignStrategy, openSweep, sweepIdOf, type ReadEntry, type SweepWave } from '../../warehouse/read-ledger.js';
import type { RunContext } from '../context.js';
import type { PageSink } from '../page-sink.js';
import type { PageSizer } from '../page-size.js';
import { readAcross } from './across-page.js';
import { sweepState, type ResumedSweep, type SweepFigures, type SweepState } from './state.js';
import { draining, finished, joined, left, named, refused, rejoined, settled, submitting } from './news.js';
import { afterCheck, afterPage, checkFailed, committed, IDLE, next, readFailed, released, stopped, type CallFailure, type Commit, type ConfirmAction, type ReadAction, type SweepAction } from './step.js';

// The sweep: one listing of the responses of every request of the key (GET /responses without request_id),
// oldest first, from the night's first request on, instead of one listing per request. A page of 100 then
// carries the answers of many searches: a portfolio whose documents find zero to three lawsuits each costs a
// call per hundred answers, not a call per document.
//
// It reads each response once (cursor.ts), only responses of its own requests (members.ts: the others are
// skipped, never loaded), only where every member has finished, and loads through the same page sink as
// per-request reading, its cursor committed with the responses it covers: a run killed anywhere resumes from
// the ledger and buys nothing twice. It is lazy: a range is read when it holds about a page of responses (or
// at the end of the night), so the pages it reads are full. It trusts the provider only as far as its pages
// show (verify.ts): the first page it cannot trust ends it, and every request it had is read per request from
// then on. So does a key shared with another system whose responses make the sweep costlier (cost.ts).
//
// Every decision is the pure step's (step.ts); this class is its loop: it asks the step what to do, does it
// (a call, a commit, a hand-over), and hands the answer back. What the stage tells it (a request joined,
// finished, left) is handed to news.ts, which changes the state, and starts the loop if it is not running: one
// loop at a time, so nothing here is re-entered. The shell writes no field of the state: only the step and
// news.ts do, so every change of it is a function of the state and an event, tested without a call.

/** What the search stage hears from the sweep. */
export interface SweepEvents {
  /** A member is fully loaded. */
  loaded(requestId: string): void;
  /** A finished request the sweep no longer reads (already recorded completed): read it per request (after `ready`). */
  perRequest(req: RequestObject): void;
  /** Something the operator should know: the night's reading changed strategy. */
  note(text: string): void;
  /** The provider refused the listing (403) or the key (401): the stage stops, the sweep waits in the ledger. */
  refused(e: unknown): void;
  /** The listing did not keep the order asked for: the sort names it was asked by do not work on this upstream. */
  orderBroken(): void;
}

/** How the sweep asks: the listing's names (learned or pinned), the page size the upstream serves, the wave it reads. */
export interface SweepReading {
  params: SweepParams; pageSize: number; wave: SweepWave;
  /** The part of its wave it reads, from 1 (a wave read in parts has a sweep a part). */
  part?: number;
}

/** What the sweep works with: the run, where its pages go, how large they are, how it asks, whom it tells. */
interface SweepIo { ctx: RunContext; sink: PageSink; sizer: PageSizer; reading: SweepReading; events: SweepEvents }

/** A sweep left active longer ago than this is not resumed (its gap would be read for nothing). */
const RESUME_WITHIN_MS = 60 * 60_000;

export class ResponseSweep {
  private readonly state: SweepState;
  /** Every loop and commit in progress: the sweep is idle when this is (p-queue's onIdle). */
  private readonly work = new PQueue();
  /** The loop runs once at a time; a run waiting here sees whatever changed while the one before it ran. */
  private readonly loop = new PQueue({ concurrency: 1 });
  /** Requests handed to per-request reading: the commit of the hand-over, to wait for before reading them. */
  private readonly handovers = new Map<string, Promise<unknown>>();
  private opening: Promise<void> | undefined;
  private failure: unknown;

  private constructor(private readonly io: SweepIo, resumed?: ResumedSweep) {
    this.state = sweepState(resumed);
  }

  /**
   * The night's sweep: the one a killed run left active (resumed from its cursor), or a new one, started by
   * the first request that joins. An active sweep too old to resume hands its requests to per-request reading.
   */
  static async open(ctx: RunContext, sink: PageSink, sizer: PageSizer, reading: SweepReading, events: SweepEvents): Promise<ResponseSweep> {
    const stored = await activeSweep(ctx.wh, reading.wave);
    const io = { ctx, sink, sizer, reading, events };
    if (stored && Date.now() - stored.updatedAt.getTime() <= RESUME_WITHIN_MS) {
      ctx.log.info({ sweep_id: stored.sweepId, pages: stored.pages }, 'resuming the responses sweep of an interrupted run from its cursor');
      return new ResponseSweep(io, { sweepId: stored.sweepId, cursor: stored.cursor, ours: stored.itemsOurs });
    }
    if (stored) await ResponseSweep.close(ctx, sink, reading.wave, 'too old to resume');
    return new ResponseSweep(io);
  }

  /**
   * Ends the active sweep, if any, without reading: its requests not yet loaded are read per request (a run
   * configured per request, or a sweep too old to resume).
   */
  static async close(ctx: RunContext, sink: PageSink, wave: SweepWave, why: string): Promise<void> {
    const stored = await activeSweep(ctx.wh, wave);
    if (!stored) return;
    const left = await ctx.wh.all<{ request_id: string }>(`SELECT request_id FROM requests WHERE sweep_id = $1 AND strategy = 'sweep' AND loaded_at IS NULL`, [stored.sweepId]);
    ctx.log.info({ sweep_id: stored.sweepId, requests: left.length, why }, 'an earlier responses sweep is not resumed: its requests are read per request');
    await sink.add({ items: [], ledger: [
      { kind: 'to_per_request', requestIds: left.map((r) => r.request_id) },
      { kind: 'sweep_status', sweepId: stored.sweepId, status: 'handed_over', reason: why },
    ] });
  }

  get figures(): SweepFigures {
    return this.state.figures;
  }

  /** Whether the request is read by the sweep. */
  isMember(requestId: string): boolean {
    return this.state.members.has(requestId);
  }

  /** Resolves once a request handed to per-request reading has its ledger reset (read it only then). */
  ready(requestId: string): Promise<unknown> {
    return this.handovers.get(requestId) ?? Promise.resolve();
  }

  /** A request of an earlier run: whether it stays a member (the ledger says it joined this very sweep). */
  resume(row: { request_id: string; created_at: Date | null; strategy: string | null; sweep_id: string | null }): boolean {
    return rejoined(this.state, row, Date.now());
  }

  /** A submission is about to be sent: until `settled`, the sweep reads nothing created after the requests known now. */
  submitting(): number {
    return submitting(this.state);
  }

  settled(token: number): void {
    settled(this.state, token);
    this.kick();
  }

  /** A request was created: it joins the sweep if it can, else it is read per request. Records the choice. */
  async admit(req: RequestObject): Promise<boolean> {
    const member = joined(this.state, req, Date.now());
    if (member) await this.ensureRow();
    await assignStrategy(this.io.ctx.wh, req.request_id, member ? 'sweep' : 'per_request', member ? this.state.sweepId : undefined);
    if (member) this.kick();
    return member;
  }

  /** A member was seen finished (completed). */
  finished(req: RequestObject): void {
    if (!finished(this.state, req)) return;
    this.track(markCompleted(this.io.ctx.wh, req));
    this.kick();
  }

  /** A member will not finish (cancelled, forgotten by the provider): it leaves the sweep. */
  forget(requestId: string): void {
    if (left(this.state, requestId)) this.kick();
  }

  /**
   * Ends the sweep's part of the stage. `drain`: read what is left (the members still running are handed to
   * per-request reading first: they stay outstanding for the next run); otherwise (SIGTERM, the stage stopped)
   * only what is in hand is committed, and the cursor waits in the ledger.
   */
  async finish(opts: { drain: boolean }): Promise<void> {
    const s = this.state;
    if (opts.drain && s.on) {
      this.handOver(s.members.running().map((m) => m.id), 'still running at the end of the wait');
      draining(s);
      this.kick();
    }
    await this.idle();
    if (opts.drain && s.on && s.members.size > 0 && !this.failure && !this.io.ctx.signal.aborted) {
      // Read to the newest response after every member finished, each one is complete; one that is not is
      // never left unread: it goes to per-request reading.
      this.io.ctx.log.warn({ requests: s.members.size }, 'the responses sweep ended with requests it could not account for: reading them per request');
      this.handOver([...s.members.all()].map((m) => m.id), 'not complete at the end of the sweep');
    }
    if (opts.drain && s.on && s.sweepId && s.members.size === 0 && !this.failure) {
      this.track(this.io.sink.add({ items: [], ledger: [{ kind: 'sweep_status', sweepId: s.sweepId, status: 'done' }] }));
    }
    await this.idle();
    if (this.failure) throw this.failure;
  }

  /** Resolves once no page is being read and everything handed to the sink is committed. */
  idle(): Promise<void> {
    return this.work.onIdle();
  }

  private async ensureRow(): Promise<void> {
    const sweepId = named(this.state, sweepIdOf(this.io.ctx.runId, this.io.reading.wave, this.io.reading.part));
    this.opening ??= openSweep(this.io.ctx.wh, sweepId, this.io.ctx.runId, this.io.reading.wave);
    await this.opening;
  }

  /** Something changed: run the loop, unless a run is already waiting to start (it will see the change). */
  private kick(): void {
    if (this.loop.size > 0) return;
    void this.work.add(() => this.loop.add(() => this.run()));
  }

  private track(p: Promise<unknown>): void {
    void this.work.add(() => p.catch((e) => { this.failure ??= e; }));
  }

  private halted(): boolean {
    return !this.state.on || this.state.spent || this.io.ctx.signal.aborted || this.failure !== undefined;
  }

  /** The loop: what the step asks for, done, until it has nothing worth a call. */
  private async run(): Promise<void> {
    const decide = (): SweepAction => (this.halted() ? IDLE : next(this.state, Date.now(), this.io.sizer.size()));
    try {
      let a = decide();
      while (a.kind !== 'idle') a = (await this.perform(a)) ?? decide();
    } catch (e) {
      // A refusal ends the stage (the search stage says so once); the sweep's ledger stays for the next run.
      const failure = resolveFailure(e);
      if (failure.refused || failure.reach === 'run') {
        refused(this.state);
        this.io.events.refused(e);
      } else this.failure ??= e;
    }
  }

  /** Does one action; returns the one that follows from its answer, or undefined to decide afresh. */
  private async perform(a: SweepAction): Promise<SweepAction | undefined> {
    switch (a.kind) {
      case 'read': return this.read(a);
      case 'confirm': return this.confirm(a);
      case 'commit': return this.commit(a.commit);
      case 'hand-over': this.handOver(a.ids, a.why); return undefined;
      case 'stop': if (a.orderBroken) this.io.events.orderBroken(); this.stop(a.status, a.reason); return IDLE;
      case 'idle': return IDLE;
    }
  }

  private async read(a: ReadAction): Promise<SweepAction | undefined> {
    const { ctx, sink, sizer } = this.io;
    await this.opening;
    await sink.room();
    if (this.halted()) return IDLE;
    let page;
    try {
      page = await readAcross({ ctx, sizer, params: this.io.reading.params, what: 'the responses sweep' }, a.query);
    } catch (e) {
      return this.failed(e, (f) => readFailed(this.state, f));
    }
    if (page === undefined) return readFailed(this.state, { kind: 'smaller' });
    failpoint('sweep.after-read');
    const then = afterPage(this.state, a, page);
    if (then.kind !== 'stop') sizer.measured(page.items);
    return then;
  }

  /**
   * A call failed: classified through the failure policy (past its item: the stage's, thrown once the step counted
   * it), or the wait budget (http.ts): spent on a failing upstream, the failure is no fault of the call's. The
   * step says what follows.
   */
  private failed<A>(e: unknown, step: (f: CallFailure) => A): A {
    const beyond = resolveFailure(e).reach !== 'item';
    const f: CallFailure = beyond ? { kind: 'beyond' } : this.io.ctx.api.spentBudget() ? { kind: 'spent' } : { kind: 'failed', code: codeOf(e), message: (e as Error).message };
    const then = step(f);
    if (beyond) throw e;
    return then;
  }

  /** One member that seems to have no responses, asked for on its own (step.ts, empty-checks.ts). */
  private async confirm(a: ConfirmAction): Promise<SweepAction> {
    let res;
    try {
      res = await this.io.ctx.api.responses.list({ request_id: a.ids[0], page: 1, page_size: 1, sort: null });
    } catch (e) {
      return this.failed(e, (f) => checkFailed(this.state, a, f));
    }
    return afterCheck(this.state, a, { items: res.items.length, allCount: res.allCount });
  }

  /** Commits responses with their ledger entry; the members it completes are reported once committed. */
  private commit(c: Commit): SweepAction | undefined {
    const { ctx, sink, events, reading, sizer } = this.io;
    this.track(sink.add({ items: c.items, ledger: c.ledger }).then(() => {
      for (let i = 0; i < c.pages; i++) ctx.progress?.('pages', 'tick', 1);
      for (const m of c.complete) events.loaded(m.id);
    }));
    return committed(this.state, c, { items: reading.pageSize, bytes: sizer.targetBytes });
  }

  /** Members leave the sweep for per-request reading, their ledger reset after the sweep's last page of them. */
  private handOver(ids: readonly string[], why: string): void {
    if (ids.length === 0) return;
    const n = this.release(ids);
    this.io.ctx.log.info({ requests: n, why }, 'requests leave the responses sweep and will be read per request');
    this.kick();
  }

  /** The sweep ends for the night: every request it had is read per request. */
  private stop(status: 'fallback' | 'switched', reason: string): void {
    const left = stopped(this.state, status, reason);
    if (!left) return;
    this.io.ctx.log.warn({ code: status === 'fallback' ? 'SWEEP_UNTRUSTED' : 'SWEEP_COSTLIER' }, `${reason}; reading responses per request for the rest of the night`);
    this.io.events.note(`responses read per request from ${status === 'fallback' ? 'the start' : 'mid-night'}: ${reason}`);
    this.release(left.ids, left.ledger);
  }

  /**
   * Members leave the sweep: their ledger is reset to per-request reading (with `extra` entries, in the same
   * commit), and those already finished are handed to the stage, to read once that commit is in. Returns how
   * many left.
   */
  private release(ids: readonly string[], extra: readonly ReadEntry[] = []): number {
    const { gone, finished } = released(this.state, ids);
    const commit = this.io.sink.add({ items: [], ledger: [{ kind: 'to_per_request', requestIds: gone }, ...extra] });
    this.track(commit);
    for (const id of gone) this.handovers.set(id, commit.catch(() => undefined));
    for (const req of finished) this.io.events.perRequest(req);
    return gone.length;
  }
}
