import { afterAll, describe, expect, it } from 'vitest';
import { query, scratch } from '../support/pipeline.js';
import { runCli, runFiles } from '../support/cli.js';

// The contract lists `true-false` among the synchronous queries beside `exists`; the spec shows one endpoint
// for both (POST /requests/create, answering has_lawsuits). `--kind true-false` runs that query into the same
// table, so the history view compares its nights with those of `--kind exists`.

describe('query --kind true-false', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...runFiles(tmp.dir, 'w') };

  it('is the exists query: same answers, same table, one history', async () => {
    const named = runCli(['query', '--kind', 'true-false', '--sandbox'], env);
    expect(named.status, named.stderr).toBe(0);
    expect(named.stdout).toMatch(/query\s+ok\s+46 documents, 46 answered/);
    const exists = runCli(['query', '--kind', 'exists', '--sandbox'], env);
    expect(exists.status, exists.stderr).toBe(0);

    const perRun = await query<{ runs: number; rows: number; differ: number }>(env.LAWSUIT_WAREHOUSE, `
      SELECT count(DISTINCT run_id)::INTEGER AS runs, count(*)::INTEGER AS rows,
             count(*) FILTER (WHERE changed)::INTEGER AS differ FROM v_sync_exists_history`);
    expect(perRun).toEqual([{ runs: 2, rows: 92, differ: 0 }]);
    const others = await query<{ n: number }>(env.LAWSUIT_WAREHOUSE, `SELECT (SELECT count(*) FROM sync_counts) + (SELECT count(*) FROM sync_grouped) + (SELECT count(*) FROM sync_historical) AS n`);
    expect(Number(others[0].n)).toBe(0);
  });
});
