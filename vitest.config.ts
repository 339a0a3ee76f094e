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
    // Three on two cores: most integration files wait on sandboxes and child processes, not the CPU (two took 14
    // minutes of wall for 21 of test time, 2026-11-28).
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'unit', include: unit } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: unit } },
    ],
  },
});
