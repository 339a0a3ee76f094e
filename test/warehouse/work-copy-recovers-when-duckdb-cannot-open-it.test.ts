import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { upsertRequest } from '../../src/warehouse/ledger.js';
import { openWorkCopy, type WorkCopyOptions } from '../../src/warehouse/publish.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';
import { killAfter } from './wal-child.js';

// A work copy DuckDB refuses to open must never stop the nightly run for good: the run says what happened
// and what it does, keeps what it can of the night's ledger (requests already bought), and carries on. The work
// copy of `<warehouse>` is `<warehouse>.work` (docs/warehouse.md).

const tmp = scratch();
afterAll(() => tmp.cleanup());
let n = 0;

/** A logger that keeps each event's level and fields, for assertions on data rather than on the message. */
function recorder(): { log: NonNullable<WorkCopyOptions['log']>; events: Array<Record<string, unknown>> } {
  const events: Array<Record<string, unknown>> = [];
  const at = (level: string) => (obj: object) => { events.push({ level, ...obj }); };
  return { log: { info: at('info'), warn: at('warn'), error: at('error') } as never, events };
}

/** A warehouse (published or work copy) at `path` holding the given requests, checkpointed. */
async function withRequests(path: string, ids: string[]): Promise<void> {
  const wh = await Warehouse.open(path);
  for (const id of ids) await upsertRequest(wh, { request_id: id, search_type: 'cpf', search_key: '09206529722', status: 'pending' });
  await wh.close();
}

async function requestIds(wh: Warehouse): Promise<string[]> {
  return (await wh.all<{ request_id: string }>('SELECT request_id FROM requests ORDER BY 1')).map((r) => r.request_id);
}

describe('openWorkCopy on a work copy DuckDB cannot open', () => {
  it('opens a work copy whose WAL holds a catalog change (the DuckDB bug) as it is: the file is attached, nothing lost, nothing to recover', async () => {
    const published = join(tmp.dir, `w${++n}.duckdb`);
    const work = `${published}.work`;
    await withRequests(work, ['bought-before-checkpoint']);
    killAfter(work, [
      `INSERT INTO requests (request_id, status) VALUES ('bought-after-checkpoint', 'pending')`,
      `COMMENT ON COLUMN rejected_inputs.rejected_at IS 'a comment left in the WAL, as the old publish did'`,
    ]);
    const copy = await openWorkCopy(published);
    try {
      expect(copy.resumed).toBe(true);
      expect(copy.recovery).toBeUndefined();
      expect(await requestIds(copy.wh)).toEqual(['bought-after-checkpoint', 'bought-before-checkpoint']);
    } finally {
      await copy.close();
    }
  });

  it('carries on from the last checkpoint when the WAL cannot be replayed at all, keeping the files aside', async () => {
    const published = join(tmp.dir, `w${++n}.duckdb`);
    const work = `${published}.work`;
    await withRequests(work, ['bought-before-checkpoint']);
    // a WAL that belongs to another database: its tables do not exist here, in any way of replaying it
    const foreign = join(tmp.dir, 'foreign.duckdb');
    killAfter(foreign, ['CREATE TABLE x (i INTEGER)', 'CHECKPOINT', 'INSERT INTO x VALUES (1)']);
    copyFileSync(`${foreign}.wal`, `${work}.wal`);
    const { log, events } = recorder();
    const copy = await openWorkCopy(published, { log });
    try {
      expect(copy.recovery?.how).toBe('last-checkpoint');
      expect(existsSync(copy.recovery!.keptAt!)).toBe(true);
      expect(existsSync(`${copy.recovery!.keptAt!}.wal`)).toBe(true);
      expect(await requestIds(copy.wh)).toEqual(['bought-before-checkpoint']);
      expect(events).toContainEqual({ level: 'error', work_copy: work, kept_at: copy.recovery!.keptAt, reason: copy.recovery!.reason });
    } finally {
      await copy.close();
    }
  });

  it('starts again from the published warehouse when the work copy is not a DuckDB file at all', async () => {
    const published = join(tmp.dir, `w${++n}.duckdb`);
    await withRequests(published, ['published-night']);
    writeFileSync(`${published}.work`, Buffer.alloc(64 * 1024, 7));
    const { log, events } = recorder();
    const copy = await openWorkCopy(published, { log });
    try {
      expect(copy.recovery?.how).toBe('published');
      expect(existsSync(copy.recovery!.keptAt!)).toBe(true);
      expect(await requestIds(copy.wh)).toEqual(['published-night']);
      expect(events).toContainEqual(expect.objectContaining({ level: 'error', work_copy: `${published}.work`, kept_at: copy.recovery!.keptAt, last_checkpoint: expect.any(String) }));
    } finally {
      await copy.close();
    }
  });

  it('does not set aside a work copy another process holds: that is no damage', async () => {
    const published = join(tmp.dir, `w${++n}.duckdb`);
    const work = `${published}.work`;
    await withRequests(work, ['r']);
    const holder = spawn(process.execPath, ['--input-type=module', '-e', `
      import { DuckDBInstance } from '@duckdb/node-api';
      await DuckDBInstance.create(${JSON.stringify(work)});
      console.log('holding');
      setInterval(() => undefined, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.once('exit', () => reject(new Error('the holder exited')));
        holder.stdout!.once('data', () => resolve());
      });
      await expect(openWorkCopy(published)).rejects.toMatchObject({ code: 'WAREHOUSE_OPEN', message: expect.stringMatching(/lock/i) });
      expect(readdirSync(tmp.dir).filter((f) => f.startsWith(`w${n}.`) && f.includes('broken'))).toEqual([]);
    } finally {
      holder.removeAllListeners('exit');
      await new Promise((r) => { holder.once('exit', r); holder.kill('SIGKILL'); });
    }
    const copy = await openWorkCopy(published);
    expect(await requestIds(copy.wh)).toEqual(['r']);
    await copy.close();
  });
});
