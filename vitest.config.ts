import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { unitTests } from './test/architecture/test-tiers.js';

// Two tiers (test/architecture/test-tiers.ts says which test is which, by what it imports):
//   npm run test:unit   the `unit` project: pure cores, no sandbox, no DuckDB, no child process, no socket
//   npm test            both projects, as CI runs it
const unit = unitTests(fileURLToPath(new URL('.', import.meta.url)));

export default defineConfig({
  test: {
    testTimeout: 240_000,
    hookTimeout: 240_000,
    pool: 'forks',
    // A worker runs its files one after the other in one module registry: the sources are imported once a worker,
    // not once a file (import 202 s of the suite's summed time, 33 s so; the unit tier 23 s → 13 s, 2026-11-28).
    // No test may leave state behind for the next file: fake clocks are restored after each (useRealTimers), a
    // test's servers, sandboxes and warehouses are closed in its afterAll, and what runs with a failpoint or an
    // environment of its own runs in a child process.
    isolate: false,
    // Three on two cores: most integration files wait on sandboxes and child processes, not the CPU (two took 14
    // minutes of wall for 21 of test time, 2026-11-28).
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'unit', include: unit } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: unit } },
    ],
  },
});
