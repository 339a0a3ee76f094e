import { expect, it } from 'vitest';
import { uuidOf } from '../../src/sandbox/random.js';

// Response ids are the warehouse's key for what the provider sent (responses_raw): two responses must never
// share one. 300,000 ids of 3,000 requests of 100 responses each: when every id came from one 32-bit chain, 338
// of them met; from four chains, none.
it('300,000 response ids of 3,000 requests are all different', () => {
  const seen = new Set<string>();
  for (let r = 0; r < 3_000; r++) {
    const label = `response:${uuidOf(7, `request:boot-a:${r}`)}`;
    for (let n = 0; n < 100; n++) seen.add(uuidOf(7, label, n));
  }
  expect(seen.size).toBe(300_000);
});
