import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../src/spec/types.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { rebuildFromRaw } from '../../src/warehouse/rebuild.js';
import { SCHEMA } from '../../src/warehouse/schema/index.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { dumpPayloadTables as dump, reference, scenarioArb, toItems, type Payload, type Plan } from './support/payload-universe.js';

// The warehouse is a function of the set of payloads the provider sent (docs/warehouse.md, "The merge rule"): the same set,
// loaded in any order, in any split into nights and batches, with any payload repeated, gives the same tables,
// `rebuild` gives them again, and every column holds what the rule picks, as an independent reference written
// in plain TypeScript over the same payloads says. The payloads come from a small universe (three lawsuits,
// three crawl times) so that partial views, equal versions, null against absent fields, lists present, absent
// and empty, and steps edited and added meet often. LAWSUIT_PROPERTY_RUNS=1000 runs a bigger search.

const RUNS = Number(process.env.LAWSUIT_PROPERTY_RUNS ?? 15);
/**
 * A run takes under a second here (25 runs: 19 s alone, 76 s in the whole suite on 2 cores, so 15 in the suite);
 * a bigger search gets the time it needs.
 */
const TIMEOUT = Math.max(120_000, RUNS * 4_000);
let a: Warehouse;
let b: Warehouse;

beforeAll(async () => {
  a = await Warehouse.open(':memory:');
  b = await Warehouse.open(':memory:');
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

/** Every table of the declaration emptied: one warehouse serves every run of a property (opening one costs ~100 ms). */
async function emptied(wh: Warehouse): Promise<Warehouse> {
  await wh.transaction(async () => {
    for (const t of SCHEMA.tables) await wh.run(`DELETE FROM ${t.name}`);
  });
  return wh;
}

/** Loads the items as `plan` says: its order, cut into consecutive nights (runs), each in batches of its size. */
async function loadAs(wh: Warehouse, items: readonly ResponseItem[], plan: Plan): Promise<void> {
  const perNight = Math.ceil(plan.order.length / plan.nights);
  for (let night = 0; night < plan.nights; night++) {
    const runId = `run-${night}`;
    await wh.run(`INSERT INTO runs (run_id, started_at, status) VALUES ($1, TIMESTAMPTZ '2026-11-01' + INTERVAL ($2) MINUTE, 'ok')`, [runId, night]);
    const tonight = plan.order.slice(night * perNight, (night + 1) * perNight).map((i) => items[i]);
    if (tonight.length > 0) await loadResponseItems(wh, tonight, { runId, batchSize: plan.batch });
  }
}

describe('the merge is a function of the set of payloads', () => {
  it('any order, any nights and batches, any repetition: the same tables; and rebuild gives them again', async () => {
    await fc.assert(fc.asyncProperty(scenarioArb, async ({ payloads, first, second }) => {
      const items = toItems(payloads);
      await loadAs(await emptied(a), items, first);
      await loadAs(await emptied(b), items, second);
      const expected = await dump(a);
      expect(await dump(b)).toEqual(expected);
      await rebuildFromRaw(b);
      expect(await dump(b)).toEqual(expected);
    }), { numRuns: RUNS });
  }, TIMEOUT);

  it('each column holds what the rule picks, as the reference computes it', async () => {
    await fc.assert(fc.asyncProperty(scenarioArb, async ({ payloads, first }) => {
      await loadAs(await emptied(a), toItems(payloads), first);
      const want = reference(payloads, first);
      const got = {
        lawsuits: await a.all(`SELECT code, instance, status, phase, amount::VARCHAR AS amount, name, secrecy_level,
            epoch_ms(crawled_at)::DOUBLE AS crawled_at, epoch_ms(updated_at)::DOUBLE AS updated_at, response_id, raw::VARCHAR AS raw,
            first_seen_run, last_seen_run, last_step_id, steps_count, whole_step_id, whole_steps_count,
            epoch_ms(whole_at)::DOUBLE AS whole_at, whole_seen
          FROM lawsuits ORDER BY code, instance`),
        parties: await a.all('SELECT code, instance, party_index, name FROM parties ORDER BY ALL'),
        subjects: await a.all('SELECT code, instance, item_code FROM subjects ORDER BY ALL'),
        steps: await a.all(`SELECT code, instance, step_id, content, epoch_ms(step_date)::DOUBLE AS step_date, raw::VARCHAR AS raw FROM steps ORDER BY ALL`),
        attachments: await a.all('SELECT code, instance, name FROM attachments ORDER BY ALL'),
        hits: await a.all('SELECT request_id, code, instance, response_id FROM search_hits ORDER BY ALL'),
      };
      expect(got).toEqual(want);
    }), { numRuns: RUNS });
  }, TIMEOUT);

  it('holds a partial view loaded after the full one it is newer than, and the other way round', async () => {
    // A search by document returns the lawsuit without phase, status or steps, crawled later; the lawsuit-number
    // search returns it whole, crawled earlier. Whichever is read first, both fill what they carry.
    const full: Payload = {
      key: 0, request: 0, created: '2026-01-03T00:00:00.000Z', cached: false, crawled: '2026-01-01T00:00:00.000Z',
      status: 'Finalizado', phase: 'Sentença', name: 'Ana x Banco', steps: [{ id: 's1', content: 'Julgado procedente o pedido.', date: '2026-01-01T00:00:00.000Z' }],
    };
    const partial: Payload = { key: 0, request: 1, created: '2026-01-02T00:00:00.000Z', cached: false, crawled: '2026-01-02T00:00:00.000Z', name: 'Ana x Banco S/A' };
    for (const order of [[0, 1], [1, 0]]) {
      const items = toItems([full, partial]);
      await loadAs(await emptied(a), items, { order, nights: 2, batch: 1 });
      const [row] = await a.all<{ status: string; phase: string; name: string; steps: number }>(
        'SELECT status, phase, name, (SELECT count(*) FROM steps)::INTEGER AS steps FROM lawsuits');
      expect(row, `order ${order}`).toEqual({ status: 'Finalizado', phase: 'Sentença', name: 'Ana x Banco S/A', steps: 1 });
    }
  });
});
