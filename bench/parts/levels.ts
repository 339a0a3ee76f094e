import { companyDocuments, individualDocuments, universeArgs, withUniverse } from '../documents.js';
import { levelsNights, type LevelsFigures } from '../levels.js';
import { at, type BenchPart } from '../part.js';

/** The searches of a documents CSV the bench wrote (bench/documents.ts: search_key,search_type, keys unquoted). */
const searchesOf = (csv: string) => csv.trim().split('\n').slice(1).map((l) => {
  const [search_key, search_type] = l.split(',');
  return { search_key, search_type };
});

/**
 * The two levels over five nights (issue 32): the tracked portfolio of individuals and five companies, each read
 * by both sources with every lawsuit kept whole. Goals: `lawsuit_reads_per_moved_lawsuit` ≤ 1.05 (reads bought on
 * nights 2-5 over the lawsuits born or moved in them, the most of the four runs) and a later night's calls within
 * 1.1 × (lawsuits moved and born + the listing floor): `levels_later_calls_vs_floor`, the most of the four.
 */
export const levelsPart: BenchPart = {
  name: 'levels',
  keys: ['lawsuit_reads_per_moved_lawsuit', 'levels_later_calls_vs_floor', 'levels_calls_by_night'],
  async run(scale, line) {
    const size = at(scale, {
      // toy: no company (one of the toy universe finds 500 lawsuits: a night 1 of a minute), both sources all the same
      toy: { universe: 20_000, individuals: 3, companies: 0, min: 20, max: 0, nights: 2 },
      // quick: three companies of 200 to 1,000 lawsuits (three of 200 or more found 6,766 lawsuits between them, whose
      // night 1 alone took 290 s: BENCH_QUICK is to run whole in under 20 minutes)
      quick: { universe: 200_000, individuals: 300, companies: 3, min: 200, max: 1_000, nights: 5 },
      // full: five companies of 1,000 to 3,000 lawsuits (10,615 between them). Unbounded, the five first of 1,000 or
      // more held 73,941, each read whole at the lawsuit level on night 1, one search each: seven hours of a key's calls
      // at 180 a minute, and hours of the bench (a request costs the run some 34 ms of CPU: night 1 of the 10,000
      // individuals, 21,246 requests, took 726 CPU s). The calls against the floor do not grow with a company's size.
      full: { universe: 1_000_000, individuals: 10_000, companies: 5, min: 1_000, max: 3_000, nights: 5 },
    });
    const portfolios = await withUniverse(size.universe, (sb) => ({
      individuals: individualDocuments(sb, size.individuals).csv, ...(size.companies > 0 ? { companies: companyDocuments(sb, size.companies, size.min, size.max).csv } : {}),
    }));
    const runs: Array<{ name: string; figures: LevelsFigures }> = [];
    for (const [portfolio, csv] of Object.entries(portfolios)) {
      for (const source of ['searches', 'trackings'] as const) {
        const name = `${portfolio}/${source}`;
        const figures = await levelsNights(csv, searchesOf(csv), source, [...universeArgs(size.universe), '--rate-limit', '1000000'], (n) => {
          line(`levels ${name} night ${n.night}`, n.calls, `${n.reads} lawsuit-level reads for ${n.movedOrBorn} born or moved; ${n.searches} searches, `
            + `${n.responses} responses, floor ${n.movedOrBorn + n.listingFloor}${n.callsVsFloor === null ? '' : ` (${n.callsVsFloor}×)`}; `
            + `${(n.ms / 1000).toFixed(0)} s (${n.cpuS} CPU s), exit ${n.exitCode}; ${Object.entries(n.byRoute).map(([k, v]) => `${k} ${v}`).join(', ')}`);
        }, size.nights);
        runs.push({ name, figures });
      }
    }
    const reads = Math.max(...runs.map((r) => r.figures.readsPerMovedLawsuit));
    const calls = Math.max(...runs.map((r) => r.figures.laterCallsVsFloor));
    line('lawsuit_reads_per_moved_lawsuit', reads, `goal ≤ 1.05; ${runs.map((r) => `${r.name} ${r.figures.readsPerMovedLawsuit}`).join(', ')}`);
    line('levels_later_calls_vs_floor', calls, `goal ≤ 1.1; ${runs.map((r) => `${r.name} ${r.figures.laterCallsVsFloor}`).join(', ')}`);
    return {
      lawsuit_reads_per_moved_lawsuit: reads, levels_later_calls_vs_floor: calls,
      levels_calls_by_night: Object.fromEntries(runs.map((r) => [r.name, r.figures.nights.map((n) => n.calls)])),
    };
  },
};
