import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { MIGRATIONS } from '../../src/warehouse/migrations/index.js';
import { sql } from '../../src/warehouse/migrations/migration.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// Replicated from /work/shared/tools/contract-check.mjs (the contract's required columns and keys).
const REQUIRED: Record<string, string[]> = {
  lawsuits: ['code', 'instance', 'tribunal_acronym', 'justice', 'tribunal', 'distribution_date', 'amount', 'status', 'phase', 'secrecy_level', 'name', 'updated_at', 'raw'],
  parties: ['code', 'instance', 'party_index', 'name', 'side', 'person_type', 'document', 'document_type'],
  lawyers: ['code', 'instance', 'party_index', 'lawyer_index', 'name', 'side', 'oab'],
  steps: ['code', 'instance', 'step_id', 'step_date', 'content', 'private'],
  subjects: ['code', 'instance', 'item_code', 'item_name'],
  classifications: ['code', 'instance', 'item_code', 'item_name'],
  attachments: ['code', 'instance', 'attachment_id', 'step_id', 'name', 'extension', 'status', 'raw'],
  attachment_files: ['code', 'instance', 'attachment_id', 'sha256', 'bytes', 'content_type', 'path', 'downloaded_at'],
  requests: ['request_id', 'search_type', 'search_key', 'status', 'on_demand', 'created_at', 'completed_at', 'run_id'],
  search_hits: ['request_id', 'code', 'instance'],
  responses_raw: ['response_id'],
  rejected_inputs: ['run_id', 'line', 'value', 'reason'],
  transfer_files: ['transfer_file_id', 'name', 'file_type', 'status', 'loaded_rows', 'loaded_at', 'error'],
  runs: ['run_id', 'started_at', 'finished_at', 'status'],
};
// Keys declared as PRIMARY KEY (small tables). The big ones (steps, parties, lawyers, subjects, classifications,
// courts, attachments, search_hits, responses_raw) are kept unique by the loader instead of an in-memory
// index: load-merges-idempotently.test.ts checks their uniqueness.
const KEYS: Record<string, string[]> = {
  lawsuits: ['code', 'instance'], requests: ['request_id'], rejected_inputs: ['run_id', 'line'], transfer_files: ['transfer_file_id'],
  runs: ['run_id'], request_pages: ['request_id', 'page'], attachment_files: ['sha256'], attachment_downloads: ['code', 'instance', 'attachment_id'],
};
const UNINDEXED = ['steps', 'parties', 'lawyers', 'subjects', 'classifications', 'courts', 'attachments', 'search_hits', 'responses_raw'];
const TYPES: Array<[string, string, string]> = [
  ['lawsuits', 'distribution_date', 'TIMESTAMP WITH TIME ZONE'], ['lawsuits', 'amount', 'DECIMAL(18,2)'],
  ['lawsuits', 'secrecy_level', 'INTEGER'], ['lawsuits', 'raw', 'JSON'], ['lawsuits', 'free_justice', 'BOOLEAN'],
  ['steps', 'private', 'BOOLEAN'], ['steps', 'step_date', 'TIMESTAMP WITH TIME ZONE'], ['requests', 'on_demand', 'BOOLEAN'],
  ['requests', 'created_at', 'TIMESTAMP WITH TIME ZONE'], ['runs', 'started_at', 'TIMESTAMP WITH TIME ZONE'],
];

const dir = mkdtempSync(join(tmpdir(), 'wh-mig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migrations', () => {
  test('create every contract table and column, with the contract keys and types', async () => {
    const wh = await Warehouse.open(join(dir, 'a.duckdb'));
    const cols = await wh.all<{ t: string; c: string; ty: string }>(
      `SELECT table_name t, column_name c, data_type ty FROM information_schema.columns WHERE table_schema = 'main'`);
    const have = new Set(cols.map((r) => `${r.t}.${r.c}`));
    const missing = Object.entries(REQUIRED).flatMap(([t, cs]) => cs.filter((c) => !have.has(`${t}.${c}`)).map((c) => `${t}.${c}`));
    expect(missing).toEqual([]);
    for (const [t, c, ty] of TYPES) expect(cols.find((r) => r.t === t && r.c === c)?.ty, `${t}.${c}`).toBe(ty);
    const pks = await wh.all<{ t: string; cols: string[] }>(
      `SELECT table_name t, constraint_column_names cols FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY'`);
    for (const [t, k] of Object.entries(KEYS)) expect(pks.find((p) => p.t === t)?.cols, t).toEqual(k);
    for (const t of UNINDEXED) expect(pks.find((p) => p.t === t), `${t} must not carry an in-memory key index`).toBeUndefined();
    await wh.close();
  });

  test('re-opening applies nothing and keeps the data', async () => {
    const path = join(dir, 'b.duckdb');
    const wh = await Warehouse.open(path);
    await wh.run(`INSERT INTO runs (run_id, started_at, status) VALUES ('r', now(), 'ok')`);
    await wh.close();
    const again = await Warehouse.open(path);
    expect(await again.migrate()).toEqual([]);
    const applied = await again.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(applied.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await again.all('SELECT run_id FROM runs')).toEqual([{ run_id: 'r' }]);
    await again.close();
  });

  test('a failing migration leaves no trace (one transaction each)', async () => {
    const path = join(dir, 'c.duckdb');
    const bad = [...MIGRATIONS, { version: 999, name: 'broken', changes: [sql('CREATE TABLE half (a INTEGER); SELECT * FROM no_such_table')] }];
    await expect(Warehouse.open(path, { migrations: bad })).rejects.toMatchObject({ code: 'WAREHOUSE_SQL' });
    const wh = await Warehouse.open(path);
    expect(await wh.all(`SELECT * FROM information_schema.tables WHERE table_name = 'half'`)).toEqual([]);
    expect((await wh.all<{ v: number }>('SELECT max(version) v FROM schema_migrations'))[0].v).toBe(MIGRATIONS.at(-1)!.version);
    await wh.close();
  });
});
