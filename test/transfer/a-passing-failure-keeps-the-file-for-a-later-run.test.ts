import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { API_CODES, ApiError } from '../../src/api/errors.js';
import type { TransferApi } from '../../src/pipeline/transfer.js';
import type { TransferDb } from '../../src/warehouse/transfer-load.js';
import { WarehouseError } from '../../src/warehouse/warehouse.js';
import { harness, type Harness } from './helpers.js';

// A transfer file is marked `error` at the provider — which tells its team the file is broken, and lists it no
// more — only when the file is bad in itself (its size, its content; download-faults.test.ts), after every try of
// the night. A failure that passes — a download timing out on each of its 4 tries (a slow body), a disk filling
// while loading — once marked it error all the same, and its rows were never loaded (8,603 of 9,992 rows after the
// disk was enlarged). Now such a file is kept for a later run, with a backoff, and its rows come in then.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const small = { count: 6, errorCount: 0, maxBytes: 200 * 1024 };
const MIN = 60_000;
/** A file kept after a passing failure waits 30 min, doubling run after run, at most a day (docs/operating.md). */
const TRANSFER_BACKOFF = { firstMs: 30 * MIN };

async function localRow(id: string) {
  const [r] = await h!.wh.all<{ status: string; failed_runs: number; retry_after: Date | null; error: string | null }>(
    'SELECT status, failed_runs, retry_after, error FROM transfer_files WHERE transfer_file_id = ?', [id]);
  return r;
}

/** Rows the warehouse holds against rows the files have, for every file with content. */
async function rowsHeldAndInFiles(): Promise<[number, number]> {
  let inFiles = 0;
  for (const f of h!.server.ctx.store.files.filter((x) => x.hasContent)) inFiles += (await h!.server.ctx.content.info(f)).rows;
  const [{ n }] = await h!.wh.all<{ n: number }>(`SELECT (SELECT count(*) FROM transfer_lawsuits) + (SELECT count(*) FROM transfer_parties)
    + (SELECT count(*) FROM transfer_steps) AS n`);
  return [Number(n), inFiles];
}

describe('a transfer file whose failure passes', () => {
  it('a download timing out on every try of the night is kept, tried again after a growing backoff, never marked error', async () => {
    h = await harness({ catalogue: small });
    const victim = h.server.ctx.store.files[1];
    const real = h.api;
    let slow = true;
    let victimRecords = 0;
    const api: TransferApi = {
      walk: (q) => real.walk(q),
      get: (id) => { if (id === victim.transfer_file_id) victimRecords++; return real.get(id); },
      patch: (id, st, m) => real.patch(id, st, m),
      download: (u, d, o) => (slow && u.includes(victim.transfer_file_id)
        ? Promise.reject(new ApiError(API_CODES.timeout, 'GET download: the whole body took longer than its deadline', { route: 'GET download' }))
        : real.download(u, d, o)),
    };
    const t0 = Date.now();
    let now = t0;
    const night = () => h!.run({ api, retries: 3, now: () => now });

    const first = await night();
    expect(first.loaded).toBe(5);
    expect(first.failed.map((f) => [f.id, f.code])).toEqual([[victim.transfer_file_id, 'API_TIMEOUT']]);
    expect(victimRecords).toBe(4);
    expect(h.server.ctx.store.find(victim.transfer_file_id)!.status).not.toBe('error');
    expect(await localRow(victim.transfer_file_id)).toMatchObject({ status: 'waiting', failed_runs: 1, retry_after: new Date(t0 + TRANSFER_BACKOFF.firstMs) });

    // within the backoff: listed, not tried
    now = t0 + 10 * MIN;
    const soon = await night();
    expect(soon).toMatchObject({ listed: 1, loaded: 0, waiting: 1, failed: [] });
    expect(victimRecords).toBe(4);

    // after it, still slow: the backoff doubles
    now = t0 + 31 * MIN;
    await night();
    expect(await localRow(victim.transfer_file_id)).toMatchObject({ status: 'waiting', failed_runs: 2, retry_after: new Date(now + 2 * TRANSFER_BACKOFF.firstMs) });
    expect(h.server.ctx.store.find(victim.transfer_file_id)!.status).not.toBe('error');

    // the night it passes: loaded whole, and marked downloaded
    slow = false;
    now = t0 + 120 * MIN;
    const last = await night();
    expect(last).toMatchObject({ loaded: 1, waiting: 0, failed: [] });
    expect(await localRow(victim.transfer_file_id)).toMatchObject({ status: 'downloaded', failed_runs: 0, retry_after: null, error: null });
    expect(h.server.ctx.store.find(victim.transfer_file_id)!.status).toBe('downloaded');
    const [held, inFiles] = await rowsHeldAndInFiles();
    expect(held).toBe(inFiles);
  });

  it('a disk that fills while loading ends the stage and marks nothing; the next night, with room again, loads every row', async () => {
    h = await harness({ catalogue: small });
    let full = true;
    const wh = h.wh;
    // DuckDB's own words when its file cannot grow, as Warehouse.run hands them on
    const db2: TransferDb = {
      run: (sql, params) => (full && /^INSERT INTO transfer_(lawsuits|parties|steps) /.test(sql)
        ? Promise.reject(new WarehouseError('WAREHOUSE_SQL', `warehouse statement failed (${sql.slice(0, 40)}): IO Error: Could not write file "${h!.whPath}.wal": No space left on device`))
        : wh.run(sql, params)),
      all: (sql, params) => wh.all(sql, params),
      transaction: (fn) => wh.transaction(fn),
    };
    await expect(h.run({ wh: db2 })).rejects.toMatchObject({ code: 'FS_NO_SPACE' });
    expect(h.server.ctx.store.files.filter((f) => h!.server.ctx.store.find(f.transfer_file_id)!.status === 'error')).toEqual([]);
    expect(await h.wh.all(`SELECT transfer_file_id FROM transfer_files WHERE status IN ('error', 'waiting')`)).toEqual([]);
    expect(readdirSync(h.stagingDir)).toEqual([]);

    full = false;
    const next = await h.run({ wh: db2 });
    expect(next).toMatchObject({ listed: 6, loaded: 6, failed: [] });
    const [held, inFiles] = await rowsHeldAndInFiles();
    expect(held).toBe(inFiles);
  });
});
