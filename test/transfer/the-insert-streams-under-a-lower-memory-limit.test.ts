import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTransferFile, type TransferDb } from '../../src/warehouse/transfer-load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// A transfer file's insert streams rows from DuckDB's reader into the table; DuckDB keeps the blocks it writes
// cached up to its memory limit, which is what took `lawsuit-etl transfer` of a 300 MB CSV to 323 MB RSS. The
// insert runs under three quarters of the limit (the bench's transfer_rss_mb says what that is worth: 253 MB), and
// the limit is the configured one again afterwards, whether the file loaded or not.

const dir = mkdtempSync(join(tmpdir(), 'transfer-limit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The warehouse, with the memory limit DuckDB reports at each statement the loader sends. */
function watched(wh: Warehouse): { db: TransferDb; limits: Array<{ sql: string; limit: string }> } {
  const limits: Array<{ sql: string; limit: string }> = [];
  const seen = async (sql: string) => {
    const [{ l }] = await wh.all<{ l: string }>(`SELECT current_setting('memory_limit') AS l`);
    limits.push({ sql: sql.replace(/\s+/g, ' ').slice(0, 30), limit: l });
  };
  const db: TransferDb = {
    run: async (sql, params) => { await seen(sql); return wh.run(sql, params); },
    all: async (sql, params) => { await seen(sql); return wh.all(sql, params); },
    transaction: (fn) => wh.transaction(fn),
  };
  return { db, limits };
}

const meta = (id: string) => ({ transfer_file_id: id, name: `${id}.csv`, file_type: 'csv' });

describe('a transfer file\'s insert', () => {
  it('runs under three quarters of the memory limit, which is the configured one again after it', async () => {
    const wh = await Warehouse.open(join(dir, 'a.duckdb'), { memoryLimit: '128MB', threads: 1 });
    try {
      const path = join(dir, 'steps.csv');
      writeFileSync(path, 'code,instance,step_id,content\n0000001-11.2020.8.26.0100,1,s1,Juntada\n0000001-11.2020.8.26.0100,1,s2,Conclusos\n');
      const { db, limits } = watched(wh);
      expect(await loadTransferFile(db, { meta: meta('f1'), path, runId: 'r', attempts: 1 })).toEqual({ table: 'transfer_steps', rows: 2 });
      expect(limits.find((l) => l.sql.startsWith('INSERT INTO transfer_steps'))?.limit).toBe('91.5 MiB');
      const [{ l }] = await wh.all<{ l: string }>(`SELECT current_setting('memory_limit') AS l`);
      expect(l).toBe('122.0 MiB');
    } finally {
      await wh.close();
    }
  });

  it('gives the limit back when the file fails to load', async () => {
    const wh = await Warehouse.open(join(dir, 'b.duckdb'), { memoryLimit: '128MB', threads: 1 });
    try {
      const path = join(dir, 'bad.csv');
      // A quoted field left open: the strict reader refuses the file during the insert.
      writeFileSync(path, 'code,instance,step_id,content\n0000001-11.2020.8.26.0100,1,s1,"Juntada\n');
      await expect(loadTransferFile(wh, { meta: meta('f2'), path, runId: 'r', attempts: 1 })).rejects.toMatchObject({ code: 'TRANSFER_FILE_READ' });
      const [{ l }] = await wh.all<{ l: string }>(`SELECT current_setting('memory_limit') AS l`);
      expect(l).toBe('122.0 MiB');
    } finally {
      await wh.close();
    }
  });
});
