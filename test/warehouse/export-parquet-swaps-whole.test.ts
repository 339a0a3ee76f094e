import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { exportParquet } from '../../src/warehouse/export.js';
import { EXPORT_TABLES } from '../../src/warehouse/schema/exports.js';
import { finishRun, recordRejections, startRun, upsertRequest } from '../../src/warehouse/ledger.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { recordReads } from '../../src/warehouse/read-ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { errorItem, lawsuitItem, richLawsuit } from './fixtures.js';

let dir: string;
let wh: Warehouse;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wh-export-'));
  wh = await Warehouse.open(join(dir, 'w.duckdb'));
  const runId = await startRun(wh, { command: 'run' });
  const noTribunal = richLawsuit({ code: '0000003-00.2020.8.26.0100' });
  delete noTribunal.tribunal_acronym;
  await loadResponseItems(wh, [
    lawsuitItem(richLawsuit()),
    lawsuitItem(richLawsuit({ code: '5059111-78.2025.4.02.5101', tribunal_acronym: 'TRF2', amount: 0.1, free_justice: false })),
    lawsuitItem(noTribunal),
    // an application_error item, so that the application_errors export has one
    errorItem(),
  ], { runId });
  await upsertRequest(wh, { request_id: 'req-1', search_type: 'cpf', search_key: '09206529722', on_demand: false, status: 'completed',
    created_at: '2024-03-01T00:00:00Z', completed_at: new Date('2024-03-01T00:05:00Z'), run_id: runId, search: { search_type: 'cpf' } });
  await recordRejections(wh, runId, [{ line: 3, value: '123', reason: 'bad check digits' }], 'documents.csv');
  // A row of the transfer ledger, so that its export has one (the transfer tests write it the pipeline's way).
  await wh.run(`INSERT INTO transfer_files (transfer_file_id, name, file_type, status, file_size, loaded_rows)
    VALUES ('tf-1', 'a-part-00001.parquet', 'parquet', 'downloaded', 12345678901, 10)`);
  // A run of a tracking read on a trackings night, so that the tracking_runs export has one.
  await recordReads(wh, [{ kind: 'tracking_page', readId: runId, runId, cursor: { page: 1, seen: [] }, read: 1, skipped: 0, pages: 1, done: true,
    runs: [{ requestId: 'run-1', trackingId: 'tr-1', searchType: 'cpf', searchKey: '09206529722', items: 1 }] }]);
  // A refused lawsuit-level read (two levels), as the lawsuits stage records it.
  await wh.run(`INSERT INTO lawsuit_read_refusals (code, refused_at, run_id, error_code, reason)
    VALUES ('0000003-00.2020.8.26.0100', current_timestamp, $1, 'API_SECRET_LAWSUIT', 'secret')`, [runId]);
  await finishRun(wh, runId, { status: 'ok', calls: 10, callsByStatus: { 200: 10 }, lawsuits: 3, summary: { note: 'x' } });
});
afterAll(async () => {
  await wh.close();
  rmSync(dir, { recursive: true, force: true });
});

const plain = (v: unknown): unknown => {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString();
  return v;
};
const norm = (rows: Array<Record<string, unknown>>, order: string[]): Array<Record<string, unknown>> =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)])))
    .sort((a, b) => order.map((k) => String(a[k])).join('|').localeCompare(order.map((k) => String(b[k])).join('|')));

async function readFolder(folder: string): Promise<{ rows: Array<Record<string, unknown>>; codecs: Set<string> }> {
  const rows: Array<Record<string, unknown>> = [];
  const codecs = new Set<string>();
  const walk = async (d: string): Promise<void> => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) { await walk(p); continue; }
      const buf = readFileSync(p);
      const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
      for (const rg of parquetMetadata(file).row_groups) for (const c of rg.columns) codecs.add(String(c.meta_data?.codec));
      rows.push(...(await parquetReadObjects({ file, compressors })) as Array<Record<string, unknown>>);
    }
  };
  await walk(folder);
  return { rows, codecs };
}

describe('exportParquet', () => {
  test('every table is a folder of zstd Parquet whose rows equal the warehouse', async () => {
    const out = join(dir, 'exports');
    const res = await exportParquet(wh, out);
    expect(res.tables.map((t) => t.table).sort()).toEqual(EXPORT_TABLES.map((t) => t.table).sort());
    for (const t of EXPORT_TABLES) {
      const expected = await wh.all<Record<string, unknown>>(t.select);
      const { rows, codecs } = await readFolder(join(out, t.table));
      expect(codecs, t.table).toEqual(new Set(['ZSTD']));
      const keys = Object.keys(expected[0] ?? {}).filter((k) => k !== 'loaded_at').slice(0, 4);
      expect(norm(rows, keys), t.table).toEqual(norm(expected, keys));
      expect(res.tables.find((x) => x.table === t.table)?.rows).toBe(expected.length);
    }
    expect((await wh.all<{ n: number }>('SELECT count(*) n FROM lawsuits'))[0].n).toBe(3);
  });

  test('types survive: timestamps, decimals, booleans; large tables are hive-partitioned', async () => {
    const out = join(dir, 'exports');
    const { rows } = await readFolder(join(out, 'lawsuits'));
    const al = rows.find((r) => r.code === '0710802-55.2018.8.02.0001')!;
    expect(al.distribution_date).toBeInstanceOf(Date);
    expect((al.distribution_date as Date).toISOString()).toBe('2018-03-04T10:11:12.000Z');
    expect(al.amount).toBe(12345.67);
    expect(al.free_justice).toBe(true);
    expect(readdirSync(join(out, 'lawsuits')).sort()).toEqual(expect.arrayContaining(['tribunal_acronym=TJAL', 'tribunal_acronym=TRF2']));
    expect(readdirSync(join(out, 'steps')).some((d) => /^step_year=\d{4}$/.test(d))).toBe(true);
    const file = readFileSync(join(out, 'lawsuits', 'tribunal_acronym=TJAL', readdirSync(join(out, 'lawsuits', 'tribunal_acronym=TJAL'))[0]));
    const schema = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength)).schema;
    const amount = schema.find((s) => s.name === 'amount')!;
    expect(amount.converted_type).toBe('DECIMAL');
    expect([amount.precision, amount.scale]).toEqual([18, 2]);
    const ts = schema.find((s) => s.name === 'distribution_date')!;
    expect(ts.logical_type).toMatchObject({ type: 'TIMESTAMP', isAdjustedToUTC: true });
    expect(schema.find((s) => s.name === 'raw')).toBeUndefined();
  });

  test('a second export replaces the first whole; a failed one leaves the previous export and no temp folder', async () => {
    const out = join(dir, 'swap');
    await exportParquet(wh, out, { tables: ['lawsuits', 'runs'] });
    expect(readdirSync(out).sort()).toEqual(['lawsuits', 'runs']);
    await exportParquet(wh, out, { tables: ['subjects'] });
    expect(readdirSync(out)).toEqual(['subjects']);
    const realRun = wh.run.bind(wh);
    let copies = 0;
    wh.run = async (sql, params) => {
      if (sql.startsWith('COPY') && ++copies === 2) throw new Error('disk full (simulated)');
      return realRun(sql, params);
    };
    try {
      await expect(exportParquet(wh, out, { tables: ['lawsuits', 'steps', 'parties'] })).rejects.toMatchObject({ code: 'WAREHOUSE_EXPORT' });
    } finally {
      wh.run = realRun;
    }
    expect(readdirSync(out)).toEqual(['subjects']);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-') || n.includes('.old-'))).toEqual([]);
    expect(existsSync(join(out, 'subjects', 'data_0.parquet'))).toBe(true);
  });
});
