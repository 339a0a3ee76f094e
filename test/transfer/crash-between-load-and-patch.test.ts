import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrashSignal } from '../../src/pipeline/transfer.js';
import { harness, type Harness } from './helpers.js';

// A crash after a file's load committed but before its PATCH: the next run sends only the PATCH.

let h: Harness;
beforeAll(async () => {
  h = await harness({ catalogue: { count: 4, errorCount: 0, maxBytes: 64 * 1024 } });
});
afterAll(async () => h.close());

describe('crash between load and PATCH', () => {
  it('leaves the file loaded locally and unmarked at the provider', async () => {
    let seen = 0;
    await expect(h.run({ onLoaded: () => { if (++seen === 2) throw new CrashSignal('killed'); } })).rejects.toBeInstanceOf(CrashSignal);
    const states = await h.wh.all<{ status: string; n: number }>('SELECT status, count(*)::INTEGER n FROM transfer_files GROUP BY status ORDER BY status');
    expect(states).toEqual([{ status: 'downloaded', n: 1 }, { status: 'loaded', n: 1 }]);
    const remote = h.server.ctx.store.files.map((f) => h.server.ctx.store.find(f.transfer_file_id)!.status);
    expect(remote.filter((s) => s === 'downloaded')).toHaveLength(1);
  });

  it('on the next run PATCHes it without loading it again, and loads the rest', async () => {
    await h.reopen();
    const [crashed] = await h.wh.all<{ transfer_file_id: string; loaded_at: Date; target_table: string }>(
      `SELECT transfer_file_id, loaded_at, target_table FROM transfer_files WHERE status = 'loaded'`);
    const rowsBefore = await h.wh.all<{ n: number }>(`SELECT count(*)::INTEGER n FROM ${crashed.target_table} WHERE transfer_file_id = ?`, [crashed.transfer_file_id]);
    const s = await h.run({ runId: 'run-2' });
    expect(s).toMatchObject({ patchedLate: 1, loaded: 2, failed: [] });
    expect(h.server.ctx.store.find(crashed.transfer_file_id)!.status).toBe('downloaded');
    const [after] = await h.wh.all<{ status: string; loaded_at: Date }>('SELECT status, loaded_at FROM transfer_files WHERE transfer_file_id = ?', [crashed.transfer_file_id]);
    expect(after.status).toBe('downloaded');
    expect(after.loaded_at).toEqual(crashed.loaded_at);
    const rowsAfter = await h.wh.all<{ n: number }>(`SELECT count(*)::INTEGER n FROM ${crashed.target_table} WHERE transfer_file_id = ?`, [crashed.transfer_file_id]);
    expect(rowsAfter).toEqual(rowsBefore);
    const downloads = h.server.calls.filter((c) => c.label === 'GET /_files/:id/:name' && c.status === 200);
    expect(downloads).toHaveLength(4);
  });
});
