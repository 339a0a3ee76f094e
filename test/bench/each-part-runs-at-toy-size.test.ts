import { describe, expect, test } from 'vitest';
import { PARTS } from '../../bench/parts/index.js';

// Every part of `npm run bench` run at toy size (bench/part.ts: a small universe, a few documents, a night or
// two), so that a change that breaks a part (a client expecting 200 where the documented dialect answers 201
// stopped the whole bench at its sixth part once) fails here, not in the next person's hour-long bench. What is
// checked is that the part runs to its figures: every key it promises is in its JSON, a number where it measured
// one. The figures' values at toy size mean nothing; `npm run bench` measures them.

const isFigure = (v: unknown): boolean => v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))
  || (Array.isArray(v) && v.every(isFigure)) || (typeof v === 'object' && Object.values(v as object).every(isFigure));

describe('each part of the bench, at toy size', () => {
  test('the parts have distinct names and distinct figures', () => {
    expect(new Set(PARTS.map((p) => p.name)).size).toBe(PARTS.length);
    const keys = PARTS.flatMap((p) => p.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });

  // Side by side: each part spends most of its time waiting on a sandbox of its own (one after the other they took
  // 125 s of the suite, side by side about half).
  for (const part of PARTS) {
    test.concurrent(`${part.name} runs to its figures`, async () => {
      const lines: string[] = [];
      const figures = await part.run('toy', (k, v, note = '') => lines.push(`${k} ${v} ${note}`));
      expect(lines.length).toBeGreaterThan(0);
      expect(Object.keys(figures).sort()).toEqual([...part.keys].sort());
      for (const [k, v] of Object.entries(figures)) expect(isFigure(v), `${k} = ${JSON.stringify(v)}`).toBe(true);
      // Something was measured (a part may leave out what its toy size skips: the calls part runs one mix of four).
      expect(Object.values(figures).some((v) => v !== null)).toBe(true);
    });
  }
});
