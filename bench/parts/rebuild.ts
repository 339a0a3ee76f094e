import { at, type BenchPart, type Line } from '../part.js';
import { rebuildRun, type RebuildFigures } from '../rebuild.js';
import { round } from '../round.js';

function shown(line: Line, r: RebuildFigures): void {
  line(`rebuild lawsuits/s (${r.lawsuits / 1000}k)`, r.lawsuitsPerSec, `${(r.ms / 1000).toFixed(1)} s, exit ${r.exitCode}: ${r.stageLine}`);
  line(`rebuild_peak_rss_mb (${r.lawsuits / 1000}k)`, r.peakRssMb, 'V8 heap 128 MB, DuckDB memory_limit 128MB');
}

/**
 * `lawsuit-etl rebuild` on 100k lawsuits (issue 12: "works in bounded memory on 100k lawsuits"), and on a tenth
 * of them so that the peak's growth with volume shows (1.0 is flat), when run alone (BENCH_ONLY=rebuild); in the
 * whole bench, once at 20k lawsuits beside the load (the 100k warehouse alone takes minutes to build), the
 * smaller run's figures then null.
 */
export const rebuildPart: BenchPart = {
  name: 'rebuild',
  keys: ['rebuild_lawsuits', 'rebuild_lawsuits_per_sec', 'rebuild_peak_rss_mb', 'rebuild_peak_rss_mb_small', 'rebuild_rss_growth', 'rebuild_load_lawsuits_per_sec'],
  async run(scale, line, alone) {
    const size = alone
      ? at(scale, { toy: [100, 300], quick: [2_000, 20_000], full: [10_000, 100_000] })
      : at(scale, { toy: [300], quick: [5_000], full: [20_000] });
    const small = size.length > 1 ? await rebuildRun(size[0]) : undefined;
    if (small) shown(line, small);
    const big = await rebuildRun(size[size.length - 1]);
    shown(line, big);
    if (small) line('rebuild rss growth', round(big.peakRssMb / small.peakRssMb), `x${round(big.lawsuits / small.lawsuits)} lawsuits`);
    line('load lawsuits/s (building it)', big.loadLawsuitsPerSec);
    return {
      rebuild_lawsuits: big.lawsuits, rebuild_lawsuits_per_sec: big.lawsuitsPerSec, rebuild_peak_rss_mb: big.peakRssMb,
      rebuild_peak_rss_mb_small: small?.peakRssMb ?? null, rebuild_rss_growth: small ? round(big.peakRssMb / small.peakRssMb) : null,
      rebuild_load_lawsuits_per_sec: big.loadLawsuitsPerSec,
    };
  },
};
