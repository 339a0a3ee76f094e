import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyComments } from '../../src/warehouse/comments.js';
import { MIGRATIONS } from '../../src/warehouse/migrations/index.js';
import { SCHEMA } from '../../src/warehouse/schema/index.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';
import { differencesFromDeclaration, duplicateKeys, tableNames } from './schema-catalog.js';

// A warehouse published by `npm start` on main before the schema was declared once (migrations 1..51, the transfer
// tables made by the transfer step itself: test/fixtures/README.md says how it was made) opens with today's code:
// every row of every table is still there with the same values, and the schema is then exactly the declared one.

const tmp = scratch('schema-main-');
/** The columns of attachments that migration 130 keeps as they were (it keyed the rows by id, the position dropped). */
const KEPT_ATTACHMENT_COLUMNS = ['code', 'instance', 'attachment_date', 'raw'];
const path = join(tmp.dir, 'warehouse.duckdb');
const before: Record<string, { count: number; sample: string; columns: string[] }> = {};
let applied: number[] = [];
let wh: Warehouse;

/**
 * A table's row count, and up to 25 rows in a fixed order as JSON text (the columns it had before the migrations,
 * or every column; JSON and decimals as text). A column a migration adds is the migration's to fill.
 */
async function contents(db: Warehouse, table: string, only?: readonly string[]): Promise<{ count: number; sample: string; columns: string[] }> {
  const [{ n }] = await db.all<{ n: number }>(`SELECT count(*) AS n FROM "${table}"`);
  const columns = only ?? (await db.all<{ name: string }>(`SELECT column_name AS name FROM duckdb_columns() WHERE table_name = $1 ORDER BY column_index`, [table])).map((c) => c.name);
  const rows = await db.all(`SELECT to_json(t)::VARCHAR AS j FROM (SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}") t ORDER BY to_json(t)::VARCHAR LIMIT 25`);
  return { count: Number(n), sample: JSON.stringify(rows), columns: [...columns] };
}

beforeAll(async () => {
  writeFileSync(path, gunzipSync(readFileSync(new URL('../fixtures/warehouse-made-by-main.duckdb.gz', import.meta.url))));
  const old = await Warehouse.open(path, { readOnly: true });
  // attachments were keyed by list position until migration 130, which keys them by id: what they hold is compared
  for (const t of await tableNames(old)) before[t] = await contents(old, t, t === 'attachments' ? KEPT_ATTACHMENT_COLUMNS : undefined);
  await old.close();
  wh = await Warehouse.open(path, { migrate: false });
  applied = await wh.migrate();
  await applyComments(wh);
});
afterAll(async () => {
  await wh.close();
  tmp.cleanup();
});

it('was made by main: loaded data in every core table, the transfer tables made outside the migrations', () => {
  for (const t of ['lawsuits', 'parties', 'lawyers', 'steps', 'responses_raw', 'search_hits', 'requests', 'runs', 'transfer_files', 'transfer_lawsuits', 'transfer_steps']) {
    expect(before[t]?.count, t).toBeGreaterThan(0);
  }
  expect(applied).toEqual(MIGRATIONS.filter((m) => m.version > 51).map((m) => m.version));
  expect(applied.length).toBeGreaterThan(0);
});

it('keeps every row of every table, with the same values', async () => {
  for (const [t, was] of Object.entries(before)) {
    if (t === 'schema_migrations') continue;
    const now = await contents(wh, t, was.columns);
    expect(now.count, t).toBe(was.count);
    expect(now.sample, t).toBe(was.sample);
  }
  // The ledger of migrations gains the new ones and keeps the old rows as they were.
  const versions = await wh.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  expect(versions.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  const [{ n }] = await wh.all<{ n: number }>(`SELECT count(*) AS n FROM schema_migrations WHERE version <= 51`);
  expect(Number(n)).toBe(before.schema_migrations.count);
});

it('then has exactly the declared schema, with every key unique', async () => {
  expect(await tableNames(wh)).toEqual(SCHEMA.tables.map((t) => t.name).sort());
  expect(await differencesFromDeclaration(wh, SCHEMA)).toEqual([]);
  expect(await duplicateKeys(wh)).toEqual([]);
});
