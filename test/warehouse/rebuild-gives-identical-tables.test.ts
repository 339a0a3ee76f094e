import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { DERIVED_TABLES } from '../../src/warehouse/rebuild.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { apiEnv, runCli } from '../support/cli.js';
import { configFor, nightly, query, scratch } from '../support/pipeline.js';

// `lawsuit-etl rebuild` derives every table that comes from response payloads again from responses_raw, without
// a single API call: on a warehouse made by two nights over data that moved (so that change detection has a
// history to replay), with the API addresses pointing nowhere, every derived table comes out equal.

/** Columns stamped with the moment a row was written, not derived from the payload. */
const STAMPS: Record<string, string[]> = { lawsuits: ['loaded_at'], search_hits: ['first_seen_at'], load_problems: ['detected_at'] };

async function tables(path: string): Promise<Record<string, string[]>> {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    const out: Record<string, string[]> = {};
    for (const t of [...DERIVED_TABLES, 'raw_parts']) {
      const exclude = STAMPS[t] ? ` EXCLUDE (${STAMPS[t].join(', ')})` : '';
      const rows = await wh.all<{ r: string }>(`SELECT CAST(to_json(x) AS VARCHAR) AS r FROM (SELECT *${exclude} FROM ${t}) x`);
      out[t] = rows.map((row) => row.r).sort();
    }
    return out;
  } finally {
    await wh.close();
  }
}

describe('rebuild from responses_raw', () => {
  let sb: Sandbox;
  const tmp = scratch();
  const path = join(tmp.dir, 'warehouse.duckdb');
  beforeAll(async () => {
    // two nights back to back would otherwise wait out the key's rate window between them
    sb = await startSandbox({ seed: 3, rateLimit: 100_000 });
    const cfg = configFor(sb.url, tmp.dir, { LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' }, { force: true });
    expect((await nightly(cfg)).status).toBe('ok');
    sb.advanceDays(200);
    expect((await nightly(cfg)).status).toBe('ok');
  }, 240_000);
  afterAll(async () => { await sb.close(); tmp.cleanup(); });

  it('gives the same tables, with no API call and the addresses pointing nowhere', async () => {
    const before = await tables(path);
    expect(before.lawsuits.length).toBeGreaterThan(100);
    expect(before.lawsuit_changes.length).toBeGreaterThan(before.lawsuits.length); // new lawsuits and changes of the second night
    expect(before.change_detections).toHaveLength(2);
    const size = statSync(path).size;
    const nowhere = 'http://127.0.0.1:9';
    const env = apiEnv(nowhere, { LAWSUIT_WAREHOUSE: path, LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports') });
    const res = runCli(['rebuild'], env);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toMatch(/rebuild\s+ok\s+\d+ response items of 2 runs replayed/);
    expect(res.stdout).toMatch(/api calls\s+0 /);
    const after = await tables(path);
    for (const t of Object.keys(before)) expect(after[t], t).toEqual(before[t]);
    // the emptied tables' space is used again, not added to the file: three rebuilds leave it about the size it
    // was (0.99 times; 1.57 times when the deletes were not checkpointed before the replay)
    for (let i = 0; i < 2; i++) expect(runCli(['rebuild'], env).status).toBe(0);
    expect(statSync(path).size / size).toBeLessThan(1.2);
  });

  it('killed half way, publishes nothing; the next run of any command does it again first, then its own stages', async () => {
    const before = await tables(path);
    const env = apiEnv(sb.url, { LAWSUIT_WAREHOUSE: path, LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'), LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' });
    const killed = runCli(['rebuild'], { ...env, LAWSUIT_FAILPOINTS: 'rebuild.after-chunk=1' });
    expect(killed.signal, killed.stdout + killed.stderr).toBe('SIGKILL');
    // the analysts' file is untouched: the half-made tables are in the work copy only
    expect(await tables(path)).toEqual(before);
    const [{ n }] = await query<{ n: number }>(`${path}.work`, 'SELECT count(*)::INTEGER AS n FROM lawsuits');
    expect(n).toBeLessThan(before.lawsuits.length);

    // the next run of another command (here a nightly run: nothing is due, every document was searched tonight)
    // rebuilds first, then runs its own stages on whole tables
    const next = runCli(['run'], env);
    expect(next.status, next.stdout + next.stderr).toBe(0);
    expect(next.stderr).toMatch(/rebuild that did not finish: it is done again first/);
    expect(next.stdout).toMatch(/rebuild\s+ok\s+\d+ response items of 2 runs replayed/);
    expect(next.stdout).toMatch(/changes\s+ok\s+none/);
    const after = await tables(path);
    // its own detection (no change found) adds its row and stamps each search's state with its run
    const OWN = ['change_detections', 'search_state'];
    for (const t of Object.keys(before).filter((t) => !OWN.includes(t))) expect(after[t], t).toEqual(before[t]);
    expect(after.change_detections).toEqual(expect.arrayContaining(before.change_detections));
    expect(after.change_detections).toHaveLength(before.change_detections.length + 1);
    expect(after.search_state).toHaveLength(before.search_state.length);
  });
});
