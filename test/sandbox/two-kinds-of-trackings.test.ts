// Two kinds of trackings in two levels (tracking/run-content.ts), as properties over seeds, on the tracked search
// itself (no HTTP: tracking-run-content.test.ts runs them through the API): a document's tracking announces only
// the lawsuits born to its search since its previous run, and never a known lawsuit that moved; a lawsuit's
// tracking (lawsuit_cnj) sends each instance of its number whenever it moved, and nothing when it did not. The
// oracle runs the search at both instants and compares what it finds (search.ts), never the tracked search's
// bookkeeping.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { changedLawsuits } from '../../src/sandbox/changes.js';
import { runSearch } from '../../src/sandbox/search.js';
import { validateSearchBody, type NormalizedSearch } from '../../src/sandbox/search-validation.js';
import { TrackedSearch } from '../../src/sandbox/tracking/tracked-search.js';
import { Universe } from '../../src/sandbox/universe.js';
import { NOW } from './helpers.js';

const DAY = 86_400_000;
const DAYS = 14;
const START = Date.parse(NOW);

const searchOf = (search_type: string, search_key: string): NormalizedSearch => {
  const v = validateSearchBody({ search: { search_type, search_key } });
  if (!v.ok) throw new Error(v.reasons.join('; '));
  return v.search;
};

/** Documents of the lawsuits born (`new`) or moved (`steps`) in the window, and lawsuit numbers that moved. */
function searchesOf(u: Universe): { born: NormalizedSearch[]; moved: NormalizedSearch[]; numbers: NormalizedSearch[] } {
  const { changed } = changedLawsuits(u, START, START + DAYS * DAY);
  // Parties of up to a hundred lawsuits: the big litigants' searches would cost seconds a run here, to the same end.
  const docsOf = (kind: string, n: number) => {
    const out = new Map<string, NormalizedSearch>();
    for (const c of changed.filter((x) => x.change === kind)) {
      for (const q of u.parties(c.index)) {
        if (out.size < n && q.documentType !== 'OAB' && !out.has(q.document) && u.lawsuitsOfDocument(q.document).length <= 100) {
          out.set(q.document, searchOf(q.documentType.toLowerCase(), q.document));
        }
      }
    }
    return [...out.values()];
  };
  const numbers = [...new Set(changed.filter((c) => c.change === 'steps').map((c) => u.plan(c.index).code))].map((code) => searchOf('lawsuit_cnj', code));
  return { born: docsOf('new', 8), moved: docsOf('steps', 6), numbers: numbers.slice(0, 12) };
}

/** What a search finds at `at`: each lawsuit's key and how many steps the search's view shows of it. */
const seen = (u: Universe, s: NormalizedSearch, at: number) => new Map(runSearch(u, s, at).map((h) => [`${h.code}#${h.instance}`, u.observe(h.index, at, s.onDemand)!.steps.length]));
const keysOf = (u: Universe, sent: Array<{ index: number }>) => sent.map(({ index }) => `${u.plan(index).code}#${u.plan(index).instance}`);
/** Daily runs, an hour past the start of each day as a tracking's would be. */
const instants = Array.from({ length: DAYS + 1 }, (_, k) => START + k * DAY + 3_600_000);

describe('two kinds of trackings, over seeds', () => {
  test('a document\'s tracking sends every lawsuit on its first run, then only the lawsuits born to its search', () => {
    let born = 0;
    let movedUnsent = 0;
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
      const u = new Universe({ seed, lawsuits: 12_000 });
      const { born: b, moved } = searchesOf(u);
      for (const s of [...b, ...moved]) {
        const tracked = new TrackedSearch(u, s, 'two');
        let before = seen(u, s, instants[0]);
        expect(keysOf(u, tracked.run(instants[0], 'born'))).toEqual([...before.keys()]);
        for (let k = 1; k < instants.length; k++) {
          const now = seen(u, s, instants[k]);
          const sent = keysOf(u, tracked.run(instants[k], 'born'));
          expect(sent, `${s.type} ${s.key}, run ${k}`).toEqual([...now.keys()].filter((key) => !before.has(key)));
          born += sent.length;
          // Known lawsuits that moved between the two runs are not sent again.
          movedUnsent += [...now].filter(([key, n]) => before.has(key) && before.get(key) !== n).length;
          before = now;
        }
      }
    }), { numRuns: 3 });
    expect(born).toBeGreaterThan(5);
    expect(movedUnsent).toBeGreaterThan(5);
  });

  test('a lawsuit\'s tracking sends its instances whole on its first run and each one whenever it moved, most recent first', () => {
    let moves = 0;
    let quiet = 0;
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
      const u = new Universe({ seed, lawsuits: 12_000 });
      for (const s of searchesOf(u).numbers) {
        const tracked = new TrackedSearch(u, s, 'two');
        const first = tracked.run(instants[0], 'changed');
        expect(keysOf(u, first).sort()).toEqual([...seen(u, s, instants[0]).keys()].sort());
        const order = first.map(({ index }) => u.plan(index).instance);
        expect(order).toEqual([...order].sort((a, b) => b - a));
        let before = seen(u, s, instants[0]);
        for (let k = 1; k < instants.length; k++) {
          const now = seen(u, s, instants[k]);
          const want = [...now].filter(([key, n]) => before.get(key) !== n).map(([key]) => key);
          const sent = keysOf(u, tracked.run(instants[k], 'changed'));
          expect(sent.sort(), `${s.key}, run ${k}`).toEqual(want.sort());
          if (sent.length > 0) moves++; else quiet++;
          before = now;
        }
      }
    }), { numRuns: 3 });
    expect(moves).toBeGreaterThan(10);
    expect(quiet).toBeGreaterThan(moves);
  });
});
