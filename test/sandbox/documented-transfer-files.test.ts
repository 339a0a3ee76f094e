// The documented dialect's transfer files: statuses pending / available / consumed instead of the spec's
// error / completed / downloaded (a PATCH to downloaded or consumed shows consumed, one to error shows the
// file back with the provider, pending); `file_size` in megabytes, not bytes; the download address under `url`
// (the spec dialect's `download_url` absent); the listing filters on the statuses shown and sends "page" as a
// string. Compared file by file with a spec-dialect sandbox of the same seed, which offers the same files.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';

// Small files: the records' sizes are computed from their contents (parquet files are written once to learn it).
const transfer = { catalogue: { count: 5, errorCount: 2, minBytes: 3000, maxBytes: 40_000 } };

describe('the documented dialect: transfer files', () => {
  let doc: Sandbox;
  let spec: Sandbox;
  let specFiles: any[];
  beforeAll(async () => {
    [doc, spec] = await Promise.all([sandbox({ dialect: 'documented', transfer }), sandbox({ dialect: 'spec', transfer })]);
    specFiles = (await call(spec, 'GET', '/transfer-file?page_size=100&order=asc')).body.page_data;
  });
  afterAll(async () => { await doc.close(); await spec.close(); });

  test('the same files, with the documented statuses and sizes in megabytes; "page" a string', async () => {
    const r = await call(doc, 'GET', '/transfer-file?page_size=100&order=asc');
    expect(r.status).toBe(200);
    expect(r.body.page).toBe('1');
    expect(typeof r.body.all_count).toBe('number');
    const files = r.body.page_data;
    expect(files.map((f: any) => f.transfer_file_id)).toEqual(specFiles.map((f) => f.transfer_file_id));
    const shown: Record<string, string> = { completed: 'available', error: 'pending' };
    for (const [k, f] of files.entries()) {
      const s = specFiles[k];
      expect(f.status).toBe(shown[s.status]);
      expect(f.file_size).toBe(s.file_size === null ? null : Math.round(s.file_size / 1000) / 1000);
    }
    expect(files.filter((f: any) => f.status === 'pending').length).toBe(2);
    // A size in megabytes: a fraction below 1 for these files, where the spec's reading gives whole bytes.
    const sized = files.filter((f: any) => f.file_size !== null);
    expect(sized.every((f: any) => f.file_size > 0 && f.file_size < 1)).toBe(true);
    expect(specFiles.filter((f) => f.file_size !== null).every((f) => Number.isInteger(f.file_size) && f.file_size >= 3000)).toBe(true);
  });

  test('GET /transfer-file/<id>: the address under `url`, and it downloads the file', async () => {
    const available = specFiles.find((f) => f.status === 'completed');
    const one = (await call(doc, 'GET', `/transfer-file/${available.transfer_file_id}`)).body;
    expect(one).not.toHaveProperty('download_url');
    expect(one.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_files\//);
    expect(Date.parse(one.expires_at)).toBeGreaterThan(doc.state.clock.now());
    const got = await fetch(one.url);
    expect(got.status).toBe(200);
    expect((await got.arrayBuffer()).byteLength).toBe(available.file_size);
    const failed = specFiles.find((f) => f.status === 'error');
    const none = (await call(doc, 'GET', `/transfer-file/${failed.transfer_file_id}`)).body;
    expect(none).toMatchObject({ status: 'pending', url: null, expires_at: null });
    const specOne = (await call(spec, 'GET', `/transfer-file/${available.transfer_file_id}`)).body;
    expect(specOne.download_url).toMatch(/^http:/);
    expect(specOne).not.toHaveProperty('url');
  });

  test('PATCH: downloaded or consumed shows consumed, error shows pending; the listing filters on what it shows', async () => {
    const [a, b, c] = specFiles.filter((f) => f.status === 'completed').map((f) => f.transfer_file_id);
    const patch = (id: string, body: object) => call(doc, 'PATCH', `/transfer-file/${id}`, body);
    const pa = await patch(a, { status: 'downloaded' });
    expect(pa.status).toBe(200);
    expect(pa.body).toMatchObject({ status: 'consumed', downloaded_at: expect.any(String) });
    expect((await patch(b, { status: 'consumed' })).body.status).toBe('consumed');
    expect((await patch(c, { status: 'error', error_message: 'could not load' })).body).toMatchObject({ status: 'pending', error_message: 'could not load' });
    const refused = await patch(a, { status: 'completed' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.name).toBe('HttpBadRequestError');
    const list = async (q: string) => (await call(doc, 'GET', `/transfer-file?page_size=100&${q}`)).body.page_data.map((f: any) => f.transfer_file_id).sort();
    expect(await list('status=consumed')).toEqual([a, b].sort());
    expect(await list('status=available')).toEqual([]);
    expect((await list('status=pending')).length).toBe(3);
    // The spec's names select nothing here: the documented provider never shows them.
    expect(await list('status=completed')).toEqual([]);
    expect(await list('status=downloaded')).toEqual([]);
    // The spec's reading refuses `consumed`.
    expect((await call(spec, 'PATCH', `/transfer-file/${a}`, { status: 'consumed' })).status).toBe(400);
  });
});
