import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallLog, SentCall } from '../../src/api/rate-limit/call-log.js';
import { learnWindow, refuteWindow, type WindowEstimate } from '../../src/api/rate-limit/window-estimate.js';

// The window's length W: an upper bound learned from Reset and from Remaining against the limiter's own log,
// and a whole-second guess tried by one call. Pure: each case builds the log by hand.

const margins = { wholeSecondMarginMs: 1000, marginMs: 20 };
const call = (id: number, at: number, endedAt?: number, extra: Partial<SentCall> = {}): SentCall =>
  ({ id, at, ...(endedAt === undefined ? {} : { endedAt, counted: true }), ...extra });

/** The bound an answer without a Reset teaches from Remaining alone, over an estimate that knew nothing. */
const boundFromCount = (log: CallLog, j: SentCall, inWindow: number, answeredAt: number): number | undefined =>
  learnWindow({}, log, j, inWindow, undefined, margins, answeredAt).hi;

describe('the bound from Remaining alone', () => {
  // m answered at 10; a and b started after that and were answered before j started.
  const m = call(0, 0, 10);
  const a = call(1, 20, 30);
  const b = call(2, 40, 50);
  const j = call(3, 1100, 1110);
  const log = [m, a, b, j];

  it('a count no larger than the calls surely counted after m (j included) proves m left: W <= answer - m.start', () => {
    expect(boundFromCount(log, j, 3, 1110)).toBe(1110);
  });

  it('a count that may still include m proves nothing', () => {
    expect(boundFromCount(log, j, 4, 1110)).toBeUndefined();
  });

  it('a call still in flight, refused, or overlapping m is not "surely counted after" it', () => {
    const inFlight = [m, { ...a, endedAt: undefined, counted: undefined }, b, j];
    expect(boundFromCount(inFlight, j, 3, 1110)).toBeUndefined();
    const refused = [m, { ...a, counted: undefined, refused: true }, b, j];
    expect(boundFromCount(refused, j, 3, 1110)).toBeUndefined();
    const overlapping = [m, call(1, 5, 30), b, j];
    expect(boundFromCount(overlapping, j, 3, 1110)).toBeUndefined();
  });

  it('takes the latest call that the count proves gone: the tightest bound', () => {
    // With a count of 2 (b and j), a has left too, which bounds W by 1110 - 20.
    expect(boundFromCount(log, j, 2, 1110)).toBe(1090);
    const more = [m, a, b, call(4, 60, 70), j];
    expect(boundFromCount(more, more[4], 2, 1110)).toBe(1110 - 40);
  });
});

/** The rule as written: for each candidate, newest first, the calls surely counted after it, counted one by one. */
function boundByDefinition(log: CallLog, j: SentCall, inWindow: number, answeredAt: number): number | undefined {
  for (let m = log.length - 1; m >= 0; m--) {
    const cand = log[m];
    if (cand.id === j.id || !cand.counted || cand.endedAt === undefined || cand.endedAt >= j.at) continue;
    const after = log.filter((i) => i.id !== cand.id && i.counted && i.at > cand.endedAt! && i.endedAt !== undefined && i.endedAt < j.at).length;
    if (1 + after >= inWindow) return answeredAt - cand.at;
  }
  return undefined;
}

describe('the bound from Remaining alone, against the rule as written', () => {
  // Calls started in order, each answered (counted or refused) some time later or still in flight.
  const logs = fc.array(fc.record({ gap: fc.nat(50), latency: fc.nat(200), fate: fc.constantFrom('counted', 'refused', 'flight') }), { minLength: 1, maxLength: 60 })
    .map((calls) => {
      let at = 0;
      return calls.map((c, id): SentCall => {
        at += c.gap;
        if (c.fate === 'flight') return { id, at };
        return { id, at, endedAt: at + c.latency, ...(c.fate === 'counted' ? { counted: true } : { refused: true }) };
      });
    });

  it('gives the same bound for any log, answered call and count (a binary search, not a scan per candidate)', () => {
    fc.assert(fc.property(logs, fc.nat(), fc.integer({ min: 1, max: 40 }), (log, pick, inWindow) => {
      const answered = log.filter((c) => c.counted);
      fc.pre(answered.length > 0);
      const j = answered[pick % answered.length];
      expect(boundFromCount(log, j, inWindow, j.endedAt!)).toBe(boundByDefinition(log, j, inWindow, j.endedAt!));
    }), { numRuns: 2_000 });
  });
});

describe('learnWindow: the Reset rule and the whole-second guess', () => {
  it('only this call in the window: W <= Reset - its start, a fraction taken as exact, no guess', () => {
    const j = call(0, 1000, 1050);
    expect(learnWindow({}, [j], j, 1, { at: 61_234, wholeSecond: false }, margins, 1050)).toEqual({ hi: 60_234, guess: undefined });
  });

  it('a whole-second Reset bounds W a margin later and guesses the whole second at or below it', () => {
    const j = call(0, 1300, 1350);
    expect(learnWindow({}, [j], j, 1, { at: 62_000, wholeSecond: true }, margins, 1350)).toEqual({ hi: 61_700, guess: 60_000 });
  });

  it('guesses only while no bound is known, and never a window under one second', () => {
    const j = call(0, 1300, 1350);
    expect(learnWindow({ hi: 70_000 }, [j], j, 1, { at: 62_000, wholeSecond: true }, margins, 1350)).toEqual({ hi: 61_700, guess: undefined });
    expect(learnWindow({}, [j], j, 1, { at: 2000, wholeSecond: true }, margins, 1350)).toEqual({ hi: 1700, guess: undefined });
  });

  it('a Reset before the call started (in the past) bounds nothing', () => {
    const j = call(0, 5000, 5050);
    expect(learnWindow({}, [j], j, 1, { at: 3000, wholeSecond: false }, margins, 5050)).toEqual({ hi: undefined, guess: undefined });
    expect(learnWindow({ hi: 9000 }, [j], j, 1, { at: 3000, wholeSecond: false }, margins, 5050)).toEqual({ hi: 9000, guess: undefined });
  });

  it('the Reset rule needs the window to hold only this call', () => {
    const j = call(0, 1000, 1050);
    expect(learnWindow({}, [j], j, 2, { at: 61_000, wholeSecond: false }, margins, 1050)).toEqual({ hi: undefined, guess: undefined });
  });

  it('a counted trial settles the guess; so does a bound within a margin of it', () => {
    const t = call(5, 100_000, 100_040, { trial: true });
    expect(learnWindow({ hi: 61_000, guess: 60_000 }, [t], t, 30, undefined, margins, 100_040)).toEqual({ hi: 61_000, guess: undefined });
    const m = call(0, 0, 10);
    const near = call(1, 100, 60_010);
    expect(learnWindow({ hi: 61_000, guess: 60_000 }, [m, near], near, 1, undefined, margins, 60_010)).toEqual({ hi: 60_010, guess: undefined });
    const far = call(1, 100, 60_500);
    expect(learnWindow({ hi: 61_000, guess: 60_000 }, [m, far], far, 1, undefined, margins, 60_500)).toEqual({ hi: 60_500, guess: 60_000 });
  });

  it('the count rule only ever tightens the bound', () => {
    const m = call(0, 0, 10);
    const j = call(1, 5000, 5010);
    expect(learnWindow({ hi: 9000 }, [m, j], j, 1, undefined, margins, 5010).hi).toBe(5010);
    expect(learnWindow({ hi: 4000 }, [m, j], j, 1, undefined, margins, 5010).hi).toBe(4000);
  });
});

describe('refuteWindow: a 429', () => {
  it('a refused trial tries the next whole second, until the guess meets the bound', () => {
    expect(refuteWindow({ hi: 61_700, guess: 60_000 }, true)).toEqual({ hi: 61_700, guess: 61_000 });
    expect(refuteWindow({ hi: 61_700, guess: 61_000 }, true)).toEqual({ hi: 61_700, guess: undefined });
  });

  it('any other 429 trusts the bound a second less, and leaves an unknown window unknown', () => {
    expect(refuteWindow({ hi: 20_050 }, false)).toEqual({ hi: 21_050, guess: undefined });
    expect(refuteWindow({}, false)).toEqual({});
  });
});

describe('learnWindow against a simulated sliding window', () => {
  // Calls with random latencies, each counted at a random moment between its start and its answer, by a
  // sliding window that frees each slot exactly W after it counted the call. Every bound learned must hold.
  it('never bounds W below the truth, and comes within the answer latency of it', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const W = 2000;
    for (let round = 0; round < 20; round++) {
      const calls: { at: number; countedAt: number; endedAt: number }[] = [];
      let t = 0;
      for (let i = 0; i < 120; i++) {
        t += random() * 120;
        const up = random() * 40;
        const down = random() * 40;
        calls.push({ at: t, countedAt: t + up, endedAt: t + up + down });
      }
      const answers = calls.map((c, id) => ({ ...c, id })).sort((x, y) => x.endedAt - y.endedAt);
      let est: WindowEstimate = {};
      let bestSeen = Infinity;
      for (const ans of answers) {
        const log: SentCall[] = calls.filter((c) => c.at <= ans.endedAt).map((c, id) => (c.endedAt <= ans.endedAt ? call(id, c.at, c.endedAt) : call(id, c.at)));
        const inWindow = calls.filter((c) => c.countedAt <= ans.countedAt && c.countedAt > ans.countedAt - W).length;
        const oldest = Math.min(...calls.filter((c) => c.countedAt <= ans.countedAt && c.countedAt > ans.countedAt - W).map((c) => c.countedAt));
        est = learnWindow(est, log, log[ans.id], inWindow, { at: oldest + W, wholeSecond: false }, margins, ans.endedAt);
        if (est.hi !== undefined) {
          expect(est.hi).toBeGreaterThanOrEqual(W);
          bestSeen = Math.min(bestSeen, est.hi);
        }
      }
      expect(bestSeen).toBeLessThan(W + 80 + 120);
    }
  });
});
