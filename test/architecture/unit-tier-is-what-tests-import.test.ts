import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { projectRoot } from './import-graph.js';
import { readRuntimeImports, unitTests, whatTestsReach } from './test-tiers.js';

// `npm run test:unit` runs the tests that load no sandbox, no DuckDB, no child process, no socket and no browser,
// decided from what each test imports (test-tiers.ts), so that the tier stays fast without anyone filing tests.

describe('the unit tier of this project', () => {
  const unit = new Set(unitTests(projectRoot()));

  test('holds the pure cores\' tests and this one, and leaves out those of the sandbox, DuckDB and child processes', () => {
    for (const pure of [
      'test/architecture/unit-tier-is-what-tests-import.test.ts',
      'test/api/rate-limit-on-a-fake-clock.test.ts',
      'test/pipeline/outcome.test.ts',
      'test/pipeline/sweep-cursor-reads-each-response-once.test.ts',
      'test/shared/failure-policy.test.ts',
    ]) expect(unit, pure).toContain(pure);
    for (const impure of [
      'test/sandbox/rate-limit.test.ts',
      'test/warehouse/load-merges-idempotently.test.ts',
      'test/cli/npm-start.test.ts',
      'test/report/html-report-in-chromium.test.ts',
      'test/e2e/ground-truth.test.ts',
    ]) expect(unit, impure).not.toContain(impure);
  });
});

describe('the tier\'s reading of imports', () => {
  test('counts what a test loads through anything it imports, and not imports of types alone', () => {
    const graph = new Map<string, string[]>([
      ['test/a.test.ts', ['src/pure.ts', 'vitest']],
      ['test/b.test.ts', ['test/support/db.ts']],
      ['test/c.test.ts', ['src/runs.ts']],
      ['test/d.test.ts', ['src/sandbox/server.ts', 'child_process']],
      ['test/support/db.ts', ['@duckdb/node-api']],
      ['src/pure.ts', []],
      ['src/runs.ts', ['src/pure.ts', 'http']],
    ]);
    expect(Object.fromEntries(whatTestsReach(graph))).toEqual({
      'test/a.test.ts': [],
      'test/b.test.ts': ['DuckDB'],
      'test/c.test.ts': ['a socket'],
      'test/d.test.ts': ['a child process', 'the sandbox'],
    });
  });

  test('reads imports of types alone as loading nothing, and `node:` modules, re-exports and dynamic imports as loading', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tiers-'));
    try {
      mkdirSync(join(dir, 'test'));
      writeFileSync(join(dir, 'test', 't.test.ts'), [
        "import type { A } from './a.js';",
        "import { type B } from './b.js';",
        "import { c, type C } from './c.js';",
        "export type { D } from './d.js';",
        "export * from '../src/e.js';",
        "import 'node:child_process';",
        "const f = async () => import('./f.js');",
      ].join('\n'));
      expect(readRuntimeImports(dir, ['test'])).toEqual(new Map([['test/t.test.ts', ['child_process', 'src/e.ts', 'test/c.ts', 'test/f.ts']]]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
