import { documentsFinding, universeArgs, withUniverse } from '../documents.js';
import { at, type BenchPart, type Line } from '../part.js';
import { pipelineRun, ranToItsEnd, type RunFigures } from '../pipeline-run.js';
import { round } from '../round.js';

// A whole night in a child process under the production memory budget, at 10k and 100k lawsuits of big litigants:
// its peak RSS at each (flat with volume: `rss_growth` is the ratio), its speed end to end, and its own CPU
// (process CPU seconds, DuckDB's threads included, the sandbox's not: it runs in a process of its own) per
// 100,000 lawsuits, the pipeline's cost apart from the provider's. BENCH_QUICK=1 runs the 10k night only.

const SIZES = {
  toy: { universe: 20_000, min: 20, small: 60, big: 150 as number | null },
  quick: { universe: 1_000_000, min: 200, small: 10_000, big: null },
  full: { universe: 1_000_000, min: 200, small: 10_000, big: 100_000 },
};

function shown(line: Line, key: string, r: RunFigures): void {
  line(key, r.peakRssMb, `${r.lawsuits} lawsuits in ${(r.ms / 1000).toFixed(0)} s (${r.cpuS} CPU s), exit ${r.exitCode}`);
  if (!ranToItsEnd(r.exitCode)) throw new Error(`the night of ${r.lawsuits} lawsuits exited ${r.exitCode}`);
}

/** CPU seconds per 100,000 lawsuits of a night. */
const per100k = (r: RunFigures): number => round((r.cpuS / r.lawsuits) * 100_000, 1);

export const memoryPart: BenchPart = {
  name: 'memory',
  keys: ['rss_mb_10k', 'rss_mb_100k', 'rss_growth', 'end_to_end_lawsuits_per_sec', 'cpu_s_per_100k_lawsuits', 'cpu_s_per_100k_lawsuits_10k'],
  async run(scale, line) {
    const size = at(scale, SIZES);
    const [small, big] = await withUniverse(size.universe, (sb) => [
      documentsFinding(sb, size.small, size.min), size.big === null ? undefined : documentsFinding(sb, size.big, size.min)]);
    const sandboxArgs = [...universeArgs(size.universe), '--rate-limit', '1000000'];
    const r10 = await pipelineRun({ csv: small!.csv, sandboxArgs });
    shown(line, 'rss_mb_10k', r10);
    line('cpu_s_per_100k_lawsuits (10k)', per100k(r10), `${r10.cpuS} CPU s for ${r10.lawsuits} lawsuits`);
    if (!big) {
      return { rss_mb_10k: r10.peakRssMb, rss_mb_100k: null, rss_growth: null, end_to_end_lawsuits_per_sec: Math.round(r10.lawsuits / (r10.ms / 1000)),
        cpu_s_per_100k_lawsuits: per100k(r10), cpu_s_per_100k_lawsuits_10k: per100k(r10) };
    }
    const r100 = await pipelineRun({ csv: big.csv, sandboxArgs });
    shown(line, 'rss_mb_100k', r100);
    const endToEnd = Math.round(r100.lawsuits / (r100.ms / 1000));
    line('end-to-end lawsuits/s at 100k', endToEnd);
    line('cpu_s_per_100k_lawsuits', per100k(r100), `${r100.cpuS} CPU s for ${r100.lawsuits} lawsuits`);
    // "not growing with volume": ten times the lawsuits should cost next to no more memory (1.0 is flat)
    line('rss growth, 10k -> 100k', round(r100.peakRssMb / r10.peakRssMb), `x${round(r100.lawsuits / r10.lawsuits)} lawsuits`);
    return {
      rss_mb_10k: r10.peakRssMb, rss_mb_100k: r100.peakRssMb, rss_growth: round(r100.peakRssMb / r10.peakRssMb), end_to_end_lawsuits_per_sec: endToEnd,
      cpu_s_per_100k_lawsuits: per100k(r100), cpu_s_per_100k_lawsuits_10k: per100k(r10),
    };
  },
};
