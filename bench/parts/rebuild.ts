import { at, type BenchPart, type Line } from '../part.js';
import { rebuildRun, type RebuildFigures } from '../rebuild.js';
import { round } from '../round.js';

function shown(line: Line, r: RebuildFigures): void {
  line(`rebuild lawsuits/s (${r.lawsuits / 1000}k)`, r.lawsuitsPerSec, `${(r.ms / 1000).toFixed(1)} s, exit ${r.exitCode}: ${r.stageLine}`);
  line(`rebuild_peak_rss_mb (${r.lawsuits / 1000}k)`, r.peakRssMb, 'V8 heap 128 MB, DuckDB memory_limit 128MB');
}

/**
 * `lawsuit-etl rebuild` on 100k lawsuits (issue 12: "works in bounded memory on 100k lawsuits"), and on a tenth
 * of them so that the peak's growth with volume shows (1.0 is flat).
 */
export const rebuildPart: BenchPart = {
  name: 'rebuild',
  keys: ['rebuild_lawsuits', 'rebuild_lawsuits_per_sec', 'rebuild_peak_rss_mb', 'rebuild_peak_rss_mb_small', 'rebuild_rss_growth', 'rebuild_load_lawsuits_per_sec'],
  async run(scale, line) {
    const size = at(scale, { toy: [200, 600], quick: [2_000, 20_000], full: [10_000, 100_000] });
    const small = await rebuildRun(size[0]);
    shown(line, small);
    const big = await rebuildRun(size[1]);
    shown(line, big);
    line('rebuild rss growth', round(big.peakRssMb / small.peakRssMb), `x${round(big.lawsuits / small.lawsuits)} lawsuits`);
    line('load lawsuits/s (building it)', big.loadLawsuitsPerSec);
    return {
      rebuild_lawsuits: big.lawsuits, rebuild_lawsuits_per_sec: big.lawsuitsPerSec, rebuild_peak_rss_mb: big.peakRssMb,
      rebuild_peak_rss_mb_small: small.peakRssMb, rebuild_rss_growth: round(big.peakRssMb / small.peakRssMb),
      rebuild_load_lawsuits_per_sec: big.loadLawsuitsPerSec,
    };
  },
};
