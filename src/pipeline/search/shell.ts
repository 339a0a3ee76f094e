import PQueue from 'p-queue';
import type { SortNames } from '../../api/dialect.js';
import type { RequestObject } from '../../spec/types.js';
import { markCompleted, markRequest } from '../../warehouse/ledger.js';
import type { SweepWave } from '../../warehouse/read-ledger.js';
import { collectRequest } from '../collect.js';
import type { RunContext } from '../context.js';
import { PageSink } from '../page-sink.js';
import type { PageSizer } from '../page-size.js';
import type { Waiting } from '../poll.js';
import { submitOne } from '../submit.js';
import type { ResponseSweep, SweepEvents } from '../sweep/sweep.js';
import { reduce, type SearchCommand, type SearchEvent } from './reduce.js';
import { searching, type SearchState } from './state.js';

// The search stage's shell: it feeds events to the reducer (reduce.ts) one at a time and performs the commands
// that come back: a submission, a request polled, a request's responses read, a ledger mark, a log line. What a
// command's call answers comes back as an event; an event raised while one is being reduced waits its turn, so
// the reducer is never re-entered. Every command in progress is a task of one queue, and a task's answer is
// dispatched inside that task: the stage has settled exactly when that queue is idle.

/** Requests whose pages are read at the same time. */
const COLLECT_CONCURRENCY = 4;

/**
 * How a request's responses are read on its own: how large its pages are, the sort it sends; and the wave it
 * belongs to, whose progress it ticks.
 */
interface ReadingAlone { sizer: PageSizer; sort: SortNames | null | undefined; wave: SweepWave }

export class SearchShell {
  /** The requests being polled (poll.ts takes them out as they finish). */
  readonly waiting = new Map<string, Waiting>();
  readonly sink: PageSink;
  /** Set once the night's sweep is open (undefined: every request is read on its own). */
  sweep: ResponseSweep | undefined;
  private readonly queues: {
    /** Every command in progress: the stage has settled when it is idle (p-queue's onIdle). */
    work: PQueue;
    /**
     * At most this many submissions are on their way at once: the sweep reads nothing created after the requests
     * it knows while one is unanswered (sweep/members.ts), so a whole list queued at once would hold it back.
     */
    submits: PQueue;
    /**
     * Every request being read holds a page in memory while the warehouse catches up; reading a few at a time
     * keeps memory flat whatever the volume (the warehouse, not the API, is the bottleneck of this stage).
     */
    reads: PQueue;
  };
  /** Events waiting for the one being reduced. */
  private readonly inbox: SearchEvent[] = [];
  /** Request ids the ledger holds or tonight bought: never taken for another search's lost submission. */
  private readonly known: Set<string>;

  constructor(
    private readonly ctx: RunContext, readonly state: SearchState, private readonly alone: ReadingAlone, known: Iterable<string>,
  ) {
    this.known = new Set(known);
    this.queues = { work: new PQueue(), submits: new PQueue({ concurrency: ctx.cfg.maxConcurrency }), reads: new PQueue({ concurrency: COLLECT_CONCURRENCY }) };
    this.sink = new PageSink(ctx.wh, { runId: ctx.runId, onCommit: (c) => this.dispatch({ kind: 'committed', problems: c.problems }) });
    if (ctx.signal.aborted) this.dispatch({ kind: 'abort' });
    else ctx.signal.addEventListener('abort', this.aborted, { once: true });
  }

  /** Reduces the event, then performs its commands; one event at a time, in the order raised. */
  dispatch(e: SearchEvent): void {
    this.inbox.push(e);
    if (this.inbox.length > 1) return;
    while (this.inbox.length > 0) {
      const { commands } = reduce(this.state, this.inbox[0]);
      for (const c of commands) this.perform(c);
      this.inbox.shift();
    }
  }

  /** What the sweep tells the stage, as events; its notes go to `note`. */
  sweepEvents(note: (text: string) => void, orderBroken: () => Promise<void>): SweepEvents {
    return {
      orderBroken: () => this.task(orderBroken),
      loaded: (requestId) => this.dispatch({ kind: 'loaded', requestId, pages: 0 }),
      perRequest: (request) => this.dispatch({ kind: 'handed-over', request }),
      note,
      refused: (error) => this.dispatch({ kind: 'refused', error }),
    };
  }

  /** Resolves once every command in progress, and every one they led to, has settled. */
  settled(): Promise<void> {
    return this.queues.work.onIdle();
  }

  /** Stops listening for SIGTERM (the stage is over). */
  close(): void {
    this.ctx.signal.removeEventListener('abort', this.aborted);
  }

  private readonly aborted = (): void => this.dispatch({ kind: 'abort' });

  private perform(c: SearchCommand): void {
    const { ctx } = this;
    switch (c.kind) {
      case 'submit': return this.task(() => this.queues.submits.add(() => this.submit(c.search, c.first)));
      case 'wait': {
        // How long its search took last time: the poll's first round waits for it once submissions are done.
        const search = this.state.requests.get(c.requestId)?.search;
        const expectedMs = search === undefined ? undefined : this.state.searches.get(search)?.planned.tookMs;
        this.waiting.set(c.requestId, {
          requestId: c.requestId, createdAt: c.createdAt ?? Date.now(), ...(c.resumed ? { resumed: true } : {}), ...(expectedMs === undefined ? {} : { expectedMs }),
        });
        return;
      }
      case 'read': return this.task(() => this.read(c.request, c.recorded));
      case 'sweep': return this.sweep?.finished(c.request);
      case 'forget': return this.sweep?.forget(c.requestId);
      case 'mark':
        return this.task(() => markRequest(ctx.wh, c.requestId, { status: c.status, error: c.error, last_polled_at: new Date() })
          .catch((error: unknown) => this.dispatch({ kind: 'broke', error })));
      case 'restart-budget':
        if (!ctx.api.spentBudget()) ctx.api.budgetUntil(Date.now() + ctx.cfg.maxWaitMinutes * 60_000);
        return;
      case 'progress': return ctx.progress?.(this.alone.wave, 'tick', 1);
      case 'stop': return ctx.log.error({ code: c.code }, `searching stopped: ${c.message}`);
      case 'log': return ctx.log[c.level](c.fields, c.message);
    }
  }

  /** A command's work, counted until it and the events it raises have settled. */
  private task(run: () => Promise<unknown>): void {
    void this.queues.work.add(run).catch((error: unknown) => this.dispatch({ kind: 'broke', error }));
  }

  /** Submits one search when its turn comes, unless nothing new may start by then. */
  private async submit(search: string, first: boolean): Promise<void> {
    if (!searching(this.state)) return this.dispatch({ kind: 'not-submitted', search, first });
    const planned = this.state.searches.get(search)!.planned;
    const token = this.sweep?.submitting();
    let event: SearchEvent;
    let request: RequestObject | undefined;
    try {
      ({ request } = await submitOne(this.ctx, planned, this.known, () => searching(this.state)));
      this.known.add(request.request_id);
      await this.sweep?.admit(request);
      event = { kind: 'submitted', search, first, request };
    } catch (error) {
      event = { kind: 'submit-failed', search, first, error, request };
    } finally {
      if (token !== undefined) this.sweep?.settled(token);
    }
    this.dispatch(event);
  }

  /** Reads a finished request on its own, once any hand-over from the sweep is in the ledger. */
  private async read(req: RequestObject, recorded: boolean): Promise<void> {
    const { ctx, alone } = this;
    let event: SearchEvent;
    try {
      const c = await this.queues.reads.add(async () => {
        await this.sweep?.ready(req.request_id);
        if (!recorded) await markCompleted(ctx.wh, req);
        return collectRequest(ctx, req, this.sink, alone.sizer, alone.sort);
      });
      event = { kind: 'loaded', requestId: req.request_id, pages: c.pages };
    } catch (error) {
      event = { kind: 'read-failed', requestId: req.request_id, error };
    }
    this.dispatch(event);
  }
}
