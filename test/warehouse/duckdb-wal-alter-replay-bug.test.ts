import { afterAll, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';
import { killAfter } from './wal-child.js';

// The DuckDB bug the warehouse works around (docs/warehouse.md, "The DuckDB WAL bug"), in its smallest form: a table
// with a DEFAULT current_timestamp column, checkpointed; a row inserted and a column commented; the process
// killed. DuckDB 1.5.5/1.5.6 then cannot open the file; the same WAL replays when the file is ATTACHed, as
// Warehouse.open does with every file. If the first expectation ever fails, DuckDB has fixed the bug.

const tmp = scratch();
afterAll(() => tmp.cleanup());

const BUG = ['CREATE TABLE t (id INTEGER, created TIMESTAMPTZ NOT NULL DEFAULT current_timestamp)', 'CHECKPOINT',
  'INSERT INTO t (id) VALUES (1)', "COMMENT ON COLUMN t.id IS 'the id'"];

async function openAndCount(path: string): Promise<{ rows: number; comment: string | null }> {
  const db = await DuckDBInstance.create(path);
  const c = await db.connect();
  try {
    const rows = Number((await c.runAndReadAll('SELECT count(*) FROM t')).getRows()[0][0]);
    const comment = (await c.runAndReadAll(`SELECT comment FROM duckdb_columns() WHERE table_name = 't' AND column_name = 'id'`)).getRows()[0][0] as string | null;
    return { rows, comment };
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

test('DuckDB cannot replay a COMMENT ON COLUMN of a table with a function DEFAULT left in the WAL', async () => {
  const path = join(tmp.dir, 'bug.duckdb');
  killAfter(path, BUG);
  expect(existsSync(`${path}.wal`)).toBe(true);
  await expect(DuckDBInstance.create(path)).rejects.toThrow(/Failure while replaying WAL.*GetDefaultDatabase/s);
});

test('an ALTER ... ADD COLUMN of such a table fails the same way; the same statements checkpointed at once do not', async () => {
  const bad = join(tmp.dir, 'add-column.duckdb');
  killAfter(bad, [BUG[0], BUG[1], 'ALTER TABLE t ADD COLUMN extra INTEGER']);
  await expect(DuckDBInstance.create(bad)).rejects.toThrow(/Failure while replaying WAL/);

  const good = join(tmp.dir, 'checkpointed.duckdb');
  killAfter(good, [...BUG, 'CHECKPOINT', 'INSERT INTO t (id) VALUES (2)']);
  expect(await openAndCount(good)).toEqual({ rows: 2, comment: 'the id' });
});

test('the warehouse opens such a file without loss (it attaches the file), and leaves it opening anywhere', async () => {
  const path = join(tmp.dir, 'replayed.duckdb');
  killAfter(path, BUG);
  const wh = await Warehouse.open(path, { migrate: false });
  expect(await wh.all(`SELECT count(*)::INTEGER AS n, (SELECT comment FROM duckdb_columns() WHERE table_name = 't' AND column_name = 'id') AS comment FROM t`))
    .toEqual([{ n: 1, comment: 'the id' }]);
  await wh.close();
  expect(existsSync(`${path}.wal`)).toBe(false);
  expect(await openAndCount(path)).toEqual({ rows: 1, comment: 'the id' });
});
