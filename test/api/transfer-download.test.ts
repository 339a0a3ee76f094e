import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { KEY, captureLogger, closedAfterEach, json, startStub, urlsOf, type Stub } from './stub.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'api-dl-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const keep = closedAfterEach();

const FILE_ID = 'f1e2d3c4-0000-4000-8000-000000000001';
const content = Buffer.from('PAR1'.repeat(50_000));
const SIG = 'X-Amz-Signature=deadbeefcafe';

/** Object storage on another origin; the pre-signed address is valid when it carries SIG. */
async function storage(): Promise<Stub> {
  return startStub((_req, res, call) => {
    // docs/dialect-and-spec-gaps.md, "Spec gaps": 403 once the address expired or was tampered with.
    if (!call.query.toString().includes('deadbeefcafe')) { res.writeHead(403); return void res.end('<Error>Expired</Error>'); }
    if (call.path.endsWith('/short.parquet')) { res.writeHead(200); return void res.end(content.subarray(0, 100)); }
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(content);
  });
}

describe('transfer files', () => {
  it('gets the record with its address, streams the file to disk without the api-key, and marks it downloaded', async () => {
    const store = keep(await storage());
    const api0 = keep(await startStub((_req, res, call) => {
      // docs/dialect-and-spec-gaps.md, "Spec gaps": GET /transfer-file/<id> answers the record plus download_url.
      if (call.method === 'GET') return json(res, 200, { transfer_file_id: FILE_ID, name: 'x-part-00001.parquet', file_type: 'parquet', status: 'completed', file_size: content.length, download_url: `${store.url}/bucket/x.parquet?${SIG}` });
      // PATCH body {status, error_message?}.
      json(res, 200, { transfer_file_id: FILE_ID, name: 'x', file_type: 'parquet', status: (call.body as { status: string }).status });
    }));
    const cap = captureLogger();
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(api0), logger: cap.logger }));
    const rec = await api.transfer.get(FILE_ID);
    const dest = join(dir, 'a.parquet');
    const r = await api.transfer.download(rec.download_url, dest, { expectedSize: rec.file_size });
    expect(r.bytes).toBe(content.length);
    expect((await readFile(dest)).equals(content)).toBe(true);
    expect(store.calls.length).toBe(1);
    expect(store.calls[0].headers['api-key']).toBeUndefined();
    const after = await api.transfer.patch(FILE_ID, 'downloaded');
    expect(after?.status).toBe('downloaded');
    expect(api0.calls[1]).toMatchObject({ method: 'PATCH', path: `/tf/transfer-file/${FILE_ID}`, body: { status: 'downloaded' } });
    // The download is not an API call: it is neither counted nor rate-limited.
    expect(api.stats().calls).toBe(2);
    expect(cap.text()).not.toContain('deadbeefcafe');
    expect(cap.text()).not.toContain(KEY);
  });

  it('sends error_message when marking a file in error', async () => {
    const s = keep(await startStub((_req, res, call) => json(res, 200, { transfer_file_id: FILE_ID, status: (call.body as { status: string }).status })));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(s) }));
    await api.transfer.patch(FILE_ID, 'error', 'size mismatch');
    expect(s.calls[0].body).toEqual({ status: 'error', error_message: 'size mismatch' });
  });

  it('maps 403 of the storage to API_DOWNLOAD_EXPIRED without the address in the message', async () => {
    const store = keep(await storage());
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(store) }));
    const url = `${store.url}/bucket/x.parquet?X-Amz-Signature=expired0000`;
    const e = await api.transfer.download(url, join(dir, 'b.parquet')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('API_DOWNLOAD_EXPIRED');
    expect((e as ApiError).statusCode).toBe(403);
    expect(String((e as Error).message)).not.toContain('expired0000');
    expect(String((e as Error).message)).not.toContain(store.url);
    expect(store.calls.length).toBe(1);
  });

  it('keeps the storage\'s Retry-After on a passing refusal, for the retry\'s backoff to honour', async () => {
    const store = keep(await startStub((_req, res) => { res.writeHead(503, { 'retry-after': '7' }); res.end('<Error>SlowDown</Error>'); }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(store) }));
    const e = await api.transfer.download(`${store.url}/bucket/x.parquet?${SIG}`, join(dir, 'slow.parquet'), { retries: 0 }).catch((x: unknown) => x as ApiError);
    expect((e as ApiError).code).toBe('API_DOWNLOAD_FAILED');
    expect((e as ApiError).hints.retryAfter).toBe('7');
    expect(store.calls.length).toBe(1);
  });

  it('rejects a download whose size differs from the record, leaving no file behind', async () => {
    const store = keep(await storage());
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(store) }));
    const dest = join(dir, 'c.parquet');
    const e = await api.transfer.download(`${store.url}/bucket/short.parquet?${SIG}`, dest, { expectedSize: content.length, retries: 0 }).catch((x: unknown) => x);
    expect((e as ApiError).code).toBe('API_DOWNLOAD_SIZE');
    expect((await readdir(dir)).filter((f) => f.startsWith('c.parquet'))).toEqual([]);
  });

  it('lists transfer files with repeated status and range filters (counts form)', async () => {
    const s = keep(await startStub((_req, res, call) => {
      // Spec "Transfer files": page, page_data, page_count, all_count, all_pages_count.
      const page = Number(call.query.get('page') ?? 1);
      json(res, 200, { page, page_count: 1, all_count: 2, all_pages_count: 2, page_data: [{ transfer_file_id: `t${page}`, name: 'n', file_type: 'csv', status: 'completed' }] });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(s) }));
    const ids: string[] = [];
    for await (const f of api.transfer.walk({ status: ['completed', 'error'], created_at_gte: '2025-01-01T00:00:00Z', page_size: 1 })) ids.push(f.transfer_file_id);
    expect(ids).toEqual(['t1', 't2']);
    expect(s.calls[0].query.getAll('status')).toEqual(['completed', 'error']);
    expect(s.calls[0].query.get('created_at_gte')).toBe('2025-01-01T00:00:00Z');
    expect(s.calls[0].path).toBe('/tf/transfer-file');
  });
});
