import { expect, test } from 'vitest';
import { benchLoad, makeBenchItem } from '../../bench/load.js';

// The speed ratio depends on the machine; what this checks is that both sides load the same rows, so that
// the figures `npm run bench` prints compare like with like.
test('the loader and DuckDB read_json load the same rows from the same pages', async () => {
  const r = await benchLoad(120, makeBenchItem, { batchSize: 50, repeats: 1 });
  expect(r.ours.rows).toEqual(r.duckdb.rows);
  expect(r.ours.rows).toMatchObject({ lawsuits: 120, parties: 480, lawyers: 960, steps: 3000, responses_raw: 120 });
  expect(r.ours.lawsuitsPerSec).toBeGreaterThan(0);
  expect(r.duckdb.lawsuitsPerSec).toBeGreaterThan(0);
  expect(r.ours.cpuMs).toBeGreaterThan(0);
  expect(r.ratio).toBeCloseTo(r.ours.lawsuitsPerSec / r.duckdb.lawsuitsPerSec, 1);
});
