import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { sampledForEmptiness } from '../../src/pipeline/sweep/empty-checks.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';
import { cpfs } from '../support/documents.js';

// The sweep trusts a listing only once a page has shown one of our responses; before that, a request it would
// call complete with no response could be a listing that answers nothing, and is checked on its own listing.
// Checking every one made a night where no document finds anything cost twice its floor (1,000 empty CPFs:
// 2,153 calls against some 1,010). The check is now a sample: the first few, then the powers of two.

/** The empty requests checked before the powers of two (docs/operating.md: "the first three such requests"). */
const EMPTY_CHECKS_FIRST = 3;

describe('the proof that a night found nothing', () => {
  it('checks the first few empty requests and then the powers of two: at most 3 + log2(n) for n', () => {
    let checked = 0;
    for (let n = 1; n <= 100_000; n++) {
      if (sampledForEmptiness(n)) checked++;
      if ([1, 3, 10, 64, 1_000, 100_000].includes(n)) expect(checked, `${n} empty requests`).toBeLessThanOrEqual(EMPTY_CHECKS_FIRST + Math.floor(Math.log2(n)));
    }
    expect([1, 2, 3, 4, 5, 7, 8, 9, 16, 1024].map(sampledForEmptiness)).toEqual([true, true, true, true, false, false, true, false, true, true]);
  });

  describe('a night of 64 CPFs that find nothing, read by the sweep', () => {
    let sb: Sandbox;
    const tmp = scratch();
    beforeAll(async () => { sb = await startSandbox({ seed: 8, courtDelayMs: 0 }); });
    afterAll(async () => { await sb.close(); tmp.cleanup(); });

    it('costs its submissions, its polls, its pages and a handful of checks, not a check per request', async () => {
      const empty = cpfs(400).filter((k) => sb.truth({ search_type: 'cpf', search_key: k }).length === 0).slice(0, 64);
      expect(empty).toHaveLength(64);
      const list = join(tmp.dir, 'empty.csv');
      writeFileSync(list, `search_key,search_type\n${empty.map((k) => `${k},cpf`).join('\n')}\n`);
      const cfg = configFor(sb.url, tmp.dir, { LAWSUIT_DOCUMENTS: list, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' });
      const s = await nightly(cfg);
      expect(s.status).toBe('ok');
      expect(countOf(s, 'search', 'completed')).toBe(64);
      expect(countOf(s, 'search', 'per_request')).toBe(0);
      // the sweep's calls that were not pages of the listing across requests are the checks
      const checks = countOf(s, 'search', 'sweep_calls') - countOf(s, 'search', 'sweep_pages');
      expect(checks).toBeGreaterThan(0);
      expect(checks).toBeLessThanOrEqual(EMPTY_CHECKS_FIRST + Math.log2(64));
      const [{ loaded }] = await query<{ loaded: number }>(cfg.warehouse, 'SELECT count(*)::INTEGER AS loaded FROM requests WHERE loaded_at IS NOT NULL AND items_loaded = 0');
      expect(loaded).toBe(64);
    }, 60_000);
  });
});
