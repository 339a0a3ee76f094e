import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferApi } from '../../src/pipeline/transfer.js';
import { harness, type Harness } from './helpers.js';

// The pre-signed address is a bearer credential for five minutes: it must not reach a log line or the warehouse,
// whatever goes wrong (expiry, cut download, corrupt file).

let h: Harness;
const issued: string[] = [];
beforeAll(async () => {
  h = await harness({ catalogue: { count: 5, errorCount: 1, maxBytes: 64 * 1024 }, faults: { cutMid: { files: ['*'], times: 1 } } });
  h.server.ctx.faults.faults.corrupt = [h.server.ctx.store.files[0].transfer_file_id];
  let first = true;
  const api: TransferApi = {
    walk: (q) => h.api.walk(q),
    get: async (id) => {
      const r = await h.api.get(id);
      issued.push(r.download_url);
      h.log.debug({ record: r }, 'record fetched');
      // One address spoilt on purpose, so that the 403 path runs too.
      if (first) { first = false; return { ...r, download_url: r.download_url.replace(/sig=./, (m) => (m.endsWith('a') ? 'sig=b' : 'sig=a')) }; }
      return r;
    },
    patch: (id, s, m) => h.api.patch(id, s, m),
    download: (u, d, o) => h.api.download(u, d, o),
  };
  await h.run({ api });
});
afterAll(async () => h.close());

describe('pre-signed addresses', () => {
  it('were issued and used', () => {
    expect(issued.length).toBeGreaterThan(8);
    expect(h.logs.length).toBeGreaterThan(10);
  });

  it('never appear in a log line', () => {
    const text = h.logs.join('\n');
    for (const u of issued) {
      expect(text.includes(u)).toBe(false);
      expect(text.includes(new URL(u).searchParams.get('sig')!)).toBe(false);
    }
    expect(text).not.toMatch(/sig=[0-9a-f]/);
    expect(text).toMatch(/retrying|fresh one/);
  });

  it('never reach the warehouse', async () => {
    const rows = await h.wh.all<{ j: string }>(`SELECT to_json(t)::VARCHAR j FROM transfer_files t`);
    expect(rows.length).toBe(4);
    expect(rows.some((r) => r.j.includes('"status":"error"'))).toBe(true);
    for (const r of rows) expect(r.j).not.toMatch(/sig=|_files\//);
  });
});
