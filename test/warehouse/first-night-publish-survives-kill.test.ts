import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDocuments } from '../../src/input/documents.js';
import { scratch } from '../support/pipeline.js';
import { apiEnv, killedAndResumed, runCli, runFiles, sandboxProcess, warehouseFingerprint, type SandboxProcess } from '../support/cli.js';

// The first night of a warehouse, killed with SIGKILL at each step of its publish, and started again: the
// next run opens what the killed one left (no "Failure while replaying WAL"), finishes, and ends with the
// warehouse of an uninterrupted run, every search bought once. Before catalog changes were checkpointed as
// they were made, the kill after the comments left them in the WAL and the work copy never opened again.

const POINTS = ['publish.after-checkpoint=1', 'publish.after-comments=1', 'publish.before-rename=1', 'publish.after-rename=1'];

describe('a kill while the first night publishes', () => {
  let sb: SandboxProcess;
  const tmp = scratch();
  const documents = join(tmp.dir, 'documents.csv');
  beforeAll(async () => {
    sb = await sandboxProcess(['--rate-limit', '100000']);
    writeFileSync(documents, readFileSync('config/documents.example.csv', 'utf8').split('\n').slice(0, 9).join('\n'));
  });
  afterAll(async () => { await sb.stop(); tmp.cleanup(); });

  // The publish is the subject, not what is read: the searches' headers only (LAWSUIT_DETAIL=header), so that
  // every search bought is one of the list's (the lawsuit level's kills are resume-after-crash's), and no transfer
  // stage (its files were 2 of each run's 7 s, nine runs here; a kill after it is resume-after-crash's).
  const paths = (name: string) => ({ LAWSUIT_DOCUMENTS: documents, LAWSUIT_DETAIL: 'header', LAWSUIT_SKIP_TRANSFER: '1', ...runFiles(tmp.dir, name) });

  it('leaves a warehouse the next run opens, finishes and publishes, buying nothing twice', async () => {
    const docs = (await readDocuments(documents)).documents.length;
    const reference = runCli(['run'], apiEnv(sb.url, paths('reference')));
    expect(reference.status, reference.stderr).toBe(0);
    const want = await warehouseFingerprint(paths('reference').LAWSUIT_WAREHOUSE);

    for (const point of POINTS) {
      const { env, resumed, searches } = await killedAndResumed(point, paths(point.replace(/[^a-z0-9]/g, '_')));
      expect(resumed.stderr, point).not.toMatch(/replaying WAL/);
      expect(searches, point).toBe(docs);
      expect(await warehouseFingerprint(env.LAWSUIT_WAREHOUSE), point).toEqual(want);
      expect(existsSync(`${env.LAWSUIT_WAREHOUSE}.work`), point).toBe(false);
    }
  }, 400_000);
});
