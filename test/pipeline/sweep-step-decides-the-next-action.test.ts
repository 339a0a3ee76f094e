import { describe, expect, it } from 'vitest';
import { sweepState, type SweepState } from '../../src/pipeline/sweep/state.js';
import {
  afterCheck, afterPage, checkFailed, committed, next, readFailed, released, stopped, type CallFailure, type Commit, type ReadAction, type SweepAction,
} from '../../src/pipeline/sweep/step.js';
import { draining, finished, joined, left, named, refused, rejoined, settled, submitting } from '../../src/pipeline/sweep/news.js';
import { parseResponsesPage } from '../../src/api/responses.js';
import type { RequestObject, ResponseItem } from '../../src/spec/types.js';

// The sweep's pure step (src/pipeline/sweep/step.ts), one decision a row: from a state built by hand, what it
// does next (read, confirm, commit, hand over, stop, idle) and what the state then says. No HTTP, no
// warehouse: the answers of the listing are given as data, the clock as a number.

const T0 = Date.parse('2026-11-21T03:00:00Z');
/** How long the oldest member may run while members behind it have finished, before it is handed over. */
const BLOCKING_MS = 10 * 60_000;
/** Pages of 100 items or 4 MB of their text (the items here are a few hundred characters: items decide). */
const PAGE = { items: 100, bytes: 4 * 2 ** 20 };
const iso = (ms: number) => new Date(ms).toISOString();
const item = (requestId: string, n: number, at: number): ResponseItem =>
  ({ request_id: requestId, response_id: `${requestId}-${n}`, response_type: 'lawsuit', response_data: {} as ResponseItem['response_data'], created_at: iso(at) });
const completedReq = (id: string, created: number, done: number): RequestObject =>
  ({ request_id: id, status: 'completed', created_at: iso(created), updated_at: iso(done), search: { search_type: 'cpf', search_key: id } });

/** A sweep with members `ids`, created 100 ms apart from T0, those in `done` finished 50 ms after creation. */
function swept(ids: readonly string[], done: readonly string[] = [], opts: { sweepId?: string; since?: number } = {}): SweepState {
  const s = sweepState();
  s.sweepId = opts.sweepId ?? 'sweep-1';
  ids.forEach((id, i) => s.members.admit(id, T0 + i * 100, opts.since ?? 0));
  for (const id of done) {
    const m = s.members.get(id)!;
    s.members.finished(id, m.createdAt + 50);
    s.finished.set(id, completedReq(id, m.createdAt, m.createdAt + 50));
  }
  return s;
}

const read = (s: SweepState, size = 100): ReadAction => {
  const a = next(s, 0, size);
  expect(a.kind).toBe('read');
  return a as ReadAction;
};

interface NextRow { name: string; state: () => SweepState; now?: number; size?: number; action: Partial<SweepAction> | { kind: string; [k: string]: unknown } }

const nextRows: NextRow[] = [
  { name: 'no member yet: idle', state: () => sweepState(), action: { kind: 'idle' } },
  { name: 'every member still running: nothing may be read, idle', state: () => swept(['a', 'b']), action: { kind: 'idle' } },
  {
    name: 'a finished member, too few answers for a page: idle (read later, full)',
    state: () => swept(['a', 'b'], ['a']), action: { kind: 'idle' },
  },
  {
    name: 'enough finished members for about a page: read up to just before the oldest still running',
    state: () => swept(['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', 'd']),
    action: { kind: 'read', query: { from: T0, until: T0 + 400 - 1, page: 1, size: 100 } },
  },
  {
    name: 'draining: whatever is finished is read, to the newest response',
    state: () => { const s = swept(['a'], ['a']); s.draining = true; return s; },
    action: { kind: 'read', query: { from: T0, until: undefined, page: 1, size: 100 } },
  },
  {
    name: 'draining with no member left (each complete at the last page): idle, not a page of what was read already',
    state: () => { const s = swept([]); s.draining = true; s.cursor = { from: T0 + 500, page: 1, last: T0 + 500, seen: ['x'] }; return s; },
    action: { kind: 'idle' },
  },
  {
    name: 'the oldest member still running long after members behind it finished: it is handed over',
    state: () => swept(['slow', 'b'], ['b']), now: BLOCKING_MS,
    action: { kind: 'hand-over', ids: ['slow'] },
  },
  {
    name: 'the oldest member still running a millisecond short of that: not handed over yet',
    state: () => swept(['slow', 'b'], ['b']), now: BLOCKING_MS - 1,
    action: { kind: 'idle' },
  },
  {
    name: 'draining, a member still running is never handed over by the clock',
    state: () => { const s = swept(['slow', 'b'], ['b']); s.draining = true; return s; }, now: BLOCKING_MS,
    action: { kind: 'idle' },
  },
  {
    name: 'a finished member already read past (the end of a range beyond its completion): committed without a page',
    state: () => { const s = swept(['a', 'b'], ['a']); s.verifiedTo = T0 + 51; s.members.get('a')!.items = 2; return s; },
    action: { kind: 'commit', commit: { items: [], pages: 0, complete: [expect.objectContaining({ id: 'a' })] } as unknown as Commit },
  },
  {
    name: 'the same, with no response of it yet and the listing not verified: its own listing is asked first',
    state: () => { const s = swept(['a', 'b'], ['a']); s.verifiedTo = T0 + 51; return s; },
    action: { kind: 'confirm', ids: ['a'] },
  },
  { name: 'stopped for the night: idle', state: () => { const s = swept(['a'], ['a']); s.on = false; s.draining = true; return s; }, action: { kind: 'idle' } },
  { name: 'the budget spent: idle', state: () => { const s = swept(['a'], ['a']); s.spent = true; s.draining = true; return s; }, action: { kind: 'idle' } },
];

describe('what the sweep does next', () => {
  for (const row of nextRows) {
    it(row.name, () => {
      expect(next(row.state(), row.now ?? 0, row.size ?? 100)).toMatchObject(row.action);
    });
  }

  it('a member is never complete mid-range: only the end of a range whose count checked out completes it', () => {
    const s = swept(['a'], ['a']);
    s.draining = true;
    const first = read(s, 2);
    const mid = afterPage(s, first, { items: [item('a', 0, T0 + 10), item('a', 1, T0 + 11)], allCount: 3 });
    expect(mid).toMatchObject({ kind: 'commit', commit: { items: [expect.anything(), expect.anything()], complete: [], after: { end: false } } });
    expect(committed(s, (mid as { commit: Commit }).commit, PAGE)).toBeUndefined();
    const second = read(s, 2);
    expect(second.query).toMatchObject({ page: 2, size: 2 });
    const end = afterPage(s, second, { items: [item('a', 2, T0 + 12)], allCount: 3 });
    expect(end).toMatchObject({ kind: 'commit', commit: { complete: [expect.objectContaining({ id: 'a', items: 3 })], after: { end: true } } });
    expect(committed(s, (end as { commit: Commit }).commit, PAGE)).toEqual({ kind: 'idle' });
    expect(s.members.has('a')).toBe(false);
    expect(s.finished.has('a')).toBe(false);
  });
});

describe('what a page calls for', () => {
  const page = (items: ResponseItem[], allCount = items.length) => ({ items, allCount });

  it('a response before the lower bound: stop, per request from the start, the check named', () => {
    const s = swept(['a'], ['a']);
    s.draining = true;
    expect(afterPage(s, read(s), page([item('x', 0, T0 - 5)]))).toMatchObject({ kind: 'stop', status: 'fallback', reason: expect.stringMatching(/before the lower bound/) });
  });

  it('a page starting before the page ahead of it ended (the cross-page order check): stop', () => {
    const s = swept(['a'], ['a']);
    s.draining = true;
    const first = read(s, 2);
    committed(s, (afterPage(s, first, page([item('a', 0, T0 + 10), item('a', 1, T0 + 20)], 4)) as { commit: Commit }).commit, PAGE);
    expect(afterPage(s, read(s, 2), page([item('a', 2, T0 + 5), item('a', 3, T0 + 30)], 4)))
      .toMatchObject({ kind: 'stop', reason: expect.stringMatching(/before the page ahead of it ended.*order is not honoured/) });
  });

  it('a range whose pages hold fewer responses than the listing counts: stop', () => {
    const s = swept(['a'], ['a']);
    s.draining = true;
    expect(afterPage(s, read(s), page([item('a', 0, T0 + 10)], 5)))
      .toMatchObject({ kind: 'stop', reason: expect.stringMatching(/counted 5 responses in the range read but its pages held 1/) });
  });

  it('page after page of responses already read: stop on the third in a row', () => {
    const s = swept(['a'], ['a']);
    s.draining = true;
    const same = [item('a', 0, T0 + 10), item('a', 1, T0 + 10)];
    const actions: string[] = [];
    for (let i = 0; i < 4; i++) {
      const a = afterPage(s, read(s, 2), page(same, 100));
      actions.push(a.kind);
      if (a.kind === 'commit') committed(s, a.commit, PAGE);
    }
    // the first brought two new responses, the next three nothing
    expect(actions).toEqual(['commit', 'commit', 'commit', 'stop']);
  });

  it('another client\'s responses are skipped, never committed; ours are, with the member\'s count in the ledger entry', () => {
    const s = swept(['a'], ['a']);
    s.draining = true;
    const a = afterPage(s, read(s), page([item('a', 0, T0 + 10), item('foreign', 0, T0 + 11), item('a', 1, T0 + 12)]));
    expect(a).toMatchObject({
      kind: 'commit',
      commit: { items: [{ response_id: 'a-0' }, { response_id: 'a-1' }], ledger: [{ kind: 'sweep', read: 3, skipped: 1, ours: [{ requestId: 'a', items: 2 }], complete: ['a'] }] },
    });
    expect(s.verified).toBe(true);
    expect(s.figures).toMatchObject({ calls: 1, pages: 1, read: 3, skipped: 1 });
  });

  it('what a member weighs is its responses\' text as received: per-request reading\'s pages are held to it too (cost.ts)', () => {
    const s = swept(['a'], ['a']);
    s.draining = true;
    const big = (n: number, at: number) => JSON.stringify({ ...item('a', n, at), response_data: { code: `c${n}`, text: 'x'.repeat(5_000 + n) } });
    const text = `{"page":1,"page_count":2,"all_pages_count":1,"all_count":2,"page_data":[${big(0, T0 + 10)},${big(1, T0 + 12)}]}`;
    const c = afterPage(s, read(s), { items: parseResponsesPage(text).items, allCount: 2 });
    committed(s, (c as { commit: Commit }).commit, PAGE);
    expect(s.completed).toEqual([{ items: 2, bytes: big(0, T0 + 10).length + big(1, T0 + 12).length }]);
  });
});

describe('the sampled empty-night check', () => {
  it('an empty member of an unverified listing is asked for on its own before the commit; an answer of none lets it through', () => {
    const s = swept(['a'], ['a']);
    s.draining = true;
    const c = afterPage(s, read(s), { items: [], allCount: 0 });
    expect(c).toMatchObject({ kind: 'confirm', ids: ['a'] });
    if (c.kind !== 'confirm') return;
    expect(afterCheck(s, c, { items: 0, allCount: 0 })).toMatchObject({ kind: 'commit', commit: { complete: [expect.objectContaining({ id: 'a' })] } });
    expect(s.figures.calls).toBe(2);
  });

  it('an empty member whose own listing has responses: the listing answers nothing, stop', () => {
    const s = swept(['a'], ['a']);
    s.draining = true;
    const c = afterPage(s, read(s), { items: [], allCount: 0 });
    if (c.kind !== 'confirm') throw new Error(`expected a confirm, got ${c.kind}`);
    expect(afterCheck(s, c, { items: 1, allCount: 4 })).toMatchObject({ kind: 'stop', reason: expect.stringMatching(/showed none of request a's responses, which it has \(4\)/) });
  });

  it('only a sample is asked for: the first three, then the powers of two', () => {
    const ids = Array.from({ length: 9 }, (_, i) => `m${i}`);
    const s = swept(ids, ids);
    s.draining = true;
    const c = afterPage(s, read(s), { items: [], allCount: 0 });
    expect(c).toMatchObject({ kind: 'confirm', ids: ['m0', 'm1', 'm2', 'm3', 'm7'] });
  });

  it('once a page has shown one of ours, nothing is asked', () => {
    const s = swept(['a', 'b'], ['a', 'b']);
    s.draining = true;
    expect(afterPage(s, read(s), { items: [item('a', 0, T0 + 10)], allCount: 1 })).toMatchObject({ kind: 'commit' });
  });
});

describe('the end of the sweep for the night', () => {
  it('costlier than per-request reading after a page: stop, switched', () => {
    const s = swept(['a'], ['a']);
    s.figures = { calls: 40, pages: 40, read: 4_000, skipped: 3_900, handedOver: 0, stopped: 0, sizeShown: 0 };
    s.members.get('a')!.items = 100;
    const c: Commit = { items: [], ledger: [], complete: [], pages: 1, after: { end: false } };
    expect(committed(s, c, PAGE)).toMatchObject({ kind: 'stop', status: 'switched', reason: expect.stringMatching(/98% of those read/) });
    // completions found without a page compare nothing
    expect(committed(s, { ...c, after: undefined }, PAGE)).toBeUndefined();
  });

  it('stopping hands every member over, with the sweep\'s status in the same commit, once', () => {
    const s = swept(['a', 'b'], ['a']);
    expect(stopped(s, 'fallback', 'x'.repeat(600))).toEqual({ ids: ['a', 'b'], ledger: [{ kind: 'sweep_status', sweepId: 'sweep-1', status: 'fallback', reason: 'x'.repeat(500) }] });
    expect(s.figures.stopped).toBe(1);
    expect(stopped(s, 'switched', 'again')).toBeUndefined();
    expect(next(s, 0, 100)).toEqual({ kind: 'idle' });
  });

  it('members released leave the sweep; the finished ones go back to the stage to read', () => {
    const s = swept(['a', 'b'], ['a']);
    const r = released(s, ['a', 'b', 'not-a-member']);
    expect(r.gone).toEqual(['a', 'b']);
    expect(r.finished.map((q) => q.request_id)).toEqual(['a']);
    expect(s.figures.handedOver).toBe(2);
    expect(s.members.size).toBe(0);
  });
});

describe('what a failed call calls for', () => {
  // The shell classifies the failure through the failure policy (sweep.ts); the step counts the call and decides.
  const rows: Array<[string, CallFailure, SweepAction | undefined, boolean]> = [
    // what, the failure, the action, the sweep halted for the budget
    ['past its item (the key, the warehouse): the stage\'s, thrown by the shell', { kind: 'beyond' }, { kind: 'idle' }, false],
    ['the wait budget spent: halt, the cursor waits in the ledger', { kind: 'spent' }, { kind: 'idle' }, true],
    ['a page too large, the page size now smaller: decide afresh', { kind: 'smaller' }, undefined, false],
    ['the listing\'s own failure: per request for the rest of the night', { kind: 'failed', code: 'API_SERVER', message: 'boom' },
      { kind: 'stop', status: 'fallback', reason: 'the responses listing across requests failed (API_SERVER: boom)' }, false],
  ];
  for (const [what, failure, action, spent] of rows) {
    it(`a listing call: ${what}`, () => {
      const s = swept(['a'], ['a']);
      expect(readFailed(s, failure)).toEqual(action);
      expect(s.figures.calls).toBe(1);
      expect(s.spent).toBe(spent);
      if (spent) expect(next(s, 0, 100)).toEqual({ kind: 'idle' });
    });
  }

  it('a member\'s own listing, asked to confirm it is empty: halt on the budget, else the listing cannot be vouched for', () => {
    const confirm = { kind: 'confirm' as const, ids: ['a'], commit: { items: [], ledger: [], complete: [], pages: 0 } };
    const s = swept(['a'], ['a']);
    expect(checkFailed(s, confirm, { kind: 'spent' })).toEqual({ kind: 'idle' });
    expect(s.spent).toBe(true);
    const t = swept(['a'], ['a']);
    expect(checkFailed(t, confirm, { kind: 'failed', code: 'API_SERVER', message: 'x' })).toMatchObject({ kind: 'stop', status: 'fallback', reason: expect.stringContaining('(API_SERVER)') });
    expect([s.figures.calls, t.figures.calls]).toEqual([1, 1]);
  });
});

describe('what the stage tells the sweep', () => {
  it('a request joins while the sweep is on, and not once it ended for the night (refused)', () => {
    const s = swept(['a']);
    expect(joined(s, { ...completedReq('b', T0 + 200, T0 + 250), status: 'pending' }, 0)).toBe(true);
    refused(s);
    expect(s.on).toBe(false);
    expect(joined(s, { ...completedReq('c', T0 + 300, T0 + 350), status: 'pending' }, 0)).toBe(false);
    expect(next(s, 0, 100)).toEqual({ kind: 'idle' });
  });

  it('a member finished is kept to hand back; a request not a member is no news; one that leaves is no longer read for', () => {
    const s = swept(['a', 'b']);
    expect(finished(s, completedReq('a', T0, T0 + 50))).toBe(true);
    expect(s.finished.get('a')?.request_id).toBe('a');
    expect(finished(s, completedReq('x', T0, T0 + 50))).toBe(false);
    expect(left(s, 'b')).toBe(true);
    expect(left(s, 'b')).toBe(false);
    expect(s.members.has('b')).toBe(false);
  });

  it('a request of an earlier run stays a member only when the ledger says it joined this very sweep', () => {
    const s = swept([], [], { sweepId: 'sweep-1' });
    const row = (over: object) => ({ request_id: 'r', created_at: new Date(T0), strategy: 'sweep', sweep_id: 'sweep-1', ...over });
    expect(rejoined(s, row({ sweep_id: 'sweep-0' }), 0)).toBe(false);
    expect(rejoined(s, row({ strategy: 'per_request' }), 0)).toBe(false);
    expect(rejoined(s, row({ created_at: null }), 0)).toBe(false);
    expect(rejoined(s, row({}), 0)).toBe(true);
    expect(s.members.has('r')).toBe(true);
  });

  it('the sweep\'s row is named once; the end of the night drains; a submission under way holds the reach back until settled', () => {
    const s = sweepState();
    expect(named(s, 'sweep-1')).toBe('sweep-1');
    expect(named(s, 'sweep-2')).toBe('sweep-1');
    draining(s);
    expect(s.draining).toBe(true);
    const t = swept(['a'], ['a']);
    const token = submitting(t);
    // its request is created after every one known: nothing from the newest known on is read until it is answered
    expect(t.members.reach()).toEqual({ open: true, until: T0 - 1 });
    settled(t, token);
    expect(t.members.reach()).toEqual({ open: true });
  });
});
