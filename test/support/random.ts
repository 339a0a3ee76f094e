import { Rng } from '../../src/sandbox/random.js';

/**
 * A deterministic pseudo-random source for property tests (the sandbox's mulberry32): a failing case is replayed
 * from its seed. Values in [0, 1).
 */
export function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}
