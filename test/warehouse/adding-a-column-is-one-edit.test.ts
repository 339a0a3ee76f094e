import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyComments } from '../../src/warehouse/comments.js';
import { exportTables } from '../../src/warehouse/schema/exports.js';
import { mergeStatements } from '../../src/warehouse/merge.js';
import { tableDdl } from '../../src/warehouse/schema/ddl.js';
import { SCHEMA } from '../../src/warehouse/schema/index.js';
import { stageColumns } from '../../src/warehouse/schema/staging.js';
import type { Column, Schema } from '../../src/warehouse/schema/types.js';
import { MIGRATIONS } from '../../src/warehouse/migrations/index.js';
import { addColumns, type Migration } from '../../src/warehouse/migrations/migration.js';
import { ledgerStatement, migrationStatements } from '../../src/warehouse/migrations/statements.js';
import { columnShapes, comments, declaredShapes } from './schema-catalog.js';

// One edit to a scratch copy of the declaration — a column `rapporteur` on lawsuits, staged as text, taken from the
// newest payload that carries it — and every statement derived from the declaration carries it: the DDL, the
// staging table, the merges (a second, newer payload without a rapporteur keeps the first one's; an older one loaded
// last changes nothing a newer one carried), the COMMENT and the export. The migration that brings it to files
// in the field names it and nothing more: its DDL comes from the declaration, and no older migration changes.

const rapporteur: Column = { name: 'rapporteur', type: 'VARCHAR', stage: 'VARCHAR', merge: 'carried', comment: 'the rapporteur of the lawsuit' };
const edited: Schema = {
  ...SCHEMA,
  tables: SCHEMA.tables.map((t) => (t.name === 'lawsuits' ? { ...t, columns: [...t.columns, rapporteur] } : t)),
};
const lawsuits = edited.tables.find((t) => t.name === 'lawsuits')!;

let instance: DuckDBInstance;
let con: DuckDBConnection;
const all = async <T>(sql: string): Promise<T[]> => (await con.runAndReadAll(sql)).getRowObjectsJS() as T[];
/** The scratch database as the comment step takes a warehouse. */
const db = { all, run: async (sql: string) => { await con.run(sql); return 0; }, transaction: async <T>(fn: () => Promise<T>) => fn() };

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  con = await instance.connect();
  for (const t of edited.tables) await con.run(tableDdl(t));
});
afterAll(() => {
  con.closeSync();
  instance.closeSync();
});

/** Stages one lawsuit payload in the edited schema's staging tables (as stage.ts makes them) and merges it. */
async function load(values: { crawled_at: string; rapporteur: string | null; name: string | null }): Promise<void> {
  for (const [t, cols] of Object.entries(stageColumns(edited))) {
    await con.run(`CREATE OR REPLACE TEMP TABLE stg_${t} (${cols.map(([c, ty]) => `"${c}" ${ty}`).join(', ')})`);
  }
  const q = (v: string | null) => (v === null ? 'NULL' : `'${v}'`);
  await con.run(`INSERT INTO stg_lawsuits (code, instance, crawled_at, rapporteur, name, raw, run_id, has_parties)
    VALUES ('0001234-56.2020.8.26.0100', 1, ${q(values.crawled_at)}, ${q(values.rapporteur)}, ${q(values.name)}, '{}', 'r1', false)`);
  const m = mergeStatements(edited);
  await con.run(m.mergeLawsuits);
  for (const sql of [m.lawsuits.delete, m.lawsuits.insert, m.lawsuits.fill]) await con.run(sql);
}

it('the DDL and the staging table carry it', () => {
  expect(tableDdl(lawsuits)).toContain('"rapporteur" VARCHAR');
  expect(stageColumns(edited).lawsuits).toContainEqual(['rapporteur', 'VARCHAR']);
  // ...and the real declaration does not: the edit is what adds it.
  expect(stageColumns(SCHEMA).lawsuits.map(([c]) => c)).not.toContain('rapporteur');
});

it('the merge inserts it, and keeps it when a newer payload leaves it out', async () => {
  await load({ crawled_at: '2024-01-01T00:00:00Z', rapporteur: 'Dra. Ana', name: 'A x B' });
  await load({ crawled_at: '2024-02-01T00:00:00Z', rapporteur: null, name: 'A x B (renamed)' });
  expect(await all('SELECT rapporteur, name FROM lawsuits')).toEqual([{ rapporteur: 'Dra. Ana', name: 'A x B (renamed)' }]);
  await load({ crawled_at: '2024-03-01T00:00:00Z', rapporteur: 'Dr. Rui', name: null });
  expect(await all('SELECT rapporteur, name FROM lawsuits')).toEqual([{ rapporteur: 'Dr. Rui', name: 'A x B (renamed)' }]);
  await load({ crawled_at: '2023-12-01T00:00:00Z', rapporteur: 'Dr. Old', name: 'old name' });
  expect(await all('SELECT rapporteur, name FROM lawsuits')).toEqual([{ rapporteur: 'Dr. Rui', name: 'A x B (renamed)' }]);
});

it('its COMMENT is applied', async () => {
  // The real declaration does not know the column: applying it reports it missing, and leaves it bare.
  expect((await applyComments(db, SCHEMA)).missing).toContain('lawsuits.rapporteur');
  expect((await comments(db))['lawsuits.rapporteur']).toBeNull();
  expect((await applyComments(db, edited)).missing).toEqual([]);
  expect((await comments(db))['lawsuits.rapporteur']).toBe('the rapporteur of the lawsuit');
});

it('the export writes it', async () => {
  const exp = exportTables(edited).find((t) => t.table === 'lawsuits')!;
  const cols = (await all<{ column_name: string }>(`DESCRIBE ${exp.select}`)).map((r) => r.column_name);
  expect(cols).toContain('rapporteur');
  expect(cols).not.toContain('raw');
});

it('its migration names it; the DDL comes from the declaration and no older migration changes', async () => {
  const m: Migration = { version: 62, name: 'the rapporteur', changes: [addColumns('lawsuits', ['rapporteur'])] };
  const history = [...MIGRATIONS, m];
  expect(migrationStatements(m, history, edited)).toEqual(['ALTER TABLE "lawsuits" ADD COLUMN "rapporteur" VARCHAR']);
  for (const old of MIGRATIONS) expect(migrationStatements(old, history, edited), `migration ${old.version}`).toEqual(migrationStatements(old, MIGRATIONS, SCHEMA));
  // Every migration on an empty database gives the edited declaration, column for column; the ones before it
  // give a lawsuits table without the column.
  const scratchDb = await DuckDBInstance.create(':memory:');
  const c = await scratchDb.connect();
  try {
    const shapes = () => columnShapes({ all: async <T>(sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJS() as T[] });
    await c.run(ledgerStatement(history, edited));
    for (const x of MIGRATIONS) for (const sql of migrationStatements(x, history, edited)) await c.run(sql);
    const before = (await shapes()).filter((s) => s.table === 'lawsuits').map((s) => s.column);
    expect(before).toContain('code');
    expect(before).not.toContain('rapporteur');
    for (const sql of migrationStatements(m, history, edited)) await c.run(sql);
    expect(await shapes()).toEqual((await declaredShapes(edited)).columns);
  } finally {
    c.closeSync();
    scratchDb.closeSync();
  }
});
