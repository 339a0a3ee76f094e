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
// that carries the Nth page (counted over both waves, at the page size each suite pins), not the Nth group
// commit, whose number depends on timing.

/** The night a suite kills: how deep it reads, how much of the example list, at what page size (pinned: the points count pages). */
export interface ResumeNight {
  level: 'whole' | 'header';
  /** The example list's first `head` lines of documents, then its last 6 (bad lines, a duplicate, one finding nothing). */
  head: number;
  pageSize: number;
}

/**
 * The suite of resume-after-crash.test.ts over `points(docs)` (the kill points, given the list's valid documents):
 * split in two files so that they run side by side.
 */
export function describeResume(name: string, points: (docs: number) => string[], again: boolean, night: ResumeNight): void {
  const { level, head, pageSize } = night;
  describe(`resume after SIGKILL (${name})`, () => {
    let sb: SandboxProcess;
    const tmp = scratch();
    const documents = join(tmp.dir, 'documents.csv');
    beforeAll(async () => {
      sb = await sandboxProcess(['--rate-limit', '100000']);
      // the example list's first lines and its last 6: every search type, and bad lines too
      const lines = readFileSync('config/documents.example.csv', 'utf8').split('\n');
      writeFileSync(documents, lines.slice(0, head + 1).concat(lines.slice(-6)).join('\n'));
    });
    afterAll(async () => { await sb.stop(); tmp.cleanup(); });

    it('ends with the warehouse of an uninterrupted run and buys every request once', async () => {
      const docs = (await readDocuments(documents)).documents.length;
      const headers = level === 'header';
      // The transfer stage only where a point kills it (its files were 2 s of each run's 7; the fingerprint leaves
      // the transfer tables out, so the reference needs none).
      const paths = (name: string, transfer = false) => ({
        LAWSUIT_DOCUMENTS: documents, LAWSUIT_PAGE_SIZE: String(pageSize), ...(headers ? { LAWSUIT_DETAIL: 'header' } : {}), ...runFiles(tmp.dir, name),
        LAWSUIT_SKIP_TRANSFER: transfer ? 'false' : 'true',
      });

      const reference = runCli(['run'], apiEnv(sb.url, paths('reference')));
      expect(reference.status, reference.stderr).toBe(0);

      const want = await warehouseFingerprint(paths('reference').LAWSUIT_WAREHOUSE);
      const bought = await purchases(paths('reference').LAWSUIT_WAREHOUSE);
      if (!headers) expect(bought.reads, 'the night reads lawsuits whole').toBeGreaterThan(10);
      for (const point of points(docs)) {
        const { env, resumed, searches } = await killedAndResumed(point, paths(point.replace(/[^a-z0-9]/g, '_'), point.startsWith('transfer.')));
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
