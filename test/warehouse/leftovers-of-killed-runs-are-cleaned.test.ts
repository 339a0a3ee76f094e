import { afterAll, expect, test } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportParquet } from '../../src/warehouse/export.js';
import { openWorkCopy } from '../../src/warehouse/publish.js';
import { scratch } from '../support/pipeline.js';

// A killed run leaves DuckDB's spill folder (`warehouse.duckdb.work.tmp`) and half-written exports
// (`.exports.tmp-*`, `.exports.old-*`); the next run, holding the run lock, removes them.

const tmp = scratch();
afterAll(() => tmp.cleanup());

test('opening the work copy removes the spill folder a killed run left', async () => {
  const published = join(tmp.dir, 'w.duckdb');
  const spill = `${published}.work.tmp`; // docs/warehouse.md names it
  mkdirSync(spill, { recursive: true });
  writeFileSync(join(spill, 'duckdb_temp_storage-0.tmp'), Buffer.alloc(4096));
  const copy = await openWorkCopy(published);
  expect(existsSync(join(spill, 'duckdb_temp_storage-0.tmp'))).toBe(false);
  await copy.publish();
});

test('an export removes the half-written exports a killed one left, and keeps only its own', async () => {
  const copy = await openWorkCopy(join(tmp.dir, 'e.duckdb'));
  const target = join(tmp.dir, 'exports');
  mkdirSync(join(tmp.dir, '.exports.tmp-dead0001', 'lawsuits'), { recursive: true });
  mkdirSync(join(tmp.dir, '.exports.old-dead0002'), { recursive: true });
  mkdirSync(join(tmp.dir, '.other.tmp-keep'), { recursive: true });
  try {
    await exportParquet(copy.wh, target, { tables: ['runs'] });
  } finally {
    await copy.close();
  }
  expect(readdirSync(tmp.dir).filter((f) => f.startsWith('.'))).toEqual(['.other.tmp-keep']);
  expect(readdirSync(target)).toEqual(['runs']);
});

test('a kill between the two renames of an export leaves the previous export, which goes back in place', async () => {
  const target = join(tmp.dir, 'swap', 'exports');
  mkdirSync(join(tmp.dir, 'swap', '.exports.old-aaaa0001', 'lawsuits'), { recursive: true });
  mkdirSync(join(tmp.dir, 'swap', '.exports.tmp-aaaa0001', 'lawsuits'), { recursive: true });
  // The next export puts it back before anything else: one that then fails (its warehouse is closed) leaves it there.
  const copy = await openWorkCopy(join(tmp.dir, 's.duckdb'));
  await copy.close();
  await expect(exportParquet(copy.wh, target, { tables: ['runs'] })).rejects.toThrow();
  expect(readdirSync(target)).toEqual(['lawsuits']);
  expect(readdirSync(join(tmp.dir, 'swap'))).toEqual(['exports']);
});
