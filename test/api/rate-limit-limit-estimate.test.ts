import { describe, expect, it } from 'vitest';
import type { CallLog, SentCall } from '../../src/api/rate-limit/call-log.js';
import {
  explorers, learnedLimit, limitAfterAcceptance, limitAfterRefusal, type LimitEstimate,
} from '../../src/api/rate-limit/limit-estimate.js';

// The window's size L learned without an X-RateLimit-Limit, from the log and the service's verdicts. Pure.

const W = 20_000;
/** A learned limit is tried again one call above after this many windows (docs/dialect-and-spec-gaps.md). */
const RELEARN_WINDOWS = 10;
const ok = (id: number, at: number, endedAt: number): SentCall => ({ id, at, endedAt, counted: true });
const no = (id: number, at: number, endedAt: number): SentCall => ({ id, at, endedAt, refused: true, holdsSlot: true });
/** `n` calls one after the other from `from`, each `latency` long. */
const sequential = (n: number, from = 0, latency = 10): SentCall[] => Array.from({ length: n }, (_, i) => ok(i, from + i * latency, from + (i + 1) * latency));

describe('limitAfterAcceptance: an accepted call proves L above the calls surely in its window', () => {
  it.each<[string, CallLog, number, LimitEstimate, LimitEstimate]>([
    ['one call at a time: every earlier one is surely in the window', sequential(5), 4, {}, { lo: 5, exploringSince: 40 }],
    ['calls answered after it started may have been counted after it: not sure', [ok(0, 0, 10), ok(1, 5, 30), ok(2, 15, 40)], 2, {}, { lo: 2, exploringSince: 15 }],
    ['calls started more than W before its answer may have left', [ok(0, 0, 10), ok(1, W + 5, W + 15), ok(2, W + 20, W + 30)], 2, {}, { lo: 2, exploringSince: W + 20 }],
    ['never lowers what an earlier window proved', sequential(3), 2, { lo: 9, exploringSince: 0 }, { lo: 9, exploringSince: 0 }],
    ['with a limit learned, it only raises lo', sequential(3), 2, { lo: 1, hi: 5, hiAt: 0 }, { lo: 3, hi: 5, hiAt: 0 }],
  ])('%s', (_, log, j, before, after) => {
    expect(limitAfterAcceptance(before, log, log[j], W)).toEqual(after);
  });

  it('more accepted in one window than a refusal allowed: the limit rose (or the refusal met another program), explore again', () => {
    const log = sequential(8);
    expect(limitAfterAcceptance({ lo: 5, hi: 6, hiAt: 0 }, log, log[7], W)).toEqual({ lo: 8, exploringSince: 80 });
  });
});

describe('limitAfterRefusal: a refused call proves L at most the calls that may have been in its window', () => {
  it.each<[string, CallLog, LimitEstimate, LimitEstimate]>([
    ['one call at a time: exactly the calls before it', [...sequential(60), no(60, 600, 610)], { lo: 60 }, { lo: 60, hi: 60, hiAt: 999 }],
    ['a call started in the millisecond of its answer may have been counted before it', [...sequential(59, 0, 1), ok(59, 60, 60), no(60, 60, 60)], { lo: 60 }, { lo: 60, hi: 60, hiAt: 999 }],
    ['calls in flight when it was refused may have been counted before it', [...sequential(58), { id: 58, at: 580 }, no(59, 585, 600)], { lo: 58 }, { lo: 58, hi: 59, hiAt: 999 }],
    ['refused calls count too (the provider counts them)', [...sequential(3), no(3, 30, 40), no(4, 50, 60)], {}, { lo: 0, hi: 4, hiAt: 999 }],
    ['calls answered more than W before it started have left', [ok(0, 0, 10), ok(1, 20, 30), no(2, W + 20, W + 30)], {}, { lo: 0, hi: 1, hiAt: 999 }],
    ['never raises an earlier limit, and keeps lo at most hi', [...sequential(9), no(9, 90, 100)], { lo: 8, hi: 7, hiAt: 0 }, { lo: 7, hi: 7, hiAt: 999 }],
  ])('%s', (_, log, before, after) => {
    expect(limitAfterRefusal(before, log, log[log.length - 1], W, 999)).toEqual(after);
  });

  it('none of ours in the window: another program fills it, and L is not learned from that', () => {
    const log: CallLog = [ok(0, 0, 10), no(1, W + 100, W + 110)];
    expect(limitAfterRefusal({ lo: 1 }, log, log[1], W, 999)).toEqual({ lo: 1 });
  });
});

describe('the limit paced at', () => {
  it('before a refusal none: one call at a time, one more for each whole window spent without a refusal, within the ceiling', () => {
    const est: LimitEstimate = { lo: 100, exploringSince: 1000 };
    expect(learnedLimit(est, W, 1000)).toBeUndefined();
    expect(explorers({}, W, 5000, 16)).toBe(1);
    expect(explorers(est, W, 1000 + W - 1, 16)).toBe(1);
    expect(explorers(est, W, 1000 + W, 16)).toBe(2);
    expect(explorers(est, W, 1000 + 5 * W, 16)).toBe(6);
    expect(explorers(est, W, 1000 + 50 * W, 16)).toBe(16);
  });

  it(`once refused, the learned limit and no explorer; after ${RELEARN_WINDOWS} windows, one more call is tried`, () => {
    const est: LimitEstimate = { lo: 60, hi: 60, hiAt: 1000 };
    expect(explorers(est, W, 1000, 16)).toBeUndefined();
    expect(learnedLimit(est, W, 1000 + RELEARN_WINDOWS * W - 1)).toBe(60);
    expect(learnedLimit(est, W, 1000 + RELEARN_WINDOWS * W)).toBe(61);
  });
});
