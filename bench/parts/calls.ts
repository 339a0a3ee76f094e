import { callsRun, type CallsFigures } from '../calls.js';
import { companyDocuments, individualDocuments, ordinaryMix, universeArgs, withUniverse } from '../documents.js';
import type { BenchPart } from '../part.js';
import { ranToItsEnd } from '../pipeline-run.js';

// Calls against the floor on four mixes, each read by the sweep and per request, in the same run: ordinary
// documents (of every search type, up to 2,000 lawsuits each), a portfolio of individuals (zero to three lawsuits
// each), the same portfolio on a night where no document finds anything (1,000 CPFs: the proof that the night is
// empty once cost a call per request, 2,153 calls against a floor of some 1,010), and a few companies with
// thousands. The sandbox appends responses court by court (300 ms a court), so the sweep reads while they arrive.
// BENCH_MIX=a,b runs only those mixes.

const MIXES = ['ordinary', 'individuals', 'individuals-empty', 'companies'] as const;
type Mix = (typeof MIXES)[number];

const SIZES = {
  toy: { universe: 20_000, ordinary: 6, individuals: 6, empty: 6, companies: 1, companyMin: 20, companyMax: 100, courtDelayMs: 20, mixes: ['companies'] as Mix[] },
  // quick: companies of 1,000 to 5,000 lawsuits (three of 1,000 or more found 43,485, and the part took 438 of
  // BENCH_QUICK's 20 minutes, most of it their spec-dialect night at pages of 100)
  quick: { universe: 1_000_000, ordinary: 100, individuals: 100, empty: 300, companies: 3, companyMin: 1000, companyMax: 5000, courtDelayMs: 300, mixes: [...MIXES] },
  full: { universe: 1_000_000, ordinary: 300, individuals: 300, empty: 1_000, companies: 5, companyMin: 1000, companyMax: Infinity, courtDelayMs: 300, mixes: [...MIXES] },
};

/** The documented dialect (the sandbox's default) both ways of reading; the spec's reading by the sweep, the strategy in force. */
const RUNS = [['documented', 'sweep'], ['documented', 'per-request'], ['spec', 'sweep']] as const;

const key = (what: string, mix: string, suffix = '') => `${what}_${mix.replace(/-/g, '_')}${suffix}`;

export const callsPart: BenchPart = {
  name: 'calls',
  keys: MIXES.flatMap((m) => [key('calls_vs_floor', m), key('calls_vs_floor', m, '_per_request'), key('calls_vs_floor', m, '_spec'),
    key('documents_per_key_day', m), key('documents_per_key_day', m, '_per_request')]),
  async run(scale, line) {
    const size = SIZES[scale];
    const chosen = process.env.BENCH_MIX ? new Set(process.env.BENCH_MIX.split(',')) : new Set<string>(size.mixes);
    const mixes = await withUniverse(size.universe, (sb) => MIXES.filter((m) => chosen.has(m)).map((name) => ({
      name,
      csv: name === 'ordinary' ? ordinaryMix(sb, size.ordinary)
        : name === 'individuals' ? individualDocuments(sb, size.individuals).csv
          : name === 'individuals-empty' ? individualDocuments(sb, size.empty, size.empty).csv
            : companyDocuments(sb, size.companies, size.companyMin, size.companyMax).csv,
    })));
    const sandboxArgs = [...universeArgs(size.universe), '--rate-limit', '1000000', '--court-delay-ms', String(size.courtDelayMs)];
    const figures: CallsFigures[] = [];
    for (const mix of mixes) {
      for (const [dialect, strategy] of RUNS) {
        const f = await callsRun(mix.name, mix.csv, strategy, sandboxArgs, dialect);
        if (!ranToItsEnd(f.exitCode)) throw new Error(`the ${mix.name} night (${strategy}, ${dialect}) exited ${f.exitCode}`);
        figures.push(f);
        const label = `${mix.name} (${strategy}${dialect === 'spec' ? ', spec' : ''})`;
        line(`calls_vs_floor ${label}`, f.callsVsFloor,
          `${f.calls} calls for ${f.documents} documents (floor ${f.floor}: ${f.submissions} submissions, ${f.floorPages} pages (of ${f.pageSize} or 4 MB) `
          + `for ${f.responses} responses of ${(f.responseBytes / 1e6).toFixed(1)} M characters, ${f.polls} polls; read ${f.listingCalls}, probe ${f.probeCalls}), exit ${f.exitCode}`);
        line(`documents_per_key_day ${label}`, f.documentsPerKeyDay);
      }
    }
    // Every key, NaN (null in the JSON) for a mix left out by BENCH_MIX.
    const of = (mix: string, strategy: string, dialect = 'documented') => figures.find((f) => f.mix === mix && f.strategy === strategy && f.dialect === dialect);
    const out: Record<string, number | null> = {};
    for (const m of MIXES) {
      out[key('calls_vs_floor', m)] = of(m, 'sweep')?.callsVsFloor ?? null;
      out[key('calls_vs_floor', m, '_per_request')] = of(m, 'per-request')?.callsVsFloor ?? null;
      out[key('calls_vs_floor', m, '_spec')] = of(m, 'sweep', 'spec')?.callsVsFloor ?? null;
      out[key('documents_per_key_day', m)] = of(m, 'sweep')?.documentsPerKeyDay ?? null;
      out[key('documents_per_key_day', m, '_per_request')] = of(m, 'per-request')?.documentsPerKeyDay ?? null;
    }
    return out;
  },
};
