import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { dumpPayloadTables as dump, toItems, type Payload } from './support/payload-universe.js';

// A step stores NULL as its version while it is its lawsuit's (merge.ts, Source.parent): a newer crawl that
// repeats it as it was writes nothing to it. A step the newer crawl leaves out keeps the version it had,
// written down, so that a payload crawled in between still takes it. Migration 80 brings a warehouse whose steps
// all held their lawsuit's version written out (migration 60) to the same form.

const day = (d: number): string => `2026-01-0${d}T00:00:00.000Z`;
const crawl = (d: number, steps: Payload['steps']): Payload => ({ key: 0, request: 0, created: day(d), cached: false, crawled: day(d), steps });
const FIRST = crawl(1, [{ id: 's1', content: 'Distribuído por sorteio.' }, { id: 's2', content: 'Conclusos para decisão.' }]);
/** Newest: repeats s1 as it was and leaves s2 out. */
const THIRD = crawl(3, [{ id: 's1', content: 'Distribuído por sorteio.' }]);
/** Crawled between them, loaded last: changes both; only s2, which the newest left out, takes it. */
const SECOND = crawl(2, [{ id: 's1', content: 'Redistribuído.' }, { id: 's2', content: 'Julgado procedente o pedido.' }]);
const ITEMS = toItems([FIRST, THIRD, SECOND]);

let wh: Warehouse;
beforeEach(async () => { wh = await Warehouse.open(':memory:'); });
afterEach(async () => { await wh?.close(); });

const load = (items: typeof ITEMS, run: string) => loadResponseItems(wh, items, { runId: run });

/**
 * Each step's content and its stored version: "lawsuit's" (NULL), or the response its payload came in (a version
 * ends with the response id, merge.ts versionSql; toItems numbers them r0, r1, r2 in ITEMS' order).
 */
async function steps(): Promise<Array<{ step_id: string; content: string; version: string }>> {
  return wh.all(`SELECT step_id, content, coalesce(right(payload_version, 2), 'lawsuit''s') AS version FROM steps ORDER BY step_id`);
}

it('a step keeps NULL while its lawsuit\'s newest payload carries it, and its own version once a newer one leaves it out', async () => {
  await load([ITEMS[0]], 'run-1');
  expect(await steps()).toEqual([
    { step_id: 's1', content: 'Distribuído por sorteio.', version: 'lawsuit\'s' },
    { step_id: 's2', content: 'Conclusos para decisão.', version: 'lawsuit\'s' },
  ]);
  await load([ITEMS[1]], 'run-2');
  expect(await steps()).toEqual([
    { step_id: 's1', content: 'Distribuído por sorteio.', version: 'lawsuit\'s' },
    { step_id: 's2', content: 'Conclusos para decisão.', version: 'r0' },
  ]);
  await load([ITEMS[2]], 'run-3');
  expect(await steps()).toEqual([
    { step_id: 's1', content: 'Distribuído por sorteio.', version: 'lawsuit\'s' },
    { step_id: 's2', content: 'Julgado procedente o pedido.', version: 'r2' },
  ]);
});

it('migration 80 gives a warehouse whose steps held their lawsuit\'s version written out the tables of one that never did', async () => {
  const fresh = await Warehouse.open(':memory:');
  try {
    for (const db of [fresh, wh]) await loadResponseItems(db, ITEMS.slice(0, 2), { runId: 'run-1' });
    // As migration 60 and the merge before migration 80 left them: every step's version written out.
    const written = await wh.run(`UPDATE steps SET payload_version = l.payload_version FROM lawsuits l
      WHERE steps.code = l.code AND steps.instance = l.instance AND steps.payload_version IS NULL`);
    expect(written).toBe(1);
    await wh.run('DELETE FROM schema_migrations WHERE version = 80');
    expect(await wh.migrate()).toEqual([80]);
    expect(await dump(wh)).toEqual(await dump(fresh));
    for (const db of [fresh, wh]) await loadResponseItems(db, ITEMS.slice(2), { runId: 'run-2' });
    expect(await dump(wh)).toEqual(await dump(fresh));
  } finally {
    await fresh.close();
  }
});
