import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetReadObjects } from 'hyparquet';
import { FLAT_SCHEMAS, generatedFlatSource, type FlatRow } from '../../src/sandbox/transfer/flat-source.js';
import type { TransferSummary } from '../../src/pipeline/transfer.js';
import { harness, type Harness } from './helpers.js';

// Every file type is loaded, and the warehouse holds exactly the rows of the files: counted, and a sample
// compared field by field against the sandbox's own generator (what the files were written from).

const SEED = 7;
let h: Harness;
let first: TransferSummary;

beforeAll(async () => {
  h = await harness({ seed: SEED, catalogue: { count: 12, errorCount: 2, maxBytes: 600 * 1024 } });
  first = await h.run();
});
afterAll(async () => h.close());

const KEY: Record<string, string[]> = { lawsuits: ['code', 'instance'], parties: ['code', 'instance', 'party_index'], steps: ['code', 'instance', 'step_id'] };

function expectedRows(file: { kind: keyof typeof FLAT_SCHEMAS; stream: number }, count: number): FlatRow[] {
  const src = generatedFlatSource(SEED);
  const out: FlatRow[] = [];
  for (let i = 0; out.length < count; i++) out.push(...src.rows(file.kind, file.stream, i));
  return out.slice(0, count);
}

function norm(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'bigint') return Number(v);
  return v;
}

describe('a run over the default catalogue', () => {
  it('loads every completed file, of all three types, and skips the provider\'s failed ones', async () => {
    const completed = h.server.ctx.store.files.filter((f) => f.status === 'completed');
    expect(first.listed).toBe(10);
    expect(first.loaded).toBe(10);
    expect(first.failed).toEqual([]);
    expect(new Set(completed.map((f) => f.file_type))).toEqual(new Set(['csv', 'json', 'parquet']));
    const remote = await Promise.all(completed.map((f) => h.server.ctx.store.record(h.server.ctx.store.find(f.transfer_file_id)!)));
    expect(remote.every((r) => r.status === 'downloaded' && r.downloaded_at)).toBe(true);
    const local = await h.wh.all<{ status: string; n: number }>('SELECT status, count(*)::INTEGER n FROM transfer_files GROUP BY status');
    expect(local).toEqual([{ status: 'downloaded', n: 10 }]);
  });

  it('holds as many rows per file as the file has, and the sample equals the file field by field', async () => {
    let compared = 0;
    for (const f of h.server.ctx.store.files.filter((x) => x.hasContent)) {
      const info = await h.server.ctx.content.info(f);
      const table = `transfer_${f.kind}`;
      const [{ n }] = await h.wh.all<{ n: number }>(`SELECT count(*)::INTEGER n FROM ${table} WHERE transfer_file_id = ?`, [f.transfer_file_id]);
      expect(n, `${f.file_type} ${f.kind}`).toBe(info.rows);
      const [rec] = await h.wh.all<{ loaded_rows: number; file_type: string }>('SELECT loaded_rows, file_type FROM transfer_files WHERE transfer_file_id = ?', [f.transfer_file_id]);
      expect(rec).toEqual({ loaded_rows: info.rows, file_type: f.file_type });
      const want = expectedRows(f, info.rows);
      const step = Math.max(1, Math.floor(want.length / 25));
      for (let i = 0; i < want.length; i += step) {
        const w = want[i];
        const key = KEY[f.kind];
        const got = await h.wh.all(`SELECT * EXCLUDE (transfer_file_id, loaded_at) FROM ${table} WHERE transfer_file_id = ? AND ${key.map((k) => `"${k}" = ?`).join(' AND ')}`,
          [f.transfer_file_id, ...key.map((k) => w[k])]);
        expect(got).toHaveLength(1);
        for (const col of FLAT_SCHEMAS[f.kind]) {
          expect(norm(got[0][col.name]), `${f.file_type} ${f.kind} row ${i} ${col.name}`).toEqual(norm(w[col.name]));
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('reads the same rows from a parquet file as an independent reader (hyparquet) does', async () => {
    const f = h.server.ctx.store.files.find((x) => x.file_type === 'parquet' && x.hasContent)!;
    const rec = await h.api.get(f.transfer_file_id);
    const path = `${h.dir}/independent.parquet`;
    await h.api.download(rec.download_url, path, { expectedSize: rec.file_size });
    const buf = readFileSync(path);
    const rows = await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) });
    const [{ n }] = await h.wh.all<{ n: number }>(`SELECT count(*)::INTEGER n FROM transfer_${f.kind} WHERE transfer_file_id = ?`, [f.transfer_file_id]);
    expect(rows.length).toBe(n);
    const last = rows[rows.length - 1] as Record<string, unknown>;
    const got = await h.wh.all(`SELECT code, instance FROM transfer_${f.kind} WHERE transfer_file_id = ? AND code = ?`, [f.transfer_file_id, last.code]);
    expect(got.some((g) => g.instance === Number(last.instance))).toBe(true);
  });

  it('keeps documents with their leading zeros and timestamps as TIMESTAMPTZ, amounts as DECIMAL(18,2)', async () => {
    const types = await h.wh.all<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_name LIKE 'transfer_%' AND column_name IN ('document', 'step_date', 'amount', 'distribution_date')`);
    const byCol = Object.fromEntries(types.map((t) => [`${t.table_name}.${t.column_name}`, t.data_type]));
    expect(byCol).toMatchObject({ 'transfer_parties.document': 'VARCHAR', 'transfer_steps.step_date': 'TIMESTAMP WITH TIME ZONE', 'transfer_lawsuits.amount': 'DECIMAL(18,2)' });
    const [{ n }] = await h.wh.all<{ n: number }>(`SELECT count(*)::INTEGER n FROM transfer_parties WHERE length(document) <> 11`);
    expect(n).toBe(0);
  });

  it('never loads a file twice across runs, even when the provider lists it again', async () => {
    const before = await h.wh.all<{ t: string; n: number }>(`SELECT 'l' t, count(*)::INTEGER n FROM transfer_lawsuits UNION ALL SELECT 'p', count(*)::INTEGER FROM transfer_parties UNION ALL SELECT 's', count(*)::INTEGER FROM transfer_steps ORDER BY t`);
    const again = await h.run({ runId: 'run-2' });
    expect(again).toMatchObject({ listed: 0, loaded: 0, rows: 0 });
    // The provider forgets the PATCHes (it lists the files as completed again): still nothing is reloaded.
    for (const f of h.server.ctx.store.files) {
      const live = h.server.ctx.store.find(f.transfer_file_id)!;
      if (live.status === 'downloaded') live.status = 'completed';
    }
    await h.reopen();
    const third = await h.run({ runId: 'run-3' });
    expect(third).toMatchObject({ listed: 10, skipped: 10, loaded: 0, rows: 0 });
    const after = await h.wh.all(`SELECT 'l' t, count(*)::INTEGER n FROM transfer_lawsuits UNION ALL SELECT 'p', count(*)::INTEGER FROM transfer_parties UNION ALL SELECT 's', count(*)::INTEGER FROM transfer_steps ORDER BY t`);
    expect(after).toEqual(before);
  });
});
