import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDocuments } from '../../../src/input/documents.js';
import { query, scratch } from '../../support/pipeline.js';
import { apiEnv, killedAndResumed, purchases, runCli, runFiles, sandboxProcess, warehouseFingerprint, type SandboxProcess } from '../../support/cli.js';

// A run killed with SIGKILL at any point and started again must finish the work with the same warehouse as
// an uninterrupted run, and must never submit a search twice (counted by the sandbox itself). The points reach
// both waves of a night in two levels: the list's searches (headers), then the lawsuit-level reads of every
// lawsuit they found (killed after the headers, among the reads' submissions, among their pages). Responses are
// read by the sweep across requests: killed after reading a page it had not committed, or after a commit, the
// next run resumes the sweep from the cursor in the ledger. `collect.after-commit=N` dies after the commit
// that carries the Nth page (a night here is about 330 responses, half of them lawsuit-level reads), not the Nth group
// commit, whose number depends on timing.

/**
 * The suite of resume-after-crash.test.ts over `points(docs)` (the kill points, given the list's valid documents):
 * split in two files so that they run side by side.
 */
export function describeResume(name: string, points: (docs: number) => string[], again: boolean, level: 'whole' | 'header' = 'whole'): void {
  describe(`resume after SIGKILL (${name})`, () => {
    let sb: SandboxProcess;
    const tmp = scratch();
    const documents = join(tmp.dir, 'documents.csv');
    beforeAll(async () => {
      sb = await sandboxProcess(['--rate-limit', '100000']);
      // the example list's first 20 lines and its last 6: every search type, and bad lines too
      writeFileSync(documents, readFileSync('config/documents.example.csv', 'utf8').split('\n').slice(0, 20).concat(readFileSync('config/documents.example.csv', 'utf8').split('\n').slice(-6)).join('\n'));
    });
    afterAll(async () => { await sb.stop(); tmp.cleanup(); });

    it('ends with the warehouse of an uninterrupted run and buys every request once', async () => {
      const docs = (await readDocuments(documents)).documents.length;
      // Pages of 100 (pinned): the points count pages, and a night here is about 330 responses; at the header level
      // (the documents' wave alone) about 165, in pages of 50.
      const headers = level === 'header';
      const paths = (name: string) => ({
        LAWSUIT_DOCUMENTS: documents, LAWSUIT_PAGE_SIZE: headers ? '50' : '100', ...(headers ? { LAWSUIT_DETAIL: 'header' } : {}), ...runFiles(tmp.dir, name),
      });

      const reference = runCli(['run'], apiEnv(sb.url, paths('reference')));
      expect(reference.status, reference.stderr).toBe(0);

      const want = await warehouseFingerprint(paths('reference').LAWSUIT_WAREHOUSE);
      const bought = await purchases(paths('reference').LAWSUIT_WAREHOUSE);
      if (!headers) expect(bought.reads, 'the night reads lawsuits whole').toBeGreaterThan(10);
      for (const point of points(docs)) {
        const { env, resumed, searches } = await killedAndResumed(point, paths(point.replace(/[^a-z0-9]/g, '_')));
        // every document and every lawsuit-level read submitted exactly once across the killed and the resumed run
        const p = await purchases(env.LAWSUIT_WAREHOUSE);
        expect(p, point).toEqual({ searches: docs, reads: bought.reads, readNumbers: bought.reads });
        expect(searches, point).toBe(docs + bought.reads);
        expect(await warehouseFingerprint(env.LAWSUIT_WAREHOUSE), point).toEqual(want);
        if (point.startsWith('submit.after-post')) expect(resumed.stdout, point).toMatch(/ [1-9]\d* adopted after a crash/);
        if (point.startsWith('sweep.') || point.startsWith('collect.')) {
          // the sweep read the night across the kill: one sweep a wave, finished, and most requests read by it
          const [s] = await query<{ sweeps: number; done: number; swept: number }>(env.LAWSUIT_WAREHOUSE, `SELECT (SELECT count(*) FROM response_sweeps) AS sweeps,
            (SELECT count(*) FROM response_sweeps WHERE status = 'done') AS done, (SELECT count(*) FROM requests WHERE strategy = 'sweep' AND loaded_at IS NOT NULL) AS swept`);
          const waves = headers ? 1 : 2;
          expect(s, point).toMatchObject({ sweeps: waves, done: waves });
          expect(s.swept, point).toBeGreaterThan((docs + bought.reads) / 2);
        }
      }

      if (!again) return;
      const rerun = runCli(['run'], apiEnv(sb.url, paths('reference')));
      expect(rerun.status).toBe(0);
      expect(rerun.stdout).toMatch(/\d+ fresh \(skipped\), 0 searched/);
    }, 400_000);
  });
}
