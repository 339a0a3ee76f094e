import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { toItems, type Payload } from './support/payload-universe.js';

// A list the newer payload takes is written only where its rows differ from the stored ones (merge.ts,
// listStatements): a newer crawl repeating the parties as they were leaves their rows where they are (same
// rowid), one that changes them replaces them, and one that empties them deletes them. The tables themselves
// are the merge properties' business; this is about what is written.

const day = (d: number): string => `2026-01-0${d}T00:00:00.000Z`;
const crawl = (d: number, parties: string[], subjects: string[]): Payload =>
  ({ key: 0, request: 0, created: day(d), cached: false, crawled: day(d), parties, subjects });

let wh: Warehouse;
beforeEach(async () => { wh = await Warehouse.open(':memory:'); });
afterEach(async () => { await wh?.close(); });

const rows = (table: 'parties' | 'subjects') =>
  wh.all<{ id: number; value: string }>(`SELECT rowid::INTEGER AS id, ${table === 'parties' ? 'name' : 'item_code'} AS value FROM ${table} ORDER BY value`);

it('a repeated list keeps its rows; a changed one is replaced; an emptied one is deleted', async () => {
  const [first, same, changed, emptied] = toItems([
    crawl(1, ['Ana', 'Banco'], ['7698']),
    crawl(2, ['Ana', 'Banco'], ['7698']),
    crawl(3, ['Ana', 'Carla'], ['7698']),
    crawl(4, ['Ana', 'Carla'], []),
  ]);
  await loadResponseItems(wh, [first], { runId: 'r1' });
  const parties = await rows('parties');
  const subjects = await rows('subjects');
  expect(parties.map((r) => r.value)).toEqual(['Ana', 'Banco']);

  await loadResponseItems(wh, [same], { runId: 'r2' });
  expect(await rows('parties')).toEqual(parties);
  expect(await rows('subjects')).toEqual(subjects);

  await loadResponseItems(wh, [changed], { runId: 'r3' });
  const replaced = await rows('parties');
  expect(replaced.map((r) => r.value)).toEqual(['Ana', 'Carla']);
  expect(replaced.filter((r) => parties.some((p) => p.id === r.id))).toEqual([]);
  expect(await rows('subjects')).toEqual(subjects);

  await loadResponseItems(wh, [emptied], { runId: 'r4' });
  expect(await rows('subjects')).toEqual([]);
  expect(await rows('parties')).toEqual(replaced);
  // The lawsuit's row says which payload its lists came from: the newest, each time.
  const [{ version }] = await wh.all<{ version: string }>(`SELECT right(payload_version, 2) AS version FROM lawsuits`);
  expect(version).toBe('r3');
});

it('a load that fails between a changed list\'s delete and its insert leaves the stored list, and the next load writes it', async () => {
  const [first, changed] = toItems([crawl(1, ['Ana', 'Banco'], ['7698']), crawl(2, ['Ana', 'Carla'], ['10433'])]);
  await loadResponseItems(wh, [first], { runId: 'r1' });
  const before = { parties: await rows('parties'), subjects: await rows('subjects') };
  const realRun = wh.run.bind(wh);
  wh.run = async (sql, params) => {
    if (sql.startsWith('INSERT INTO parties')) throw new Error('killed');
    return realRun(sql, params);
  };
  await expect(loadResponseItems(wh, [changed], { runId: 'r2' })).rejects.toThrow('killed');
  wh.run = realRun;
  expect({ parties: await rows('parties'), subjects: await rows('subjects') }).toEqual(before);
  await loadResponseItems(wh, [changed], { runId: 'r2' });
  expect((await rows('parties')).map((r) => r.value)).toEqual(['Ana', 'Carla']);
  expect((await rows('subjects')).map((r) => r.value)).toEqual(['10433']);
});
