import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TransferApi } from '../../src/pipeline/transfer.js';
import { harness, type Harness } from './helpers.js';

// Each fault of the download path: the run retries what can heal, marks error what cannot, and goes on.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const small = { count: 6, errorCount: 0, maxBytes: 200 * 1024 };

async function localRow(id: string) {
  const [r] = await h!.wh.all<{ status: string; error: string | null; loaded_rows: number | null; attempts: number }>(
    'SELECT status, error, loaded_rows, attempts FROM transfer_files WHERE transfer_file_id = ?', [id]);
  return r;
}

describe('download faults', () => {
  it('marks a corrupt file error (at the provider and locally, with the reason) and loads the others', async () => {
    h = await harness({ catalogue: small });
    const victim = h.server.ctx.store.files[1];
    h.server.ctx.faults.faults.corrupt = [victim.transfer_file_id];
    const s = await h.run();
    expect(s.loaded).toBe(5);
    expect(s.failed).toHaveLength(1);
    expect(s.failed[0].id).toBe(victim.transfer_file_id);
    expect(s.failed[0].reason).toMatch(/TRANSFER_FILE_READ|TRANSFER_FILE_SHAPE/);
    const remote = h.server.ctx.store.find(victim.transfer_file_id)!;
    expect(remote.status).toBe('error');
    expect(remote.error_message).toBe(s.failed[0].reason);
    const local = await localRow(victim.transfer_file_id);
    expect(local).toMatchObject({ status: 'error', error: s.failed[0].reason, attempts: 3 });
    const [{ n }] = await h.wh.all<{ n: number }>(`SELECT count(*)::INTEGER n FROM transfer_${victim.kind} WHERE transfer_file_id = ?`, [victim.transfer_file_id]);
    expect(n).toBe(0);
    expect(readdirSync(h.stagingDir)).toEqual([]);
  });

  it('retries a download cut half-way through the body, and one answered 503', async () => {
    h = await harness({ catalogue: small, faults: { cutMid: { files: ['*'], times: 1 }, download5xx: { files: [], times: 0 } } });
    const target = h.server.ctx.store.files[2];
    h.server.ctx.faults.faults.download5xx = { files: [target.transfer_file_id], times: 1 };
    const s = await h.run();
    expect(s.failed).toEqual([]);
    expect(s.loaded).toBe(6);
    const downloads = h.server.calls.filter((c) => c.label === 'GET /_files/:id/:name');
    expect(downloads.filter((c) => c.status === 503)).toHaveLength(1);
    // Every file's first download was cut (and answered 200 before the cut), so each took a second one.
    expect(downloads.filter((c) => c.status === 200).length).toBeGreaterThanOrEqual(12);
    const counts = await h.wh.all<{ n: number }>(`SELECT count(*)::INTEGER n FROM transfer_files WHERE status = 'downloaded'`);
    expect(counts[0].n).toBe(6);
  });

  it('fetches a fresh address when the first one expired before the download', async () => {
    let clock = Date.now();
    h = await harness({ catalogue: { ...small, count: 3 }, now: () => clock });
    const real = h.api;
    let gets = 0;
    const api: TransferApi = {
      walk: (q) => real.walk(q),
      get: async (id) => {
        const r = await real.get(id);
        // The first address of the run goes stale before it is used (a long queue, a slow disk).
        if (gets++ === 0) clock += 6 * 60_000;
        else clock = Date.now();
        return r;
      },
      patch: (id, st, m) => real.patch(id, st, m),
      download: (u, d, o) => real.download(u, d, o),
    };
    const s = await h.run({ api });
    expect(s.failed).toEqual([]);
    expect(s.loaded).toBe(3);
    expect(gets).toBe(4);
    expect(h.server.calls.filter((c) => c.status === 403)).toHaveLength(1);
  });

  it('refuses an expired and a tampered address with 403, and serves the genuine one without a key', async () => {
    let clock = Date.now();
    h = await harness({ catalogue: { ...small, count: 1 }, now: () => clock });
    const id = h.server.ctx.store.files[0].transfer_file_id;
    const rec = await h.api.get(id);
    const url = new URL(rec.download_url);
    const sig = url.searchParams.get('sig')!;
    const flip = (s: string) => (s[0] === 'a' ? 'b' : 'a') + s.slice(1);
    const tampered = [
      url.href.replace(`sig=${sig}`, `sig=${flip(sig)}`),
      url.href.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3_600_000}`),
      url.href.replace(/&sig=[0-9a-f]+/, ''),
    ];
    for (const t of tampered) {
      const r = await fetch(t);
      expect(r.status, t.replace(/sig=.*/, '')).toBe(403);
      expect(await r.text()).toMatch(/<Error><Code>(SignatureDoesNotMatch|AccessDenied)<\/Code>/);
    }
    const good = await fetch(url);
    expect(good.status).toBe(200);
    expect((await good.arrayBuffer()).byteLength).toBe(rec.file_size);
    clock += 5 * 60_000 + 1;
    const late = await fetch(url);
    expect(late.status).toBe(403);
    expect(await late.text()).toMatch(/expired/);
  });

  it('refuses hostile server-given names: nothing is written outside the staging folder', async () => {
    const hostile = ['../../escaped.csv', '/tmp/absolute.csv', '..\\..\\win.csv', 'ok\nname.csv', '..'];
    h = await harness({ catalogue: { count: 1, errorCount: 0, maxBytes: 8192, extra: hostile.map((name) => ({ name, bytes: 4096 })) } });
    const s = await h.run();
    expect(s.loaded).toBe(1);
    expect(s.failed.map((f) => f.name).sort()).toEqual([...hostile].sort());
    for (const f of s.failed) {
      expect(f.reason).toMatch(/TRANSFER_UNSAFE_NAME/);
      expect(h.server.ctx.store.find(f.id)!.status).toBe('error');
    }
    // No download was even attempted for them.
    expect(h.server.calls.filter((c) => c.label === 'GET /_files/:id/:name')).toHaveLength(1);
    expect(existsSync(join(h.stagingDir, '../../escaped.csv'))).toBe(false);
    expect(existsSync('/tmp/absolute.csv')).toBe(false);
    expect(readdirSync(h.dir).filter((n) => n.includes('escaped') || n.includes('win'))).toEqual([]);
    expect(readdirSync(h.stagingDir)).toEqual([]);
  });
});
