import { describe, expect, it } from 'vitest';
import {
  EMPTY_BUDGET, budgetAfterRefusal, budgetAfterStart, budgetFromAnswer, effectiveLimit, fallbackReadyAt, foreignFromAnswer, mirrorFree, mirrorReadyAt,
  type Budget,
} from '../../src/api/rate-limit/call-budget.js';
import { inFlight, logEnd, logStart, ownLeaving, ownSince, pruneLog, type CallLog, type SentCall } from '../../src/api/rate-limit/call-log.js';

// The budget: our own calls that may still be in the window, the calls of others that Remaining reveals, and
// before the window is known, Remaining spent down to the Reset. Pure: the clock is an argument.

const opts = { marginMs: 20, awaitAnswerMs: 1000 };
const ended = (id: number, at: number, endedAt: number): SentCall => ({ id, at, endedAt, counted: true });

describe('the call log', () => {
  it('records a start, then its end: counted, refused (429) or without answer', () => {
    let log: CallLog = [];
    log = logStart(log, { id: 0, at: 100 });
    log = logStart(log, { id: 1, at: 110 });
    log = logStart(log, { id: 2, at: 120 });
    expect(inFlight(log)).toBe(3);
    const a = logEnd(log, 1, 150, 200);
    expect(a.call).toEqual({ id: 1, at: 110, endedAt: 150, counted: true });
    expect(log[1]).toEqual({ id: 1, at: 110 });
    const b = logEnd(a.log, 0, 160, 429);
    expect(b.call).toEqual({ id: 0, at: 100, endedAt: 160, refused: true });
    const c = logEnd(b.log, 2, 170, undefined);
    expect(c.call).toEqual({ id: 2, at: 120, endedAt: 170 });
    expect(inFlight(c.log)).toBe(0);
    expect(logEnd(c.log, 9, 180, 200)).toEqual({ log: c.log, call: undefined });
  });

  it('a call leaves the window W after its answer, a refused one never held a slot, one in flight leaves at an unknown time', () => {
    const log: CallLog = [ended(0, 0, 50), { id: 1, at: 10, endedAt: 60, refused: true }, ended(2, 20, 40), { id: 3, at: 30 }];
    expect(ownLeaving(log, 1000, 20, 100)).toEqual([1060, 1070, Infinity]);
    expect(ownLeaving(log, 1000, 20, 1065)).toEqual([1070, Infinity]);
    expect(ownSince(log, 45)).toBe(2);
  });

  it('a refused call that holds its slot (the documented dialect counts refused calls) leaves W after its answer too', () => {
    const log: CallLog = [ended(0, 0, 50), { id: 1, at: 10, endedAt: 60, refused: true, holdsSlot: true }];
    expect(ownLeaving(log, 1000, 20, 100)).toEqual([1070, 1080]);
    expect(logEnd([{ id: 2, at: 0 }], 2, 10, 429, true).call).toEqual({ id: 2, at: 0, endedAt: 10, refused: true, holdsSlot: true });
  });

  it('prunes ended calls beyond two windows and ten seconds, or beyond four times the limit, never one in flight', () => {
    const log: CallLog = [ended(0, 0, 10), { id: 1, at: 5 }, ended(2, 30_000, 30_010)];
    expect(pruneLog(log, 100_000, 20_000, 60)).toEqual(log.slice(1));
    const many: CallLog = Array.from({ length: 100 }, (_, i) => ended(i, i, i + 1));
    expect(pruneLog(many, 200, undefined, 10)).toHaveLength(64);
    expect(pruneLog(many, 200, undefined, 20)).toHaveLength(80);
  });
});

describe('budget before the window is known: Remaining, then the Reset', () => {
  it('an answer sets Remaining minus the calls still in flight, under a configured ceiling when lower', () => {
    const b = budgetFromAnswer(EMPTY_BUDGET, { limit: 60, remaining: 50, resetAt: 5000, refused: false }, 3, {});
    expect(b).toMatchObject({ limit: 60, available: 47, resetAt: 5000 });
    // Ceiling 20 of a service limit 60: 10 used, so 10 more, minus 3 in flight.
    expect(budgetFromAnswer(EMPTY_BUDGET, { limit: 60, remaining: 50, refused: false }, 3, { limit: 20 }).available).toBe(7);
    expect(effectiveLimit(b, { limit: 20 })).toBe(20);
    expect(effectiveLimit(b, { limit: 100 })).toBe(60);
    expect(effectiveLimit(EMPTY_BUDGET, { limit: 20 })).toBe(20);
  });

  it('a Reset alone, with no Remaining, does not date the budget; on a 429 it does', () => {
    expect(budgetFromAnswer(EMPTY_BUDGET, { limit: 60, resetAt: 5000, refused: false }, 0, {}).resetAt).toBeUndefined();
    expect(budgetFromAnswer(EMPTY_BUDGET, { resetAt: 5000, refused: true }, 0, {}).resetAt).toBe(5000);
  });

  it('each start spends one; spent, it waits for the Reset', () => {
    let b: Budget = { foreign: 0, available: 1, resetAt: 5000 };
    expect(fallbackReadyAt(b, 0, opts, 1000).at).toBe(1000);
    b = budgetAfterStart(b, false);
    expect(b.available).toBe(0);
    expect(fallbackReadyAt(b, 1, opts, 1000).at).toBe(5020);
    expect(budgetAfterStart({ foreign: 0, available: 3 }, true).available).toBe(3);
  });

  it('past the Reset, one probe goes at once; a second waits for an answer in flight, at most awaitAnswerMs', () => {
    const spent: Budget = { foreign: 0, available: 0, resetAt: 5000 };
    const probe = fallbackReadyAt(spent, 0, opts, 6000);
    expect(probe).toEqual({ at: 6000, budget: { foreign: 0, available: 1, resetAt: 5000, probedReset: 5000, awaitDeadline: undefined } });
    const afterProbe = budgetAfterStart(probe.budget, false);
    const wait = fallbackReadyAt(afterProbe, 1, opts, 6010);
    expect(wait.at).toBe(7010);
    expect(fallbackReadyAt(wait.budget, 1, opts, 6500).at).toBe(7010);
    expect(fallbackReadyAt(wait.budget, 1, opts, 7010)).toMatchObject({ at: 7010, budget: { available: 1, awaitDeadline: undefined } });
  });

  it('never told a Remaining: no limit on starts', () => {
    expect(fallbackReadyAt(EMPTY_BUDGET, 30, opts, 1000).at).toBe(1000);
  });
});

describe('budget once the window is known: mirroring our own calls one window later', () => {
  const W = 10_000;
  // Three calls of ours, answered at 100, 200, 300; a limit of 3.
  const log: CallLog = [ended(0, 0, 100), ended(1, 50, 200), ended(2, 60, 300)];
  const full: Budget = { foreign: 0, limit: 3 };

  it('the window full of our calls: the next start waits for the oldest to leave, W after its answer', () => {
    expect(mirrorFree(full, log, W, opts, 1000)).toBe(0);
    expect(mirrorReadyAt(full, log, W, 0, opts, 1000).at).toBe(10_120);
    expect(mirrorFree(full, log, W, opts, 10_200)).toBe(1);
    expect(mirrorReadyAt(full, log, W, 0, opts, 10_200).at).toBe(10_200);
  });

  it('a slot held by a call still in flight frees at an unknown time: an answer is awaited', () => {
    const flying: CallLog = [...log.slice(1), { id: 3, at: 400 }];
    expect(mirrorReadyAt({ foreign: 0, limit: 2 }, flying, W, 1, opts, 10_300).at).toBe(10_320);
    expect(mirrorReadyAt({ foreign: 0, limit: 1 }, flying, W, 1, opts, 10_330).at).toBe(11_330);
  });

  it('a limit that drops below our calls in the window holds every start until enough of them leave', () => {
    const dropped: Budget = { foreign: 0, limit: 1 };
    expect(mirrorFree(dropped, log, W, opts, 1000)).toBe(-2);
    expect(mirrorReadyAt(dropped, log, W, 0, opts, 1000).at).toBe(10_320);
  });

  it('calls the service counts beyond our log are foreign, and are waited out until their Reset', () => {
    const j = ended(3, 10_400, 10_450);
    const withJ = [...log, j];
    // The service counts 3 in the window at j, of which j alone is ours (the others left W after their answers).
    const b = foreignFromAnswer({ foreign: 0, limit: 3 }, withJ, j, W, 3, 15_000, opts);
    expect(b).toMatchObject({ foreign: 2, foreignUntil: 15_020 });
    // One slot left, held by j: the next start waits for j to leave, not for a slot the others hold.
    expect(mirrorFree(b, withJ, W, opts, 10_500)).toBe(0);
    expect(mirrorReadyAt(b, withJ, W, 0, opts, 10_500).at).toBe(10_450 + W + 20);
  });

  it('foreign calls filling a configured ceiling are waited out until their Reset, then one call finds out', () => {
    const j = ended(3, 10_400, 10_450);
    const withJ = [...log, j];
    const ceiling = { ...opts, limit: 2 };
    const b = foreignFromAnswer({ foreign: 0, limit: 4 }, withJ, j, W, 4, 15_000, ceiling);
    expect(b.foreign).toBe(3);
    expect(mirrorReadyAt(b, withJ, W, 0, ceiling, 10_500).at).toBe(15_020);
    // Past their Reset, with an answer in flight, that answer is awaited first.
    const awaiting = mirrorReadyAt(b, withJ, W, 1, ceiling, 15_100);
    expect(awaiting.at).toBe(16_100);
    // With none in flight, one call goes, and one foreign call is taken as gone.
    expect(mirrorReadyAt(b, withJ, W, 0, ceiling, 15_100)).toMatchObject({ at: 15_100, budget: { foreign: 2, foreignUntil: undefined } });
  });

  it('a count that our log explains leaves no foreign calls', () => {
    const j = ended(3, 400, 450);
    expect(foreignFromAnswer({ foreign: 5, foreignUntil: 9000, limit: 9 }, [...log, j], j, W, 4, 15_000, opts)).toMatchObject({ foreign: 0, foreignUntil: undefined });
  });
});

describe('budget after a 429', () => {
  it('nothing is left, and the spent budget frees when Retry-After says, even before a later Reset', () => {
    const b: Budget = { foreign: 2, foreignUntil: 61_020, available: 5, resetAt: 61_000 };
    const after = budgetAfterRefusal(b, 5000, 0, opts);
    expect(after).toMatchObject({ available: 0, resetAt: 5000, foreignUntil: 5020 });
    expect(fallbackReadyAt(after, 0, opts, 1000).at).toBe(5020);
  });

  it('without Retry-After, the Reset still rules', () => {
    expect(budgetAfterRefusal({ foreign: 0, available: -2, resetAt: 61_000 }, undefined, 0, opts)).toMatchObject({ available: -2, resetAt: 61_000 });
  });
});
