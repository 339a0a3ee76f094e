import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { scratch } from '../support/pipeline.js';
import { apiEnv, counters, runCli, sandboxProcess, type SandboxProcess } from '../support/cli.js';

describe('lawsuit-etl run --dry-run', () => {
  let sb: SandboxProcess;
  const tmp = scratch();
  beforeAll(async () => { sb = await sandboxProcess(); });
  afterAll(async () => { await sb.stop(); tmp.cleanup(); });

  it('prints the plan and its cost, and sends nothing', async () => {
    const res = runCli(['run', '--dry-run'], apiEnv(sb.url, { LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb') }));
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/to search\s+46 documents \(.*\d+ cpf.*\), 7 of them on_demand/);
    expect(res.stdout).toMatch(/rejected\s+4 lines/);
    expect(res.stdout).toMatch(/line 48: CPF check digits do not match/);
    expect(res.stdout).toMatch(/cost\s+at least \d+ API calls/);
    expect((await counters(sb.url)).total).toBe(0);
    expect(existsSync(join(tmp.dir, 'w.duckdb'))).toBe(false);
    expect(existsSync(join(tmp.dir, 'w.duckdb.work'))).toBe(false);
  });
});
