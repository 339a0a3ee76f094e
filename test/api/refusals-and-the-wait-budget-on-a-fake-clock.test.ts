import { describe, expect, it } from 'vitest';
import { CallStats, TIMELINE_SLICE_MS } from '../../src/api/call-stats.js';
import { API_CODES, errorForStatus } from '../../src/api/errors.js';
import { RefusalGate } from '../../src/api/refusal-gate.js';
import { WaitBudget } from '../../src/api/wait-budget.js';

// The parts of the HTTP client that remember: the refusal gate, the wait budget and the stats, each alone, on a
// fake clock where one is needed.

const noRedact = (s: string) => s;
/** 403s in a row, with no success between, that refuse the resource (docs/dialect-and-spec-gaps.md: three). */
const PLAN_WIDE_403 = 3;
const post = { base: 'requests' as const, route: 'POST /requests' };
const get = { base: 'requests' as const, route: 'GET /requests/:id' };

describe('the refusal gate', () => {
  it(`refuses a resource after ${PLAN_WIDE_403} 403s in a row, each before that its own call only; a success breaks the row`, () => {
    const gate = new RefusalGate();
    const forbid = () => gate.note(post, errorForStatus(403, {}, post.route, noRedact)).code;
    expect([forbid(), forbid()]).toEqual(['API_FORBIDDEN_ONE', 'API_FORBIDDEN_ONE']);
    gate.accepted(post);
    expect(gate.refusalFor(post)).toBeUndefined();
    expect(Array.from({ length: PLAN_WIDE_403 }, forbid).at(-1)).toBe('API_FORBIDDEN');
    expect(gate.refusalFor(post)).toMatchObject({ code: 'API_FORBIDDEN', notProcessed: true });
    // The resource is the base and the first segment of the path: another call to it is refused, another
    // resource of the same base, or the same path on another base, is not.
    expect(gate.refusalFor(get)).toMatchObject({ code: 'API_FORBIDDEN', notProcessed: true });
    expect(gate.refusalFor({ base: 'requests', route: 'GET /responses' })).toBeUndefined();
    expect(gate.refusalFor({ base: 'lawsuits', route: 'POST /requests' })).toBeUndefined();
  });

  it('refuses every call after a 401, and tells a call waiting in the queue at once', async () => {
    const gate = new RefusalGate();
    let release!: () => void;
    const queued = gate.untilRefused(get, () => new Promise<string>((r) => { release = () => r('sent'); }));
    gate.note(post, errorForStatus(401, {}, post.route, noRedact));
    await expect(queued).rejects.toMatchObject({ code: 'API_UNAUTHORIZED', notProcessed: true });
    release();
    expect(gate.refusalFor({ base: 'transfer', route: 'GET /transfer-file' })?.code).toBe('API_UNAUTHORIZED');
  });

  it('leaves a call already sent to its own answer', async () => {
    const gate = new RefusalGate();
    const sent = gate.untilRefused(post, async (sending) => { sending(); gate.note(get, errorForStatus(401, {}, get.route, noRedact)); return 'bought'; });
    await expect(sent).resolves.toBe('bought');
  });
});

describe('the wait budget', () => {
  it('is spent by a passing failure past its end, or by a wait that would outlast it, and refuses every call until set again', () => {
    let now = 1_000;
    let told = 0;
    const budget = new WaitBudget(() => { told++; }, () => now);
    const server = errorForStatus(503, {}, 'GET /x', noRedact);
    expect(budget.failedOver(server)).toBe(false);
    budget.until(5_000);
    expect(budget.allowsWait(server, 3_999, true)).toBe(true);
    // A probe's wait past the end is declined without spending the budget.
    expect(budget.allowsWait(server, 4_000, false)).toBe(false);
    expect(budget.spent()).toBeUndefined();
    now = 5_000;
    expect(budget.failedOver(errorForStatus(400, {}, 'GET /x', noRedact))).toBe(false);
    expect(budget.failedOver(server)).toBe(true);
    expect(budget.spent()).toMatchObject({ code: API_CODES.outOfTime, notProcessed: true });
    expect(budget.spent()?.message).toMatch(/API_SERVER/);
    expect(told).toBe(1);
    budget.until(undefined);
    expect(budget.spent()).toBeUndefined();
    expect(budget.allowsWait(server, 1e9, true)).toBe(true);
  });
});

describe('the stats observer', () => {
  it('counts each attempt by status and route, the calls answered, and slices the time line', () => {
    let now = 0;
    const events: unknown[] = [];
    const stats = new CallStats({ onCall: (e) => events.push(e) }, () => now);
    const call = (status: number | 'network', figures = {}) => stats.attempted({ method: 'GET', route: 'GET /r', status, ms: 5, attempt: 0, figures, answered: status !== 'network' && status < 500 });
    call(200, { limit: 180, remaining: 9 });
    call(429, { remaining: 3 });
    now = TIMELINE_SLICE_MS + 1;
    call('network');
    stats.retried();
    const s = stats.snapshot();
    expect(s).toMatchObject({ calls: 3, retries: 1, answered: 2, byStatus: { 200: 1, 429: 1, network: 1 }, byRouteStatus: { 'GET /r 429': 1 } });
    expect(s.timeline).toEqual([{ at: 0, calls: 2, limited: 1, limit: 180, remaining: 3 }, { at: TIMELINE_SLICE_MS, calls: 1, limited: 0 }]);
    expect(events).toHaveLength(3);
    // A snapshot is a copy.
    s.timeline[0].calls = 99;
    expect(stats.snapshot().timeline[0].calls).toBe(2);
  });
});

