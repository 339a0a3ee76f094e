import { DIALECTS } from '../../src/sandbox/dialect.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTransferTestServer, type TransferTestServer } from '../support/transfer-test-server.js';

// The sandbox's GET /transfer-file, read over HTTP as any client would.

let s: TransferTestServer;
const H = { 'api-key': 'sandbox-key' };
type Rec = Record<string, unknown> & { transfer_file_id: string; created_at: string; status: string; file_type: string; name: string; description: string };
interface Env { page: number; page_count: number; all_count: number; all_pages_count: number; page_data: Rec[] }

async function list(query: string): Promise<{ status: number; body: Env & { error?: { name: string; message: string; data: string[] } } }> {
  const r = await fetch(`${s.baseUrl}/transfer-file${query}`, { headers: H });
  return { status: r.status, body: await r.json() as never };
}

beforeAll(async () => {
  // The spec's reading of the transfer routes (the documented one: test/sandbox/documented-transfer-files.test.ts).
  s = await startTransferTestServer({ seed: 11, dialect: DIALECTS.spec, catalogue: { count: 15, errorCount: 3, maxBytes: 64 * 1024 } });
});
afterAll(async () => s.close());

describe('GET /transfer-file', () => {
  it('defaults to page 1 of 10, newest created first', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(body.page).toBe(1);
    expect(body.all_count).toBe(15);
    expect(body.all_pages_count).toBe(2);
    expect(body.page_count).toBe(10);
    const created = body.page_data.map((r) => r.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const rest = await list('?page=2');
    expect(rest.body.page_data.map((r) => r.transfer_file_id)).not.toContain(body.page_data[0].transfer_file_id);
    expect(rest.body.page_count).toBe(5);
  });

  it('orders ascending on request and by another field', async () => {
    const asc = await list('?order=asc&page_size=100');
    const created = asc.body.page_data.map((r) => r.created_at);
    expect(created).toEqual([...created].sort());
    const bySize = await list('?order_by=file_size&order=asc&page_size=100');
    const sizes = bySize.body.page_data.map((r) => r.file_size).filter((v): v is number => typeof v === 'number');
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(bySize.body.page_data.slice(-3).every((r) => r.file_size === null)).toBe(true);
  });

  it('filters by status given as a string, a repeated key, or a comma list', async () => {
    const err = await list('?status=error&page_size=100');
    expect(err.body.all_count).toBe(3);
    expect(err.body.page_data.every((r) => r.status === 'error')).toBe(true);
    const both = await list('?status=error&status=completed&page_size=100');
    expect(both.body.all_count).toBe(15);
    const comma = await list('?status=completed,error&page_size=100');
    expect(comma.body.all_count).toBe(15);
    const arr = await list('?status[]=completed&page_size=100');
    expect(arr.body.all_count).toBe(12);
  });

  it('filters by file_type, name and description', async () => {
    const all = (await list('?page_size=100')).body.page_data;
    const parquet = await list('?file_type=parquet&page_size=100');
    expect(parquet.body.all_count).toBe(all.filter((r) => r.file_type === 'parquet').length);
    expect(parquet.body.page_data.every((r) => r.file_type === 'parquet')).toBe(true);
    const one = all[4];
    const byName = await list(`?name=${encodeURIComponent(one.name)}`);
    expect(byName.body.page_data.map((r) => r.transfer_file_id)).toEqual([one.transfer_file_id]);
    const steps = await list('?description=STEPS&page_size=100');
    expect(steps.body.all_count).toBe(all.filter((r) => r.description.includes('steps')).length);
    expect(steps.body.all_count).toBeGreaterThan(0);
  });

  it('applies the _gte/_lte bounds of each timestamp, inclusive', async () => {
    const all = (await list('?order=asc&page_size=100')).body.page_data;
    const lo = all[3].created_at;
    const hi = all[8].created_at;
    const r = await list(`?created_at_gte=${lo}&created_at_lte=${hi}&page_size=100&order=asc`);
    expect(r.body.page_data.map((x) => x.transfer_file_id)).toEqual(all.slice(3, 9).map((x) => x.transfer_file_id));
    // error_at is null on completed files: a bound on it keeps only the failed ones.
    const errAt = await list('?error_at_gte=2000-01-01T00:00:00Z&page_size=100');
    expect(errAt.body.page_data.every((x) => x.status === 'error')).toBe(true);
    expect(errAt.body.all_count).toBe(3);
    const completedLte = await list(`?completed_at_lte=${all[0].completed_at ?? all[1].completed_at}&page_size=100`);
    expect(completedLte.body.all_count).toBeLessThanOrEqual(2);
  });

  it('answers a page_size above 100 with a clear 400 instead of capping it', async () => {
    const r = await list('?page_size=101');
    expect(r.status).toBe(400);
    expect(r.body.error?.name).toBe('ValidationError');
    expect(r.body.error?.data.join(' ')).toMatch(/page_size must be at most 100/);
    expect((await list('?page_size=100')).status).toBe(200);
  });

  it('reports every bad parameter at once', async () => {
    const r = await list('?order=sideways&order_by=colour&file_type=xls&created_at_gte=yesterday&page=0&bogus=1');
    expect(r.status).toBe(400);
    const data = r.body.error?.data ?? [];
    for (const word of ['order must', 'order_by must', 'file_type must', 'created_at_gte', 'page must', 'bogus']) {
      expect(data.some((d) => d.includes(word)), word).toBe(true);
    }
  });

  it('requires the api-key on the listing', async () => {
    const r = await fetch(`${s.baseUrl}/transfer-file`);
    expect(r.status).toBe(401);
  });
});

describe('GET and PATCH /transfer-file/<id>', () => {
  it('gives the record with every REFERENCE.md field and a download address', async () => {
    const first = (await list('?status=completed')).body.page_data[0];
    const r = await fetch(`${s.baseUrl}/transfer-file/${first.transfer_file_id}`, { headers: H });
    const rec = await r.json() as Record<string, unknown>;
    for (const f of ['transfer_file_id', 'description', 'file_type', 'name', 'status', 'created_at', 'updated_at', 'completed_at', 'started_at',
      'downloaded_at', 'error_at', 'failed_at', 'error_message', 'file_size', 'lawsuits_count', 'download_url', 'download_url_expires_at']) {
      expect(rec, f).toHaveProperty(f);
    }
    const expires = Date.parse(String(rec.download_url_expires_at));
    expect(expires - Date.now()).toBeGreaterThan(290_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(300_000);
  });

  it('answers 404 for an unknown id', async () => {
    const r = await fetch(`${s.baseUrl}/transfer-file/00000000-0000-4000-8000-000000000000`, { headers: H });
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: { name: string } }).error.name).toBe('NotFound');
  });

  it('accepts only {status: downloaded|error, error_message?} on PATCH', async () => {
    const id = (await list('?status=completed')).body.page_data[1].transfer_file_id;
    const patch = (body: string) => fetch(`${s.baseUrl}/transfer-file/${id}`, { method: 'PATCH', headers: { ...H, 'content-type': 'application/json' }, body });
    for (const bad of ['{"status":"completed"}', '{"state":"downloaded"}', '{"status":"error","error_message":5}', 'not json', '["downloaded"]', '{"status":"downloaded","reason":"x"}']) {
      const r = await patch(bad);
      expect(r.status, bad).toBe(400);
      expect(((await r.json()) as { error: { name: string } }).error.name).toBe('ValidationError');
    }
    const ok = await patch('{"status":"error","error_message":"bad rows"}');
    expect(ok.status).toBe(200);
    const rec = await ok.json() as Rec;
    expect(rec.status).toBe('error');
    expect(rec.error_message).toBe('bad rows');
    expect(rec.error_at).toEqual(expect.any(String));
    const done = await (await patch('{"status":"downloaded"}')).json() as Rec;
    expect(done.status).toBe('downloaded');
    expect(done.downloaded_at).toEqual(expect.any(String));
  });
});
