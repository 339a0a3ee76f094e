import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDocuments } from '../../../src/input/documents.js';
import { scratch } from '../../support/pipeline.js';
import { apiEnv, counters, runCli, runFiles, sandboxProcess, warehouseFingerprint, type SandboxProcess } from '../../support/cli.js';

// Every fault switch of the sandbox at once: 5xx, resets before and after processing, slow and truncated
// answers, 429 storms, requests that stay pending long or end cancelled, POSTs stored then answered 500, and
// another client sharing the key (the lagging requests listing, stale_listing, has tests of its own: each request
// it hides costs a minute before it is asked for alone). Responses are read by the sweep across requests. The run must end with the same warehouse as a clean run, without paying twice for a search, and
// without a single response of the other client's requests.

const FAULTS = '5xx=0.05,reset=0.03,reset_after=0.03,slow=0.05:400,truncate=0.03,storm=0.04:1500,pending_long=0.2:1500,cancel=0.1,post_after_store=0.1,'
  + 'foreign=0.2:500,no_rate_headers=0.3';

// In the provider's documented dialect and in the spec's reading alike (docs/dialect-and-spec-gaps.md, "The provider's dialect").
/**
 * The suite of faults.test.ts in one dialect: the provider's documented one (faults.test.ts) and the spec's reading
 * (faults-in-the-spec-dialect.test.ts), side by side.
 */
export function describeEveryFault(dialect: 'documented' | 'spec'): void {
  describe(`a run with every fault switched on, in the ${dialect} dialect`, () => {
    let clean: SandboxProcess;
    let faulty: SandboxProcess;
    const tmp = scratch();
    const documents = join(tmp.dir, 'documents.csv');
    beforeAll(async () => {
      const args = ['--rate-limit', '100000', '--dialect', dialect];
      [clean, faulty] = await Promise.all([sandboxProcess(args), sandboxProcess([...args, '--faults', FAULTS])]);
      const lines = readFileSync('config/documents.example.csv', 'utf8').split('\n');
      // 20 lines: 19 documents and some 155 lawsuit-level reads, calls enough for every fault to happen
      writeFileSync(documents, lines.slice(0, 20).join('\n'));
    });
    afterAll(async () => { await Promise.all([clean.stop(), faulty.stop()]); tmp.cleanup(); });

    it('ends with the warehouse of a clean run', async () => {
      const paths = (name: string) => ({ LAWSUIT_DOCUMENTS: documents, ...runFiles(tmp.dir, name), LAWSUIT_SKIP_TRANSFER: 'true' });
      const a = runCli(['run'], apiEnv(clean.url, paths('clean')));
      expect(a.status, a.stderr).toBe(0);
      const b = runCli(['run'], apiEnv(faulty.url, paths('faulty')));
      expect(b.status, b.stdout + b.stderr).toBe(0);

      const seen = await counters(faulty.url);
      const statuses = Object.values(seen.by_endpoint).flatMap((s) => Object.keys(s));
      // the faults really happened
      expect(statuses).toContain('reset');
      expect(statuses.some((s) => /^5\d\d$/.test(s))).toBe(true);
      expect(statuses).toContain('429');
      expect(await warehouseFingerprint(paths('faulty').LAWSUIT_WAREHOUSE)).toEqual(await warehouseFingerprint(paths('clean').LAWSUIT_WAREHOUSE));

      // no search paid twice: a request created twice for one document would show as two requests of one search
      const docs = (await readDocuments(documents)).documents.length;
      const { Warehouse } = await import('../../../src/warehouse/warehouse.js');
      const wh = await Warehouse.open(paths('faulty').LAWSUIT_WAREHOUSE, { readOnly: true });
      const [r] = await wh.all<{ searches: number; live: number; reads: number; readNumbers: number }>(`SELECT
        count(DISTINCT search_type || search_key) FILTER (WHERE basis IS NULL) AS searches,
        count(*) FILTER (WHERE status <> 'cancelled' AND basis IS NULL) AS live,
        count(*) FILTER (WHERE status <> 'cancelled' AND basis IS NOT NULL) AS reads,
        count(DISTINCT search_key) FILTER (WHERE basis IS NOT NULL) AS "readNumbers" FROM requests`);
      const [f] = await wh.all<{ foreign: number; skipped: number; sweeps: string }>(`SELECT
        (SELECT count(*) FROM responses_raw WHERE request_id NOT IN (SELECT request_id FROM requests)) AS foreign,
        (SELECT sum(items_skipped) FROM response_sweeps) AS skipped, (SELECT string_agg(status, ',') FROM response_sweeps) AS sweeps`);
      await wh.close();
      expect(r.searches).toBe(docs);
      expect(r.live).toBe(docs);
      // the lawsuit level too: each number read once (a cancelled read is bought again, the lost one not counted)
      if (dialect === 'documented') expect(r.reads).toBeGreaterThan(0);
      expect(r.reads).toBe(r.readNumbers);
      // the other client's responses were in the listing, and none of them reached the warehouse (the sweep may
      // have left the rest of the night to per-request reading if they made it costlier: `switched`); a sweep per
      // wave (the searches', the lawsuit-level reads')
      expect(f.sweeps).toMatch(/^(done|switched)(,(done|switched))?$/);
      expect(f.skipped).toBeGreaterThan(0);
      expect(f.foreign).toBe(0);
    }, 400_000);
  });
}
