import type { RequestObject, ResponseItem } from '../../spec/types.js';
import type { ReadEntry } from '../../warehouse/read-ledger.js';
import { itemsBytes } from '../page-size.js';
import { foreignShare, perRequestCalls, sweepCostlier, type PageLimits, type SweepTally } from './cost.js';
import { advance, coveredBefore, pageSizeShown, queryAt, timeOf, type Advance, type SweepQuery } from './cursor.js';
import { sampledForEmptiness } from './empty-checks.js';
import type { Member } from './members.js';
import { highOf, type SweepState } from './state.js';
import { untrustedPage } from './verify.js';

// The sweep's decisions, pure: given its state (state.ts) and what a call answered, what to do next. No call,
// no clock, no commit here; the shell (sweep.ts) performs each action and hands the answer back. The state is
// the step's to update (it is the sweep's only copy: its members may number a whole night's requests, so a step
// changes it in place instead of copying it per page).
//
// The actions, in the order a page goes through them:
//   read      ask the listing across requests for one page (cursor.ts says which)
//   confirm   ask one member's own listing whether it really has no responses (empty-checks.ts), before a
//             commit declares it complete without one
//   commit    hand responses and their ledger entry to the page sink; the members completed leave the sweep
//   hand over members leave for per-request reading (one holding back the rest for too long)
//   stop      the sweep ends for the night (a page it cannot trust, or costlier than per-request reading)
//   idle      nothing worth a call now: wait until something changes (a request finishes, joins, leaves)

/** A member still running once this long holds back every answer created after it: read it per request. */
const BLOCKING_MS = 10 * 60_000;

/** Responses and the ledger entry that records them; the members it completes are reported once committed. */
export interface Commit {
  items: ResponseItem[];
  ledger: ReadEntry[];
  complete: readonly Member[];
  /** Listing pages it carries (0: completions found without a new page). */
  pages: number;
  /** After a page: whether it was the last of its range (then wait for news), and the cost is compared. */
  after?: { end: boolean };
}

export type SweepAction =
  | { kind: 'idle' }
  | { kind: 'read'; query: SweepQuery; newest: number | undefined; issued: number }
  | { kind: 'confirm'; ids: readonly string[]; commit: Commit }
  | { kind: 'commit'; commit: Commit }
  | { kind: 'hand-over'; ids: readonly string[]; why: string }
  | { kind: 'stop'; status: 'fallback' | 'switched'; reason: string; orderBroken?: true };

export type ReadAction = Extract<SweepAction, { kind: 'read' }>;
export type ConfirmAction = Extract<SweepAction, { kind: 'confirm' }>;

export const IDLE: SweepAction = { kind: 'idle' };

/** What the sweep does now. `now`: our clock (ms); `size`: the page size wanted. */
export function next(s: SweepState, now: number, size: number): SweepAction {
  if (!s.on || s.spent) return IDLE;
  const settled = settle(s);
  if (settled) return settled;
  // Nothing left to read for: the end of the night once read no member (every one complete, or handed over) cost
  // a page of what the last page had read already.
  if (s.members.size === 0) return IDLE;
  if (!s.draining) {
    const blocking = unblock(s, now);
    if (blocking) return blocking;
  }
  const reach = s.members.reach();
  if (!reach.open) return IDLE;
  const start = s.cursor.from ?? s.members.earliest();
  // Nothing is read below what was read already (a floor may stand below the last response read for a while).
  if (start === undefined || (reach.until !== undefined && reach.until < (s.cursor.last ?? start))) return IDLE;
  if (!s.draining && !worthReading(s, reach.until, size)) return IDLE;
  return { kind: 'read', query: queryAt(s.cursor, start, reach.until, size), newest: s.members.newest(), issued: s.members.issue() };
}

/** Members complete without a new page (read past their completion before it was seen): recorded at once. */
function settle(s: SweepState): SweepAction | undefined {
  if (!s.sweepId) return undefined;
  const complete = s.members.complete(s.verifiedTo);
  if (complete.length === 0) return undefined;
  return checked(s, { items: [], ledger: [sweepEntry(s, { read: 0, skipped: 0, pages: 0, ours: [], complete })], complete, pages: 0 });
}

/** A member running for long holds back every answer after it: it is read per request instead. */
function unblock(s: SweepState, now: number): SweepAction | undefined {
  const [oldest] = s.members.running();
  if (!oldest || now - oldest.since < BLOCKING_MS) return undefined;
  if (s.members.finishedBetween(oldest.createdAt, Number.POSITIVE_INFINITY) === 0) return undefined;
  return { kind: 'hand-over', ids: [oldest.id], why: `still running after ${Math.round(BLOCKING_MS / 60_000)} minutes, holding back the responses created after it` };
}

/**
 * Whether the range now open holds about a page: what the last answer said is left in it, and the
 * responses of the members finished since. Those are estimated low on purpose: the median answer of the
 * members read so far (a few big litigants make the mean useless), grown by the share of other requests'
 * responses met. An estimate too high reads a partial page, a wasted call; one too low only reads later (the
 * next answer's all_count says what is left), and the end of the night reads the rest anyway.
 */
function worthReading(s: SweepState, until: number | undefined, size: number): boolean {
  if (s.remainder >= size) return true;
  const fresh = s.members.finishedBetween(s.lastUntil, until ?? Number.POSITIVE_INFINITY);
  if (fresh === 0) return false;
  const perMember = s.completed.length === 0 ? size / 4 : median(s.completed.map((m) => m.items));
  const ours = 1 - foreignShare(s.figures);
  return s.remainder + (perMember * fresh) / Math.max(0.05, ours) >= size;
}

/**
 * A page answered `read`: checked (verify.ts), counted against what the listing says the range holds, the
 * cursor moved on (cursor.ts), our responses picked out. Returns the commit (after its checks), or the stop
 * the page calls for.
 */
export function afterPage(s: SweepState, read: ReadAction, page: { items: readonly ResponseItem[]; allCount: number }): SweepAction {
  const q = read.query;
  s.figures.calls++;
  s.figures.pages++;
  const items = page.items;
  const times = items.map((i) => timeOf(i.created_at));
  const sameRun = q.page > 1 && s.run?.from === q.from && s.run.size === q.size;
  const bad = untrustedPage(q, times, items.map((i) => i.created_at), sameRun ? s.cursor.last : undefined);
  if (bad) return stop('fallback', `the responses listing across requests cannot be trusted: ${bad.reason}`, bad.order);
  s.figures.sizeShown = Math.max(s.figures.sizeShown, pageSizeShown(q, items.length, page.allCount));
  // A run of pages at one anchor starts at page 1; one resumed mid-way (after a kill) cannot be counted.
  const run = sameRun && s.run ? s.run : (s.run = { from: q.from, size: q.size, ids: new Set(), checkable: q.page === 1 });
  for (const i of items) run.ids.add(i.response_id);
  const adv = advance(s.cursor, q, times, items.map((i) => i.response_id));
  if (adv.end && run.checkable && run.ids.size !== page.allCount) {
    return stop('fallback', `the responses listing across requests counted ${page.allCount} responses in the range read but its pages held `
      + `${run.ids.size}: it does not follow its order or its pages`, true);
  }
  if (adv.end) s.verifiedTo = coveredBefore(adv.cursor);
  // A page of nothing new can happen once (an anchor moved into a millisecond already read); again and again,
  // the listing does not follow its bounds or pages.
  s.idlePages = !adv.end && adv.fresh.length === 0 ? s.idlePages + 1 : 0;
  if (s.idlePages >= 3) {
    return stop('fallback', 'the responses listing across requests answered page after page of responses already read: it does not follow its bounds or pages');
  }
  s.cursor = adv.cursor;
  s.members.high = highOf(s.cursor);
  return taken(s, read, page, adv);
}

/** Our responses of a trusted page, the members it completes, and the commit that records them. */
function taken(s: SweepState, read: ReadAction, page: { items: readonly ResponseItem[]; allCount: number }, adv: Advance): SweepAction {
  const q = read.query;
  const ours: ResponseItem[] = [];
  const perMember = new Map<string, number>();
  for (const i of adv.fresh) {
    const item = page.items[i];
    const m = s.members.get(item.request_id);
    if (!m) continue;
    ours.push(item);
    m.items++;
    m.bytes += itemsBytes([item]);
    perMember.set(m.id, (perMember.get(m.id) ?? 0) + 1);
  }
  if (ours.length > 0) s.verified = true;
  const skipped = adv.fresh.length - ours.length;
  s.figures.read += adv.fresh.length;
  s.figures.skipped += skipped;
  s.remainder = adv.end ? 0 : Math.max(0, page.allCount - q.page * q.size);
  s.lastUntil = q.until ?? read.newest ?? s.lastUntil;
  const complete = adv.end ? s.members.complete(s.verifiedTo, q.until === undefined ? read.issued : undefined) : [];
  const entry = sweepEntry(s, { read: adv.fresh.length, skipped, pages: 1, ours: [...perMember].map(([requestId, items]) => ({ requestId, items })), complete });
  return checked(s, { items: ours, ledger: [entry], complete, pages: 1, after: { end: adv.end } });
}

/** The commit, after the empty members it declares complete that the sample picks are confirmed (empty-checks.ts). */
function checked(s: SweepState, commit: Commit): SweepAction {
  const ids: string[] = [];
  for (const m of commit.complete) {
    if (s.verified || m.items > 0) continue;
    if (sampledForEmptiness(++s.emptyMembers)) ids.push(m.id);
  }
  return ids.length > 0 ? { kind: 'confirm', ids, commit } : { kind: 'commit', commit };
}

/** A member's own listing answered the first check of `confirm`: the next check, the commit, or a stop. */
export function afterCheck(s: SweepState, confirm: ConfirmAction, answer: { items: number; allCount: number }): SweepAction {
  s.figures.calls++;
  const [id, ...rest] = confirm.ids;
  if (answer.items > 0 || answer.allCount > 0) {
    return stop('fallback', `the responses listing across requests showed none of request ${id}'s responses, which it has (${answer.allCount}): its filters are not honoured`);
  }
  return rest.length > 0 ? { ...confirm, ids: rest } : { kind: 'commit', commit: confirm.commit };
}

/**
 * How a call of the sweep's failed, as the shell classified it through the failure policy. `beyond`: past its item
 * (the key, the resource, the warehouse), the stage's to end. `spent`: the stage's wait budget ran out on a failing
 * upstream, no fault of the listing's. `smaller`: the page was too large, and the page size is smaller now
 * (across-page.ts). `failed`: the call's own failure.
 */
export type CallFailure = { kind: 'beyond' | 'spent' | 'smaller' } | { kind: 'failed'; code: string; message: string };

/**
 * A listing call failed: counted; a failure past its item ends the stage (the shell throws it), a spent budget
 * halts the sweep as SIGTERM does (the next run resumes from its cursor), a page too large is asked again
 * (undefined: decide afresh), and any other failure of the listing's ends the sweep for the night.
 */
export function readFailed(s: SweepState, f: CallFailure): SweepAction | undefined {
  s.figures.calls++;
  if (f.kind === 'smaller') return undefined;
  if (f.kind !== 'failed') return halted(s, f);
  return stop('fallback', `the responses listing across requests failed (${f.code}: ${f.message})`);
}

/** A check failed on a call of its own (not the key, not the budget): the listing cannot be vouched for. */
export function checkFailed(s: SweepState, confirm: ConfirmAction, f: CallFailure): SweepAction {
  s.figures.calls++;
  if (f.kind !== 'failed') return halted(s, f);
  return stop('fallback', `request ${confirm.ids[0]}'s own listing could not be read to check the listing across requests (${f.code})`);
}

function halted(s: SweepState, f: CallFailure): SweepAction {
  if (f.kind === 'spent') s.spent = true;
  return IDLE;
}

/**
 * A commit was handed to the sink: its members leave the sweep. After a page, the cost is compared with
 * per-request reading, whose pages hold what `page` allows; the end of a range waits for news (idle), else the
 * next page is decided (undefined).
 */
export function committed(s: SweepState, c: Commit, page: PageLimits): SweepAction | undefined {
  for (const m of c.complete) {
    s.members.drop(m.id);
    s.finished.delete(m.id);
    s.completed.push({ items: m.items, bytes: m.bytes });
  }
  if (!c.after) return undefined;
  const t = tallyOf(s);
  if (sweepCostlier(t, page)) {
    return stop('switched', `responses of other requests on the key (${Math.round(foreignShare(t) * 100)}% of those read) made the sweep costlier `
      + `than per-request reading (${t.calls} calls against ${perRequestCalls(t, page)})`);
  }
  return c.after.end ? IDLE : undefined;
}

/** The figures of the night so far, for the comparison with per-request reading (cost.ts). */
function tallyOf(s: SweepState): SweepTally {
  return {
    calls: s.figures.calls, completed: s.completed, skipped: s.figures.skipped, read: s.figures.read,
    partial: [...s.members.all()].filter((m) => m.items > 0).map((m) => ({ items: m.items, bytes: m.bytes })),
  };
}

/** Members leave the sweep: those that were members, and the finished ones among them (to read per request). */
export function released(s: SweepState, ids: readonly string[]): { gone: string[]; finished: RequestObject[] } {
  const gone = ids.filter((id) => s.members.drop(id) !== undefined);
  s.figures.handedOver += gone.length;
  const finished: RequestObject[] = [];
  for (const id of gone) {
    const req = s.finished.get(id);
    s.finished.delete(id);
    if (req) finished.push(req);
  }
  return { gone, finished };
}

/**
 * The sweep ends for the night: every member left is handed over, with the sweep's status in the same commit.
 * Undefined when it had ended already.
 */
export function stopped(s: SweepState, status: 'fallback' | 'switched', reason: string): { ids: string[]; ledger: ReadEntry[] } | undefined {
  if (!s.on) return undefined;
  s.on = false;
  s.figures.stopped = 1;
  return {
    ids: [...s.members.all()].map((m) => m.id),
    ledger: s.sweepId ? [{ kind: 'sweep_status', sweepId: s.sweepId, status, reason: reason.slice(0, 500) }] : [],
  };
}

function stop(status: 'fallback' | 'switched', reason: string, orderBroken = false): SweepAction {
  return orderBroken ? { kind: 'stop', status, reason, orderBroken } : { kind: 'stop', status, reason };
}

function sweepEntry(s: SweepState, e: { read: number; skipped: number; pages: number; ours: Array<{ requestId: string; items: number }>; complete: readonly Member[] }): ReadEntry {
  return { kind: 'sweep', sweepId: s.sweepId!, cursor: s.cursor, read: e.read, skipped: e.skipped, pages: e.pages, ours: e.ours, complete: e.complete.map((m) => m.id) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
