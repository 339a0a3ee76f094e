import { afterAll, expect, test } from 'vitest';
import { join } from 'node:path';
import { closeStaleRuns, recordRejections, startRun, type Rejection } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// A documents list of bad lines must never stop the run: one INSERT per line in one transaction ran DuckDB out
// of its 128 MB ("failed to pin block") at some 700 lines. They go in one statement now, whatever their number.

const tmp = scratch();
afterAll(() => tmp.cleanup());

test('100k rejected lines are recorded at the run\'s 128 MB, once each, and recording them again adds nothing', async () => {
  const wh = await Warehouse.open(join(tmp.dir, 'rejections.duckdb'), { memoryLimit: '128MB', threads: 1 });
  try {
    const runId = await startRun(wh, { command: 'run' });
    // Latin-1 read as UTF-8 and long values, as the review's lists had them
    const rejections: Rejection[] = Array.from({ length: 100_000 }, (_, i) => ({
      line: i + 2, value: i % 3 === 0 ? null : `Jos\uFFFD da Concei\uFFFD\uFFFDo ${i} ${'x'.repeat(i % 200)}`, reason: `bad check digits (${i})`,
    }));
    expect(await recordRejections(wh, runId, rejections, 'documents.csv')).toBe(100_000);
    expect(await recordRejections(wh, runId, rejections.slice(0, 10), 'documents.csv')).toBe(0);
    const [r] = await wh.all<{ n: number; lines: number; nulls: number; v: string; reason: string }>(`SELECT count(*) AS n, count(DISTINCT line) AS lines,
      count(*) FILTER (WHERE value IS NULL) AS nulls, max(value) FILTER (WHERE line = 3) AS v, max(reason) FILTER (WHERE line = 3) AS reason
      FROM rejected_inputs WHERE run_id = $1`, [runId]);
    expect(r).toEqual({ n: 100_000, lines: 100_000, nulls: 33_334, v: `Jos\uFFFD da Concei\uFFFD\uFFFDo 1 x`, reason: 'bad check digits (1)' });
  } finally {
    await wh.close();
  }
});

test('a line named twice keeps its first reason', async () => {
  const wh = await Warehouse.open(join(tmp.dir, 'twice.duckdb'));
  try {
    const runId = await startRun(wh, { command: 'run' });
    expect(await recordRejections(wh, runId, [{ line: 5, value: 'a', reason: 'first' }, { line: 5, value: 'b', reason: 'second' }], 'l.csv')).toBe(1);
    expect(await wh.all('SELECT line, value, reason, source FROM rejected_inputs')).toEqual([{ line: 5, value: 'a', reason: 'first', source: 'l.csv' }]);
  } finally {
    await wh.close();
  }
});

test('closeStaleRuns marks the runs a dead process left running as interrupted, and leaves the caller\'s own', async () => {
  const wh = await Warehouse.open(join(tmp.dir, 'stale.duckdb'));
  try {
    const dead = await startRun(wh, { command: 'run', runId: 'dead-1' });
    await startRun(wh, { command: 'run', runId: 'done-1' });
    await wh.run(`UPDATE runs SET status = 'ok', finished_at = current_timestamp WHERE run_id = 'done-1'`);
    const mine = await startRun(wh, { command: 'run', runId: 'now-1' });
    expect(await closeStaleRuns(wh, { byRunId: mine })).toEqual([dead]);
    const rows = await wh.all<{ run_id: string; status: string; finished_at: Date | null; note: string | null }>(
      `SELECT run_id, status, finished_at, summary->>'noticed_by' AS note FROM runs ORDER BY run_id`);
    expect(rows.map((r) => [r.run_id, r.status, r.note])).toEqual([['dead-1', 'interrupted', 'now-1'], ['done-1', 'ok', null], ['now-1', 'running', null]]);
    expect(rows[0].finished_at).toBeNull();
    expect(await closeStaleRuns(wh, { byRunId: mine })).toEqual([]);
  } finally {
    await wh.close();
  }
});
