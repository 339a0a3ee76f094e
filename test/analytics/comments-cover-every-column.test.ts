import { afterAll, beforeAll, expect, it } from 'vitest';
import { join } from 'node:path';
import { applyComments } from '../../src/warehouse/comments.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// Every table, view and column an analyst can see carries a comment; a column added without its sentence in
// its table's declaration (src/warehouse/schema/) fails here.

const tmp = scratch('comments-');
let wh: Warehouse;

beforeAll(async () => {
  wh = await Warehouse.open(join(tmp.dir, 'wh.duckdb'));
  // A transfer file that brings a column of its own (transfer-load.ts adds it as the file named it).
  await wh.run('ALTER TABLE transfer_lawsuits ADD COLUMN IF NOT EXISTS judge_name VARCHAR');
});
afterAll(async () => {
  await wh.close();
  tmp.cleanup();
});

const uncommented = (sql: string) => wh.all<{ what: string }>(sql);

it('comments every table, view and column of the main schema', async () => {
  const before = await uncommented(`SELECT table_name || '.' || column_name AS what FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND coalesce(comment, '') = ''`);
  expect(before.length).toBeGreaterThan(100);

  const first = await applyComments(wh);
  expect(first.missing).toEqual([]);
  expect(first.applied).toBeGreaterThan(before.length);

  const columns = await uncommented(`SELECT table_name || '.' || column_name AS what FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND coalesce(trim(comment), '') = ''`);
  expect(columns.map((r) => r.what)).toEqual([]);
  const objects = await uncommented(`
    SELECT table_name AS what FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND coalesce(trim(comment), '') = ''
    UNION ALL SELECT view_name FROM duckdb_views() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND coalesce(trim(comment), '') = ''`);
  expect(objects.map((r) => r.what)).toEqual([]);
  const [judge] = await wh.all<{ comment: string }>(`SELECT comment FROM duckdb_columns() WHERE table_name = 'transfer_lawsuits' AND column_name = 'judge_name'`);
  expect(judge.comment).toMatch(/transfer file added/);

  // Applying again changes nothing; a column nobody described is reported, not silently commented.
  expect((await applyComments(wh)).applied).toBe(0);
  await wh.run('ALTER TABLE lawsuits ADD COLUMN mystery_flag BOOLEAN');
  const again = await applyComments(wh);
  expect(again.missing).toEqual(['lawsuits.mystery_flag']);
});
