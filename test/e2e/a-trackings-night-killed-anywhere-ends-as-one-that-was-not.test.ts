import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, scratch } from '../support/pipeline.js';
import { apiEnv, CLI, runFiles, sandboxProcess, warehouseFingerprint, type SandboxProcess } from '../support/cli.js';
import { apiOf, boughtBy, smallPortfolio } from '../support/trackings.js';

// A trackings night killed (SIGKILL) during each of its steps, then run again, ends as the same night never
// killed: the same trackings of both kinds at the provider (none made twice, the same paused), the same searches
// and lawsuit-level reads bought (none twice) and the same warehouse. Each scenario has a key of its own on one
// sandbox child, beside `kref`, the night never killed; the kills of the reading of the runs are in
// a-trackings-night-reads-what-changed.test.ts.
// - night 1 (20 new documents, their lawsuits read whole, then each number tracked on its own): killed after the
//   documents' trackings were made and before they were recorded; between the reconciliation and the searches;
//   after 5 of the 20 searches were bought; among the lawsuit-level reads; between the reads and the lawsuits'
//   trackings; among the lawsuits' trackings' creations (after a batch of 50 recorded, the next sent and not);
// - night 2 (2 documents dropped, 2 added): killed after the creations and the pauses (the dropped documents'
//   trackings and those of the lawsuits only they found) were sent and before they were recorded.

let FIRST = '';
let SECOND = '';

/** A key's trackings at the provider, as search and status, lawsuits' and documents': what two keys' nights must agree on. */
async function trackingsOf(url: string, key: string): Promise<string[]> {
  const api = apiOf(url, key);
  try {
    return (await api.tracking.all()).map((t) => `${t.search?.search_type}:${t.search?.search_key}:${t.status}`).sort();
  } finally {
    await api.close();
  }
}

/** `run` in a child process, not blocking this one: the scenarios' nights run side by side, each on its own key. */
function run(env: Record<string, string>): Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('exit', (status, signal) => resolve({ status, signal, stderr: stderr.slice(-4000) }));
  });
}

describe('a trackings night killed anywhere', () => {
  let sb: SandboxProcess;
  const tmp = scratch();
  const documents = join(tmp.dir, 'documents.csv');
  const env = (key: string, extra: Record<string, string> = {}) => apiEnv(sb.url, {
    LAWSUIT_DOCUMENTS: documents, LAWSUIT_API_KEY: key, LAWSUIT_SOURCE: 'trackings', LAWSUIT_SKIP_TRANSFER: '1',
    LAWSUIT_SKIP_EXPORT: '1', LAWSUIT_ALLOW_PAUSE: 'true', ...runFiles(tmp.dir, key), ...extra,
  });
  /** The night on `key`, killed at `point` first when one is given; what it bought. */
  const night = async (key: string, point?: string): Promise<number> => {
    const before = await boughtBy(sb.url, key);
    if (point) {
      const killed = await run(env(key, { LAWSUIT_FAILPOINTS: point }));
      expect(killed.signal, `${point} should have killed the run: ${killed.stderr}`).toBe('SIGKILL');
    }
    const again = await run(env(key));
    expect(again.status, `${point ?? key}: ${again.stderr}`).toBe(0);
    return (await boughtBy(sb.url, key)) - before;
  };
  const same = async (key: string, what: string, boughtByKey: number, boughtByRef: number) => {
    expect(boughtByKey, `${what}: searches and lawsuit-level reads bought`).toBe(boughtByRef);
    expect(await trackingsOf(sb.url, key), `${what}: trackings`).toEqual(await trackingsOf(sb.url, 'kref'));
    expect(await warehouseFingerprint(env(key).LAWSUIT_WAREHOUSE), `${what}: warehouse`).toEqual(await warehouseFingerprint(env('kref').LAWSUIT_WAREHOUSE));
  };

  beforeAll(async () => {
    sb = await sandboxProcess(['--rate-limit', '100000', ...['kref', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'].flatMap((k) => ['--api-key', k])]);
    const lines = await smallPortfolio(sb.url, 22, { max: 10 });
    FIRST = [lines[0], ...lines.slice(1, 21)].join('\n');
    SECOND = [lines[0], ...lines.slice(3, 23)].join('\n');
  });
  afterAll(async () => { await sb.stop(); tmp.cleanup(); });

  it('makes no tracking twice, buys nothing twice, and ends with the warehouse of a night never killed', async () => {
    writeFileSync(documents, FIRST);
    const ref1 = await night('kref');
    // 20 searches, then a lawsuit-level read of each number they found, then a tracking of each
    const [made] = await query<{ reads: number; lawsuits: number }>(env('kref').LAWSUIT_WAREHOUSE, `SELECT
        (SELECT count(*) FROM requests WHERE basis IS NOT NULL)::INTEGER AS reads,
        (SELECT count(*) FROM tracking_checks WHERE kind = 'lawsuit' AND outcome = 'created')::INTEGER AS lawsuits`);
    expect(ref1).toBe(20 + made.reads);
    expect(made.lawsuits, 'more numbers than a batch of creations, so that a kill falls among them').toBeGreaterThan(50);
    const scenarios = [
      ['k1', 'reconcile.after-calls=1'], ['k2', 'stage.after-trackings'], ['k3', 'submit.after-post=5'], ['k5', 'submit.after-post=25'],
      ['k6', 'stage.after-lawsuits'], ['k7', 'lawsuit-trackings.after-calls=51'], ['k4', undefined],
    ] as const;
    const boughtBy1 = await Promise.all(scenarios.map(([key, point]) => night(key, point)));
    for (const [i, [key, point]] of scenarios.entries()) await same(key, `night 1, ${point ?? 'never killed'}`, boughtBy1[i], ref1);

    await fetch(`${sb.url}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_days: 1 + 2 / 24 }) });
    writeFileSync(documents, SECOND);
    const ref2 = await night('kref');
    expect(ref2).toBe(await boughtBy(sb.url, 'kref') - ref1);
    const [paused] = await query<{ n: number }>(env('kref').LAWSUIT_WAREHOUSE,
      `SELECT count(*)::INTEGER AS n FROM tracking_checks WHERE kind = 'lawsuit' AND outcome = 'paused'`);
    expect(paused.n, 'the dropped documents\' lawsuits found by no other have their trackings paused').toBeGreaterThan(0);
    expect(ref2).toBeGreaterThanOrEqual(2);
    // the creations and pauses go out in one batch: the 3rd call counted is past the 2 creations, among the pauses
    await same('k4', 'night 2, reconcile.after-calls=3', await night('k4', 'reconcile.after-calls=3'), ref2);
  }, 400_000);
});
