import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { DocumentSpec } from '../../src/input/documents.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { expectWholeAsTruth, fewSampled, movedOrBorn, portfolioOf, truthOf, type Truth } from '../support/ground-truth.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';

// Two levels, as the provider documents them (docs/two-levels.md), against the sandbox that speaks them: a search
// by document answers headers, a lawsuit_cnj search the whole lawsuit. After night 1 every lawsuit is whole and
// equal to the sandbox's ground truth (its steps as its last_step counts them, phase and status). A sandbox month
// later, night 2 equals the new day and buys lawsuit-level reads only for the lawsuits born or moved; a night
// with nothing changed buys none.

describe('a searches night in two levels', () => {
  const tmp = scratch();
  let sb: Sandbox;
  let docs: DocumentSpec[];
  let cfg: ReturnType<typeof configFor>;

  beforeAll(async () => {
    sb = await startSandbox({ seed: 7, rateLimit: 100_000 });
    const sample = fewSampled(sb);
    const csv = join(tmp.dir, 'documents.csv');
    docs = await portfolioOf(sb.url, csv, sample);
    cfg = configFor(sb.url, tmp.dir, { LAWSUIT_DOCUMENTS: csv, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' }, { force: true });
  }, 60_000);
  afterAll(async () => { await sb?.close(); tmp.cleanup(); });

  /** The instant of a night's last lawsuit-level read, on the provider's clock: what the night saw. */
  const lastReadAt = async (): Promise<Date> => {
    const [r] = await query<{ at: Date | null }>(cfg.warehouse, `SELECT max(coalesce(completed_at, created_at)) AS at FROM requests`);
    return r.at!;
  };
  const readsBought = async (runId: string): Promise<number> =>
    (await query<{ n: number }>(cfg.warehouse, `SELECT count(*)::INTEGER AS n FROM requests WHERE run_id = '${runId}' AND basis IS NOT NULL`))[0].n;

  let truth1: Truth;
  it('night 1: every lawsuit found is read whole and equals the ground truth', async () => {
    // in parts of 10 reads (1,000 outside tests): each part a sweep of its own, a number read once in all
    const s = await nightly(cfg, { readsPerPart: 10 });
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    const parts = countOf(s, 'lawsuits', 'parts');
    expect(parts).toBeGreaterThan(2);
    const [sweeps] = await query<{ n: number; done: number }>(cfg.warehouse, `SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE status = 'done')::INTEGER AS done
      FROM response_sweeps WHERE wave = 'lawsuits'`);
    expect(sweeps).toEqual({ n: parts, done: parts });
    truth1 = await truthOf(sb.url, docs, await lastReadAt());
    expect(truth1.lawsuits.length).toBeGreaterThan(20);
    await expectWholeAsTruth(cfg.warehouse, truth1);
    // every lawsuit a document found came as a header first: each read once, by its number
    const headers = truth1.lawsuits.filter((l) => !docs.some((d) => d.searchType === 'lawsuit_cnj' && d.searchKey === l.code));
    expect(countOf(s, 'lawsuits', 'read_new')).toBeGreaterThanOrEqual(headers.length);
    expect(await readsBought(s.runId)).toBe(new Set(headers.map((l) => l.code)).size);
  }, 240_000);

  let truth2: Truth;
  it('night 2, weeks later: equals the new day, with reads bought only for the lawsuits born or moved', async () => {
    sb.advanceDays(30);
    const s = await nightly(cfg);
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    truth2 = await truthOf(sb.url, docs, await lastReadAt());
    await expectWholeAsTruth(cfg.warehouse, truth2);
    const moved = movedOrBorn(truth1, truth2);
    expect(moved.size, 'a month makes lawsuits move and others be born in the sandbox').toBeGreaterThan(0);
    expect(await readsBought(s.runId)).toBe(moved.size);
  }, 240_000);

  it('night 3, nothing changed: the documents searched again, no lawsuit read', async () => {
    const s = await nightly(cfg);
    expect(s.status, JSON.stringify(s.failures)).toBe('ok');
    const truth3 = await truthOf(sb.url, docs);
    expect(countOf(s, 'search', 'submitted')).toBe(docs.length);
    expect(await readsBought(s.runId)).toBe(movedOrBorn(truth2, truth3).size);
    expect(movedOrBorn(truth2, truth3).size).toBe(0);
    await expectWholeAsTruth(cfg.warehouse, truth3);
  }, 240_000);
});
