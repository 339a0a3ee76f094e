import { afterEach, describe, expect, it } from 'vitest';
import type { TransferApi } from '../../src/pipeline/transfer.js';
import { json, startStub, type Stub } from '../api/stub.js';
import { clientFor, harness, type Harness } from './helpers.js';

// A transfer file goes through the one retry loop once: its record (and so its address) is fetched by a call
// the client retries itself, and the transfer step does not retry that call again. It used to: four attempts of
// the step, each one call retried six times by the client, were up to 28 sends for one file.

let h: Harness | undefined;
let stub: Stub | undefined;
let failing: ReturnType<typeof clientFor> | undefined;
afterEach(async () => {
  await failing?.api.close();
  await stub?.close();
  await h?.close();
  h = stub = failing = undefined;
});

describe('a transfer file in one loop', () => {
  it('gives up on a record the client retried as far as it would: 3 sends (1 + the client\'s 2 retries), not 3 × 3', async () => {
    h = await harness({ catalogue: { count: 1, errorCount: 0, maxBytes: 8192 } });
    // The record's route answers 503 every time; the listing, the PATCH and the download are the sandbox's.
    stub = await startStub((_req, res) => json(res, 503, { error: 'unavailable' }));
    failing = clientFor(stub.url);
    const real = h.api;
    const api: TransferApi = {
      walk: (q) => real.walk(q),
      get: (id) => failing!.api.get(id),
      patch: (id, st, m) => real.patch(id, st, m),
      download: (u, d, o) => real.download(u, d, o),
    };
    const s = await h.run({ api, retries: 2 });
    expect(s.loaded).toBe(0);
    expect(s.failed.map((f) => f.code)).toEqual(['API_SERVER']);
    expect(stub.calls.filter((c) => c.method === 'GET')).toHaveLength(3);
    // an upstream failing is no fault of the file: kept for a later run, the provider told nothing
    const [row] = await h.wh.all<{ status: string; attempts: number }>('SELECT status, attempts FROM transfer_files');
    expect(row).toEqual({ status: 'waiting', attempts: 1 });
    expect(h.server.ctx.store.files[0].status).not.toBe('error');
  });

  it('retries a download that failed, each time with a fresh address, as many times as the step allows', async () => {
    h = await harness({ catalogue: { count: 1, errorCount: 0, maxBytes: 8192 } });
    const id = h.server.ctx.store.files[0].transfer_file_id;
    h.server.ctx.faults.faults.download5xx = { files: [id], times: 2 };
    let gets = 0;
    const real = h.api;
    const api: TransferApi = {
      walk: (q) => real.walk(q),
      get: (x) => { gets++; return real.get(x); },
      patch: (x, st, m) => real.patch(x, st, m),
      download: (u, d, o) => real.download(u, d, o),
    };
    const s = await h.run({ api, retries: 2 });
    expect(s.failed).toEqual([]);
    expect(s.loaded).toBe(1);
    // The download asks for no retries of its own: each of the three attempts is the step's, with its own record.
    expect(gets).toBe(3);
    const downloads = h.server.calls.filter((c) => c.label === 'GET /_files/:id/:name');
    expect(downloads.map((c) => c.status)).toEqual([503, 503, 200]);
  });
});
