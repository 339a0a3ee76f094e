import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyComments } from '../../src/warehouse/comments.js';
import { SCHEMA } from '../../src/warehouse/schema/index.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';
import { declaredShapes, differencesFromDeclaration, tableNames } from './schema-catalog.js';

// Every migration applied to an empty file, plus the comments a publish applies, give exactly the declared
// schema (src/warehouse/schema/): the same tables, columns in the same order with the same types, nullability
// and defaults, the same keys, views and comments. The declaration's own DDL is what the file is compared with.

const tmp = scratch('schema-empty-');
let wh: Warehouse;

beforeAll(async () => {
  wh = await Warehouse.open(join(tmp.dir, 'wh.duckdb'));
  await applyComments(wh);
});
afterAll(async () => {
  await wh.close();
  tmp.cleanup();
});

it('has exactly the declared tables', async () => {
  expect(await tableNames(wh)).toEqual(SCHEMA.tables.map((t) => t.name).sort());
});

it('has the declared columns, types, nullability, defaults, keys, views and comments', async () => {
  expect(await differencesFromDeclaration(wh, SCHEMA)).toEqual([]);
});

it('is compared with something that can differ', async () => {
  // The comparison sees a type, a NOT NULL, a default and a key the declaration does not have.
  const declared = await declaredShapes(SCHEMA);
  expect(declared.columns.length).toBeGreaterThan(300);
  const altered = {
    ...SCHEMA,
    tables: SCHEMA.tables.map((t) => (t.name !== 'runs' ? t : {
      ...t, key: undefined,
      columns: t.columns.map((c) => (c.name === 'calls' ? { ...c, type: 'BIGINT' } : c.name === 'command' ? { ...c, notNull: true, default: "'run'" } : c)),
    })),
  };
  const diffs = await differencesFromDeclaration(wh, altered);
  expect(diffs.some((d) => d.startsWith('runs.calls:'))).toBe(true);
  expect(diffs.some((d) => d.startsWith('runs.command:'))).toBe(true);
  expect(diffs.some((d) => d.startsWith('keys:'))).toBe(true);
});
