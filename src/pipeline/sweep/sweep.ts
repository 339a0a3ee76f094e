import type { RequestObject, ResponseItem } from '../../spec/types.js';
import type { SweepParams } from '../../shared/config.js';
import { failpoint } from '../../shared/failpoint.js';
import { codeOf, reachOf, ruleFor } from '../../shared/failure-policy.js';
import { markCompleted } from '../../warehouse/ledger.js';
import { activeSweep, assignStrategy, openSweep, type ReadEntry } from '../../warehouse/read-ledger.js';
import type { RunContext } from '../context.js';
import type { PageSink } from '../page-sink.js';
import type { PageSizer } from '../page-size.js';
import { foreignShare, perRequestCalls, sweepCostlier, type SweepTally } from './cost.js';
import { advance, coveredBefore, queryAt, timeOf, type SweepCursor, type SweepQuery } from './cursor.js';
import { SweepMembers, type Member } from './members.js';
import { untrustedPage } from './verify.js';

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
}

/** How the sweep asks: the listing's names (learned or pinned) and the page size the upstream serves. */
export interface SweepReading { params: SweepParams; pageSize: number }

/** A member still running once this long holds back every answer created after it: read it per request. */
const BLOCKING_MS = 10 * 60_000;
/** A sweep left active longer ago than this is not resumed (its gap would be read for nothing). */
const RESUME_WITHIN_MS = 60 * 60_000;

export interface SweepFigures {
  calls: number; pages: number; read: number; skipped: number; handedOver: number;
  /** 1 when the sweep stopped for the night (fallback or switch). */
  stopped: number;
}

export class ResponseSweep {
  private sweepId: string | undefined;
  private opening: Promise<void> | undefined;
  private cursor: SweepCursor = { page: 1, seen: [] };
  private readonly members: SweepMembers;
  private readonly finishedRequests = new Map<string, RequestObject>();
  /** Requests handed to per-request reading: the commit of the hand-over, to wait for before reading them. */
  private readonly handovers = new Map<string, Promise<unknown>>();
  private on = true;
  /** The stage's wait budget was spent on a failing upstream: reading stops, the cursor waits in the ledger. */
  private spent = false;
  private verified: boolean;
  private draining = false;
  private pumping: Promise<void> | undefined;
  private again = false;
  private failure: unknown;
  private readonly commits = new Set<Promise<unknown>>();
  /** What the last range read left unread (its all_count less what was read), and the range's end. */
  private remainder = 0;
  private idlePages = 0;
  private lastUntil = Number.NEGATIVE_INFINITY;
  /**
   * Every response created before this instant (provider clock) is read, as a range read to its end has shown:
   * members finished before it are complete. A member is never completed on the cursor alone, mid-range: a
   * listing that does not follow the order asked for may yet show that it skipped what the cursor passed.
   */
  private verifiedTo: number;
  /** The responses read since page 1 at the current anchor: at the range's end, as many as the listing counts. */
  private run: { from: number; size: number; ids: Set<string>; checkable: boolean } | undefined;
  /** Members declared complete without a single response while the listing was not yet verified. */
  private emptyMembers = 0;
  private readonly completedItems: number[] = [];
  readonly figures: SweepFigures = { calls: 0, pages: 0, read: 0, skipped: 0, handedOver: 0, stopped: 0 };

  private constructor(
    private readonly ctx: RunContext, private readonly sink: PageSink, private readonly sizer: PageSizer,
    private readonly reading: SweepReading, private readonly events: SweepEvents, resumed?: { sweepId: string; cursor: SweepCursor; ours: number },
  ) {
    this.members = new SweepMembers(resumed ? highOf(resumed.cursor) : undefined);
    if (resumed) {
      this.sweepId = resumed.sweepId;
      this.cursor = resumed.cursor;
    }
    this.verified = (resumed?.ours ?? 0) > 0;
    this.verifiedTo = resumed ? coveredBefore(resumed.cursor) : Number.NEGATIVE_INFINITY;
  }

  /**
   * The night's sweep: the one a killed run left active (resumed from its cursor), or a new one, started by
   * the first request that joins. An active sweep too old to resume hands its requests to per-request reading.
   */
  static async open(ctx: RunContext, sink: PageSink, sizer: PageSizer, reading: SweepReading, events: SweepEvents): Promise<ResponseSweep> {
    const stored = await activeSweep(ctx.wh);
    if (stored && Date.now() - stored.updatedAt.getTime() <= RESUME_WITHIN_MS) {
      ctx.log.info({ sweep_id: stored.sweepId, pages: stored.pages }, 'resuming the responses sweep of an interrupted run from its cursor');
      return new ResponseSweep(ctx, sink, sizer, reading, events, { sweepId: stored.sweepId, cursor: stored.cursor, ours: stored.itemsOurs });
    }
    if (stored) await ResponseSweep.close(ctx, sink, 'too old to resume');
    return new ResponseSweep(ctx, sink, sizer, reading, events);
  }

  /**
   * Ends the active sweep, if any, without reading: its requests not yet loaded are read per request (a run
   * configured per request, or a sweep too old to resume).
   */
  static async close(ctx: RunContext, sink: PageSink, why: string): Promise<void> {
    const stored = await activeSweep(ctx.wh);
    if (!stored) return;
    const left = await ctx.wh.all<{ request_id: string }>(`SELECT request_id FROM requests WHERE sweep_id = $1 AND strategy = 'sweep' AND loaded_at IS NULL`, [stored.sweepId]);
    ctx.log.info({ sweep_id: stored.sweepId, requests: left.length, why }, 'an earlier responses sweep is not resumed: its requests are read per request');
    await sink.add({ items: [], ledger: [
      { kind: 'to_per_request', requestIds: left.map((r) => r.request_id) },
      { kind: 'sweep_status', sweepId: stored.sweepId, status: 'handed_over', reason: why },
    ] });
  }

  /** Whether the request is read by the sweep. */
  isMember(requestId: string): boolean {
    return this.members.has(requestId);
  }

  /** Resolves once a request handed to per-request reading has its ledger reset (read it only then). */
  ready(requestId: string): Promise<unknown> {
    return this.handovers.get(requestId) ?? Promise.resolve();
  }

  /** A request of an earlier run: whether it stays a member (the ledger says it joined this very sweep). */
  resume(row: { request_id: string; created_at: Date | null; strategy: string | null; sweep_id: string | null }): boolean {
    if (!this.on || !this.sweepId || row.strategy !== 'sweep' || row.sweep_id !== this.sweepId || !row.created_at) return false;
    this.members.resume(row.request_id, row.created_at.getTime(), Date.now());
    return true;
  }

  /** A submission is about to be sent: until `settled`, the sweep reads nothing created after the requests known now. */
  submitting(): number {
    return this.members.submitting();
  }

  settled(token: number): void {
    this.members.settled(token);
    this.kick();
  }

  /** A request was created: it joins the sweep if it can, else it is read per request. Records the choice. */
  async admit(req: RequestObject): Promise<boolean> {
    const member = this.on && this.members.admit(req.request_id, timeOf(req.created_at), Date.now());
    if (member) await this.ensureRow();
    await assignStrategy(this.ctx.wh, req.request_id, member ? 'sweep' : 'per_request', member ? this.sweepId : undefined);
    if (member) this.kick();
    return member;
  }

  /** A member was seen finished (completed). */
  finished(req: RequestObject): void {
    if (!this.members.has(req.request_id)) return;
    this.members.finished(req.request_id, timeOf(req.updated_at));
    this.finishedRequests.set(req.request_id, req);
    this.track(markCompleted(this.ctx.wh, req));
    this.kick();
  }

  /** A member will not finish (cancelled, forgotten by the provider): it leaves the sweep. */
  forget(requestId: string): void {
    if (this.members.drop(requestId)) this.kick();
  }

  /**
   * Ends the sweep's part of the stage. `drain`: read what is left (the members still running are handed to
   * per-request reading first: they stay outstanding for the next run); otherwise (SIGTERM, the stage stopped)
   * only what is in hand is committed, and the cursor waits in the ledger.
   */
  async finish(opts: { drain: boolean }): Promise<void> {
    if (opts.drain && this.on) {
      const running = this.members.running();
      if (running.length > 0) await this.handOver(running.map((m) => m.id), 'still running at the end of the wait');
      this.draining = true;
      this.kick();
    }
    await this.idle();
    if (opts.drain && this.on && this.members.size > 0 && !this.failure && !this.ctx.signal.aborted) {
      // Read to the newest response after every member finished, each one is complete; one that is not is
      // never left unread: it goes to per-request reading.
      this.ctx.log.warn({ requests: this.members.size }, 'the responses sweep ended with requests it could not account for: reading them per request');
      await this.handOver([...this.members.all()].map((m) => m.id), 'not complete at the end of the sweep');
    }
    if (opts.drain && this.on && this.sweepId && this.members.size === 0 && !this.failure) {
      this.track(this.sink.add({ items: [], ledger: [{ kind: 'sweep_status', sweepId: this.sweepId, status: 'done' }] }));
    }
    await this.idle();
    if (this.failure) throw this.failure;
  }

  /** Resolves once no page is being read and everything handed to the sink is committed. */
  async idle(): Promise<void> {
    while (this.pumping || this.commits.size > 0) {
      while (this.pumping) await this.pumping;
      while (this.commits.size > 0) await Promise.all(this.commits);
    }
  }

  /** The figures of the night so far, and the share of responses read that were someone else's. */
  tally(): SweepTally & { foreignShare: number } {
    const t: SweepTally = {
      calls: this.figures.calls, completed: this.completedItems,
      partial: [...this.members.all()].filter((m) => m.items > 0).map((m) => m.items), skipped: this.figures.skipped, read: this.figures.read,
    };
    return { ...t, foreignShare: foreignShare(t) };
  }

  private async ensureRow(): Promise<void> {
    this.sweepId ??= this.ctx.runId;
    this.opening ??= openSweep(this.ctx.wh, this.sweepId, this.ctx.runId);
    await this.opening;
  }

  private track(p: Promise<unknown>): void {
    const t = p.catch((e) => { this.failure ??= e; }).finally(() => this.commits.delete(t));
    this.commits.add(t);
  }

  private kick(): void {
    if (this.pumping) { this.again = true; return; }
    this.again = false;
    this.pumping = this.pump().catch((e) => {
      // A refusal ends the stage (the search stage says so once); the sweep's ledger stays for the next run.
      if (ruleFor(e).refused || reachOf(e, 'item') === 'run') { this.on = false; this.events.refused(e); } else this.failure ??= e;
    }).finally(() => {
      this.pumping = undefined;
      // Something happened while the last page was read, or after it stopped: look again.
      if (this.again && !this.halted()) this.kick();
    });
  }

  private async pump(): Promise<void> {
    while (await this.step());
  }

  private halted(): boolean {
    return !this.on || this.spent || this.ctx.signal.aborted || this.failure !== undefined;
  }

  /**
   * Whether the stage's wait budget is spent (the upstream kept failing past it, http.ts): then a failed call is
   * not the listing's fault, so there is no fallback; the sweep halts as on SIGTERM and the next run resumes it
   * from its cursor.
   */
  private budgetSpent(): boolean {
    if (this.ctx.api.spentBudget()) this.spent = true;
    return this.spent;
  }

  /** One page, if one is worth reading now. Returns whether to go on. */
  private async step(): Promise<boolean> {
    if (this.halted()) return false;
    await this.settle();
    if (this.halted()) return false;
    if (!this.draining) await this.unblock();
    const reach = this.members.reach();
    if (!reach.open) return false;
    const start = this.cursor.from ?? this.members.earliest();
    // Nothing is read below what was read already (a floor may stand below the last response read for a while).
    if (start === undefined || (reach.until !== undefined && reach.until < (this.cursor.last ?? start))) return false;
    const size = this.sizer.size();
    if (!this.draining && !this.worthReading(reach.until, size)) return false;
    const q = queryAt(this.cursor, start, reach.until, size);
    const newest = this.members.newest();
    const issued = this.members.issue();
    await this.opening;
    await this.sink.room();
    if (this.halted()) return false;
    let page;
    try {
      page = await this.ctx.api.responses.listAcross(this.params(q));
    } catch (e) {
      this.figures.calls++;
      if (reachOf(e, 'item') !== 'item') throw e;
      if (this.budgetSpent()) return false;
      if (codeOf(e) === 'API_TOO_LARGE' && q.page === 1 && this.sizer.refused(q.size)) {
        this.ctx.log.warn({ page_size: q.size }, 'a page of the responses sweep was too large to read: reading it again in smaller pages');
        return true;
      }
      await this.stop('fallback', `the responses listing across requests failed (${codeOf(e)}: ${(e as Error).message})`);
      return false;
    }
    this.figures.calls++;
    this.figures.pages++;
    failpoint('sweep.after-read');
    const items = page.items;
    const times = items.map((i) => timeOf(i.created_at));
    const sameRun = q.page > 1 && this.run?.from === q.from && this.run.size === q.size;
    const bad = untrustedPage(q, times, items.map((i) => i.created_at), sameRun ? this.cursor.last : undefined);
    if (bad) {
      await this.stop('fallback', `the responses listing across requests cannot be trusted: ${bad}`);
      return false;
    }
    // A run of pages at one anchor starts at page 1; one resumed mid-way (after a kill) cannot be counted.
    if (!sameRun) this.run = { from: q.from, size: q.size, ids: new Set(), checkable: q.page === 1 };
    for (const i of items) this.run!.ids.add(i.response_id);
    const adv = advance(this.cursor, q, times, items.map((i) => i.response_id));
    if (adv.end && this.run!.checkable && this.run!.ids.size !== page.allCount) {
      await this.stop('fallback', `the responses listing across requests counted ${page.allCount} responses in the range read but its pages held `
        + `${this.run!.ids.size}: it does not follow its order or its pages`);
      return false;
    }
    if (adv.end) this.verifiedTo = coveredBefore(adv.cursor);
    // A page of nothing new can happen once (an anchor moved into a millisecond already read); again and again,
    // the listing does not follow its bounds or pages.
    this.idlePages = !adv.end && adv.fresh.length === 0 ? this.idlePages + 1 : 0;
    if (this.idlePages >= 3) {
      await this.stop('fallback', 'the responses listing across requests answered page after page of responses already read: it does not follow its bounds or pages');
      return false;
    }
    this.cursor = adv.cursor;
    this.members.high = highOf(this.cursor);
    this.sizer.measured(items);

    const ours: ResponseItem[] = [];
    const perMember = new Map<string, number>();
    for (const i of adv.fresh) {
      const item = items[i];
      const m = this.members.get(item.request_id);
      if (!m) continue;
      ours.push(item);
      m.items++;
      perMember.set(m.id, (perMember.get(m.id) ?? 0) + 1);
    }
    if (ours.length > 0) this.verified = true;
    const skipped = adv.fresh.length - ours.length;
    this.figures.read += adv.fresh.length;
    this.figures.skipped += skipped;
    this.remainder = adv.end ? 0 : Math.max(0, page.allCount - q.page * q.size);
    this.lastUntil = q.until ?? newest ?? this.lastUntil;

    const complete = adv.end ? this.members.complete(this.verifiedTo, q.until === undefined ? issued : undefined) : [];
    const lie = await this.confirmEmpty(complete);
    if (this.spent) return false;
    if (lie) {
      await this.stop('fallback', lie);
      return false;
    }
    this.commit(ours, [{
      kind: 'sweep', sweepId: this.sweepId!, cursor: this.cursor, read: adv.fresh.length, skipped, pages: 1,
      ours: [...perMember].map(([requestId, n]) => ({ requestId, items: n })), complete: complete.map((m) => m.id),
    }], complete, 1);
    const t = this.tally();
    if (sweepCostlier(t, this.reading.pageSize)) {
      await this.stop('switched', `responses of other requests on the key (${Math.round(t.foreignShare * 100)}% of those read) made the sweep costlier `
        + `than per-request reading (${t.calls} calls against ${perRequestCalls(t, this.reading.pageSize)})`);
      return false;
    }
    return !adv.end;
  }

  /** Commits responses with their ledger entry; the members it completes are reported once committed. */
  private commit(items: ResponseItem[], ledger: ReadEntry[], complete: readonly Member[], pages: number): void {
    for (const m of complete) {
      this.members.drop(m.id);
      this.finishedRequests.delete(m.id);
      this.completedItems.push(m.items);
    }
    this.track(this.sink.add({ items, ledger }).then(() => {
      for (let i = 0; i < pages; i++) this.ctx.progress?.('pages', 'tick', 1);
      for (const m of complete) this.events.loaded(m.id);
    }));
  }

  /** Members complete without a new page (read past their completion before it was seen): recorded at once. */
  private async settle(): Promise<void> {
    if (!this.sweepId) return;
    const complete = this.members.complete(this.verifiedTo);
    if (complete.length === 0) return;
    const lie = await this.confirmEmpty(complete);
    if (this.spent) return;
    if (lie) { await this.stop('fallback', lie); return; }
    this.commit([], [{ kind: 'sweep', sweepId: this.sweepId, cursor: this.cursor, read: 0, skipped: 0, pages: 0, ours: [], complete: complete.map((m) => m.id) }], complete, 0);
  }

  /**
   * Until a page has shown one of our responses, the listing may be one that answers nothing at all: a member
   * about to be declared complete without a single response may be asked for on its own (one call, what reading
   * it per request would have cost). Asking for every one made a night of searches that all find nothing cost
   * twice its floor (1,000 empty CPFs: 2,153 calls against about 1,010), so a bounded sample is asked for: the
   * first EMPTY_CHECKS_FIRST such members, then the 4th, 8th, 16th, ... (log2 of the night's empty members,
   * 11 calls for 1,000). A listing that answers nothing is caught by the first member that has responses among
   * those; what it costs is that a night where a few documents in hundreds find something could, on such a
   * listing, miss them (README, "Reading responses"). Returns why the listing cannot be trusted, or undefined.
   */
  private async confirmEmpty(complete: readonly Member[]): Promise<string | undefined> {
    for (const m of complete) {
      if (this.verified || m.items > 0) continue;
      const n = ++this.emptyMembers;
      if (!sampledForEmptiness(n)) continue;
      let res;
      try {
        res = await this.ctx.api.responses.list({ request_id: m.id, page: 1, page_size: 1, sort: null });
      } catch (e) {
        this.figures.calls++;
        if (reachOf(e, 'item') !== 'item') throw e;
        if (this.budgetSpent()) return undefined;
        return `request ${m.id}'s own listing could not be read to check the listing across requests (${codeOf(e)})`;
      }
      this.figures.calls++;
      if (res.items.length > 0 || res.allCount > 0) {
        return `the responses listing across requests showed none of request ${m.id}'s responses, which it has (${res.allCount}): its filters are not honoured`;
      }
    }
    return undefined;
  }

  /**
   * Whether the range now open holds about a page: what the last answer said is left in it, and the
   * responses of the members finished since. Those are estimated low on purpose: the median answer of the
   * members read so far (a few big litigants make the mean useless), grown by the share of other requests'
   * responses met. An estimate too high reads a partial page, a wasted call; one too low only reads later (the
   * next answer's all_count says what is left), and the end of the night reads the rest anyway.
   */
  private worthReading(until: number | undefined, size: number): boolean {
    if (this.remainder >= size) return true;
    const fresh = this.members.finishedBetween(this.lastUntil, until ?? Number.POSITIVE_INFINITY);
    if (fresh === 0) return false;
    const perMember = this.completedItems.length === 0 ? size / 4 : median(this.completedItems);
    const ours = 1 - foreignShare(this.figures);
    return this.remainder + (perMember * fresh) / Math.max(0.05, ours) >= size;
  }

  /** A member running for long holds back every answer after it: it is read per request instead. */
  private async unblock(): Promise<void> {
    const [oldest] = this.members.running();
    if (!oldest || Date.now() - oldest.since < BLOCKING_MS) return;
    if (this.members.finishedBetween(oldest.createdAt, Number.POSITIVE_INFINITY) === 0) return;
    await this.handOver([oldest.id], `still running after ${Math.round(BLOCKING_MS / 60_000)} minutes, holding back the responses created after it`);
  }

  /** Members leave the sweep for per-request reading, their ledger reset after the sweep's last page of them. */
  private async handOver(ids: readonly string[], why: string): Promise<void> {
    if (ids.length === 0) return;
    const n = this.release(ids);
    this.ctx.log.info({ requests: n, why }, 'requests leave the responses sweep and will be read per request');
    this.kick();
  }

  /** The sweep ends for the night: every request it had is read per request. */
  private async stop(status: 'fallback' | 'switched', reason: string): Promise<void> {
    if (!this.on) return;
    this.on = false;
    this.figures.stopped = 1;
    this.ctx.log.warn({ code: status === 'fallback' ? 'SWEEP_UNTRUSTED' : 'SWEEP_COSTLIER' }, `${reason}; reading responses per request for the rest of the night`);
    this.events.note(`responses read per request from ${status === 'fallback' ? 'the start' : 'mid-night'}: ${reason}`);
    this.release([...this.members.all()].map((m) => m.id),
      this.sweepId ? [{ kind: 'sweep_status', sweepId: this.sweepId, status, reason: reason.slice(0, 500) }] : []);
  }

  /**
   * Members leave the sweep: their ledger is reset to per-request reading (with `extra` entries, in the same
   * commit), and those already finished are handed to the stage, to read once that commit is in. Returns how
   * many left.
   */
  private release(ids: readonly string[], extra: readonly ReadEntry[] = []): number {
    const gone = ids.filter((id) => this.members.drop(id) !== undefined);
    const committed = this.sink.add({ items: [], ledger: [{ kind: 'to_per_request', requestIds: gone }, ...extra] });
    this.track(committed);
    this.figures.handedOver += gone.length;
    for (const id of gone) {
      this.handovers.set(id, committed.catch(() => undefined));
      const req = this.finishedRequests.get(id);
      this.finishedRequests.delete(id);
      if (req) this.events.perRequest(req);
    }
    return gone.length;
  }

  private params(q: SweepQuery): Record<string, string | number | undefined> {
    const p: SweepParams = this.reading.params;
    return {
      [p.createdGte]: new Date(q.from).toISOString(),
      [p.createdLte]: q.until === undefined ? undefined : new Date(q.until).toISOString(),
      [p.orderBy]: p.orderByValue,
      [p.order]: p.orderAsc,
      page: q.page,
      page_size: q.size,
    };
  }
}

/** Empty members checked on their own first, whatever the night's size. */
export const EMPTY_CHECKS_FIRST = 3;

/** Whether the n-th empty member (from 1) of an unverified listing is checked on its own: the first few, then powers of two. */
export function sampledForEmptiness(n: number): boolean {
  return n <= EMPTY_CHECKS_FIRST || (n & (n - 1)) === 0;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Who may still join: a request created after every response the sweep has read, and after its bound. */
function highOf(c: SweepCursor): number | undefined {
  const known = [c.high, c.from, c.last].filter((t): t is number => t !== undefined);
  return known.length === 0 ? undefined : Math.max(...known);
}
