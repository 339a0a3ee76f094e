import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratch } from '../support/pipeline.js';
import { apiEnv, runCli, runFiles, sandboxProcess, warehouseFingerprint, type SandboxProcess } from '../support/cli.js';

// The work copy is cloned from the published warehouse at the start of a run. Written straight to
// `<warehouse>.work` and killed after 9 of 30 MB, it left a file DuckDB could not read ("IO Error: Could not read
// enough bytes … [WAREHOUSE_OPEN]"), which the damaged-file recovery did not recognise: every later run exited 1.
// Now the clone is written under a temporary name and renamed when whole, and a work copy DuckDB cannot open is
// set aside for a fresh clone whatever DuckDB's words for the damage.

describe('a kill while the work copy is cloned', () => {
  let sb: SandboxProcess;
  const tmp = scratch();
  const documents = join(tmp.dir, 'documents.csv');
  let env: Record<string, string>;
  let published: string;
  beforeAll(async () => {
    sb = await sandboxProcess(['--rate-limit', '100000']);
    writeFileSync(documents, readFileSync('config/documents.example.csv', 'utf8').split('\n').slice(0, 9).join('\n'));
    env = apiEnv(sb.url, { LAWSUIT_DOCUMENTS: documents, LAWSUIT_SKIP_EXPORT: 'true', ...runFiles(tmp.dir, 'w') });
    published = env.LAWSUIT_WAREHOUSE;
    const first = runCli(['run'], env);
    expect(first.status, first.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => { await sb.stop(); tmp.cleanup(); });

  it('leaves no work copy, only a temporary file the next run removes before it clones again', async () => {
    const want = await warehouseFingerprint(published);
    const killed = runCli(['run', '--force'], { ...env, LAWSUIT_FAILPOINTS: 'work-copy.before-rename=1' });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(existsSync(`${published}.work`)).toBe(false);
    expect(existsSync(`${published}.work.partial`)).toBe(true);
    const next = runCli(['run'], env);
    expect(next.status, next.stderr).toBe(0);
    expect(next.stderr).not.toMatch(/carrying on in the work copy/);
    expect(readdirSync(tmp.dir).filter((f) => f.includes('.partial') || f.includes('.broken-'))).toEqual([]);
    expect(await warehouseFingerprint(published)).toEqual(want);
  }, 120_000);

  it('sets aside a work copy cut short (what a kill mid-clone used to leave) and starts again from the published warehouse', async () => {
    const want = await warehouseFingerprint(published);
    // `head -c <half> w.duckdb > w.duckdb.work`
    copyFileSync(published, `${published}.work`);
    truncateSync(`${published}.work`, Math.floor(statSync(published).size / 2));
    const next = runCli(['run'], env);
    expect(next.status, next.stdout + next.stderr).toBe(0);
    expect(next.stderr).toMatch(/the work copy could not be read at all; starting again from the published warehouse/);
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith('w.duckdb.work.broken-'))).toHaveLength(1);
    expect(existsSync(`${published}.work`)).toBe(false);
    expect(await warehouseFingerprint(published)).toEqual(want);
  }, 120_000);
});
