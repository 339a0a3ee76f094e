import { expect, it } from 'vitest';
import { parseResponsesPage } from '../../src/api/responses.js';
import { alignedSize, PageSizer } from '../../src/pipeline/page-size.js';

// Pages of a few MB whatever the items weigh (src/pipeline/page-size.ts).

const page = (n: number, bytes: number) => parseResponsesPage(`{"page":1,"page_data":[${Array.from({ length: n }, (_, i) =>
  `{"response_id":"r${i}","request_id":"q","response_type":"lawsuit","created_at":"2024-01-01T00:00:00Z","response_data":{"pad":"${'x'.repeat(bytes)}"}}`).join(',')}]}`).items;

it('stays at the configured size for ordinary items, shrinks at once for large ones, grows back by doubling', () => {
  const s = new PageSizer({ max: 100, targetBytes: 4_000_000 });
  expect(s.size()).toBe(100);
  s.measured(page(100, 3_000));
  expect(s.size()).toBe(100);
  s.measured(page(10, 1_000_000));
  expect(s.size()).toBe(3);
  s.measured(page(3, 100));
  expect(s.size()).toBe(6);
  s.measured(page(6, 100));
  expect(s.size()).toBe(12);
  expect(new PageSizer({ max: 20, targetBytes: 4e6 }).size()).toBe(20);
});

it('asks for one item after a refused page, and says when even one was refused', () => {
  const s = new PageSizer({ max: 100, targetBytes: 4_000_000 });
  expect(s.refused(100)).toBe(true);
  expect(s.size()).toBe(1);
  expect(s.refused(1)).toBe(false);
  s.measured(page(1, 2_600_000));
  expect(s.size()).toBe(1);
});

it('asks at item offsets for a size that divides them, so that no page re-reads what came before', () => {
  // Any size, any offset: the page asked for starts at the offset (or, once, before it: then it ends on a
  // multiple of the size asked, and the next is aligned), and is never under half the size wanted.
  for (let size = 1; size <= 1000; size += 37) {
    for (const offset of [0, 1, 500, 689, 1000, 1378, 2250, 7919, 10_007]) {
      const d = alignedSize(size, offset);
      expect(d).toBeLessThanOrEqual(size);
      if (d !== size) expect(offset % d).toBe(0);
      if (offset % d !== 0) {
        expect(d).toBe(size);
        const end = (Math.floor(offset / d) + 1) * d;
        expect(alignedSize(size, end)).toBe(size);
      }
      expect(d * 2).toBeGreaterThanOrEqual(size);
    }
  }
  expect(alignedSize(689, 1000)).toBe(500);
  expect(alignedSize(784, 1500)).toBe(750);
  expect(alignedSize(955, 2250)).toBe(750);
});
