// The universe is a pure function of the seed, and a million lawsuits cost no more memory than a thousand.
import { describe, expect, test, vi } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { Universe } from '../../src/sandbox/universe.js';
import { call, NOW, runSearch } from './helpers.js';

const LAWSUITS = 1_000_000;

describe('determinism and scale', () => {
  test('same seed and boot id, same lawsuits and ids; another seed, another universe; another boot, other ids', async () => {
    const t = Date.parse(NOW);
    const a = new Universe({ seed: 5, lawsuits: 3000 });
    const b = new Universe({ seed: 5, lawsuits: 3000 });
    const c = new Universe({ seed: 6, lawsuits: 3000 });
    for (const i of [0, 1, 17, 999, 2999]) expect(JSON.stringify(a.lawsuit(i, t))).toBe(JSON.stringify(b.lawsuit(i, t)));
    expect(a.plan(17).code).not.toBe(c.plan(17).code);
    const ids = async (bootId?: string) => {
      const s = await startSandbox({ seed: 5, lawsuits: 3000, now: NOW, bootId, dialect: 'spec' });
      const [d] = s.sampleDocuments(5);
      const r = await runSearch(s, { search_type: d.search_type, search_key: d.search_key });
      const tracking = await call(s, 'POST', '/tracking', { recurrence: 1, search: { search_type: d.search_type, search_key: d.search_key } });
      const sync = await call(s, 'POST', '/lawsuits', { search: { search_type: d.search_type, search_key: d.search_key } });
      await s.close();
      return [r.request.request_id, ...r.items.map((i) => i.response_id), tracking.body.tracking_id, sync.body.request_id];
    };
    const pinned = await ids('fixed');
    expect(await ids('fixed')).toEqual(pinned);
    // Unpinned, every boot has its own ids: a restarted sandbox never gives an id a client already holds.
    const [first, second] = [await ids(), await ids()];
    expect(first.length).toBe(pinned.length);
    for (const id of first) expect(second).not.toContain(id);
    for (const id of first) expect(pinned).not.toContain(id);
  });

  test('a 1,000,000-lawsuit universe answers document searches from the document\'s own lawsuits, without materialising lawsuits', async () => {
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const sb = await startSandbox({ lawsuits: LAWSUITS, seed: 3, now: NOW, dialect: 'spec' });
    try {
      // What a search costs is the plans it draws: two or three for each lawsuit of the document (its case's other
      // instance, the twin it verifies), never a walk over the universe. Counted, not timed: the largest sampled
      // document, the Município de São Paulo's 27,312 lawsuits (66,106 plans), takes 2 s alone and twice that on a
      // loaded machine.
      const plans = vi.spyOn(sb.universe.planner, 'plan');
      const samples = sb.sampleDocuments(20);
      for (const s of samples.filter((x) => x.search_type === 'cpf' || x.search_type === 'cnpj' || x.search_type === 'oab').slice(0, 6)) {
        plans.mockClear();
        const post = await call(sb, 'POST', '/requests', { search: { search_type: s.search_type, search_key: s.search_key } });
        const page = await call(sb, 'GET', `/responses?request_id=${post.body.request_id}&page_size=100`);
        expect(page.body.all_count).toBeGreaterThan(0);
        expect(plans.mock.calls.length, `${s.search_type} ${s.search_key}`).toBeLessThan(LAWSUITS / 10);
      }
      plans.mockRestore();
      const codes = samples.filter((x) => x.search_type === 'lawsuit_cnj');
      for (const s of codes) expect(sb.truth({ search_type: 'lawsuit_cnj', search_key: s.search_key }).length).toBeGreaterThan(0);
      const grown = process.memoryUsage().heapUsed - before;
      expect(grown).toBeLessThan(150 * 1024 * 1024);
    } finally {
      await sb.close();
    }
  });
});
