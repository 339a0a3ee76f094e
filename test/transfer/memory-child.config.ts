import { defineConfig } from 'vitest/config';

// Runs only memory-child.ts, in its own process, for big-file-memory.test.ts.
export default defineConfig({
  test: { include: ['test/transfer/memory-child.ts'], testTimeout: 300_000, pool: 'forks', maxWorkers: 1 },
});
