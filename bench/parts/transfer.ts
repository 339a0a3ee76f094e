import { at, type BenchPart } from '../part.js';
import { ranToItsEnd } from '../pipeline-run.js';
import { transferRun } from '../transfer-run.js';

/** `lawsuit-etl transfer` of one big CSV transfer file: streamed to staging and loaded by DuckDB, never held. */
export const transferPart: BenchPart = {
  name: 'transfer',
  keys: ['transfer_rss_mb', 'transfer_file_mb'],
  async run(scale, line) {
    const tr = await transferRun(at(scale, { toy: 2, quick: 100, full: 300 }));
    line(`transfer_rss_mb (${tr.fileMb} MB csv)`, tr.peakRssMb, `${tr.loadedRows} of ${tr.rows} rows in ${(tr.ms / 1000).toFixed(0)} s, exit ${tr.exitCode}`);
    if (!ranToItsEnd(tr.exitCode) || tr.loadedRows !== tr.rows) throw new Error(`lawsuit-etl transfer exited ${tr.exitCode} having loaded ${tr.loadedRows} of ${tr.rows} rows`);
    return { transfer_rss_mb: tr.peakRssMb, transfer_file_mb: tr.fileMb };
  },
};
