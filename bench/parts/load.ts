import { benchLoad, benchMerge } from '../load.js';
import { at, type BenchPart } from '../part.js';

/** The load of a first night beside DuckDB's own read_json of the same pages, and the merge of a second night. */
export const loadPart: BenchPart = {
  name: 'load',
  keys: ['load_lawsuits_per_sec', 'load_vs_duckdb', 'load_merge_lawsuits_per_sec'],
  async run(scale, line) {
    const n = at(scale, { toy: 300, quick: 5_000, full: 20_000 });
    const repeats = scale === 'toy' ? 1 : undefined;
    const load = await benchLoad(n, undefined, { repeats });
    line('load lawsuits/s (ours)', Math.round(load.ours.lawsuitsPerSec));
    line('load lawsuits/s (read_json)', Math.round(load.duckdb.lawsuitsPerSec));
    line('load_vs_duckdb', load.ratio);
    const merge = await benchMerge(n, repeats);
    line('load_merge lawsuits/s (second night)', merge.lawsuitsPerSec, `${merge.lawsuits} lawsuits merged in ${(merge.ms / 1000).toFixed(1)} s`);
    return { load_lawsuits_per_sec: Math.round(load.ours.lawsuitsPerSec), load_vs_duckdb: load.ratio, load_merge_lawsuits_per_sec: merge.lawsuitsPerSec };
  },
};
