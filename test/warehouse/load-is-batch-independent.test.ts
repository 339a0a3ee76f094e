import { afterEach, describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../src/spec/types.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { rng } from '../support/random.js';

// What is loaded must not depend on where batch boundaries fell: copies of one lawsuit inside a batch are folded
// by the very rules the warehouse applies between batches. This is what lets `rebuild` re-derive the tables
// from responses_raw in batches of its own and get the same rows.

let whs: Warehouse[] = [];
afterEach(async () => { await Promise.all(whs.map((w) => w.close())); whs = []; });

/** Copies of 25 lawsuits, shuffled, each from another crawl, each leaving out some fields and lists. */
function items(seed: number): ResponseItem[] {
  const r = rng(seed);
  const out: ResponseItem[] = [];
  for (let i = 0; i < 25; i++) {
    const copies = 1 + Math.floor(r() * 4);
    for (let c = 0; c < copies; c++) {
      const l: Record<string, unknown> = {
        code: `${String(1000 + i).padStart(7, '0')}-00.2021.8.26.0100`, instance: 1 + (i % 2),
        crawler: { updated_at: new Date(Date.UTC(2026, 0, 1 + Math.floor(r() * 3))).toISOString() },
      };
      if (r() < 0.6) l.phase = ['Inicial', 'Sentença', 'Recurso'][Math.floor(r() * 3)];
      if (r() < 0.6) l.status = r() < 0.5 ? 'Ativo' : 'Finalizado';
      if (r() < 0.5) l.amount = Math.round(r() * 1e6) / 100;
      if (r() < 0.5) l.parties = [{ name: `Parte ${c}`, side: 'Active', document: '09206529722' }];
      if (r() < 0.5) l.subjects = r() < 0.2 ? [] : [{ code: String(7000 + c), name: `Assunto ${c}` }];
      if (r() < 0.7) {
        l.steps = Array.from({ length: 1 + Math.floor(r() * 4) }, (_, k) => ({
          step_id: `s${k + Math.floor(r() * 3)}`, step_date: new Date(Date.UTC(2025, k, 1)).toISOString(),
          ...(r() < 0.7 ? { content: `andamento ${k} da cópia ${c}` } : {}),
        }));
      }
      out.push({ request_id: `req-${i % 7}`, response_id: `resp-${i}-${c}`, response_type: 'lawsuit', created_at: new Date(Date.UTC(2026, 1, 1, 0, 0, out.length)).toISOString(), response_data: l as never });
    }
  }
  for (let k = out.length - 1; k > 0; k--) { const j = Math.floor(r() * (k + 1)); [out[k], out[j]] = [out[j], out[k]]; }
  return out;
}

async function loaded(batchSize: number, seed: number): Promise<Record<string, unknown[]>> {
  const wh = await Warehouse.open(':memory:');
  whs.push(wh);
  await loadResponseItems(wh, items(seed), { runId: 'run-1', batchSize });
  const q = (sql: string) => wh.all(sql);
  return {
    lawsuits: await q(`SELECT * EXCLUDE (loaded_at) FROM lawsuits ORDER BY code, instance`),
    parties: await q(`SELECT * FROM parties ORDER BY code, instance, party_index`),
    subjects: await q(`SELECT * FROM subjects ORDER BY ALL`),
    steps: await q(`SELECT * FROM steps ORDER BY code, instance, step_id`),
    hits: await q(`SELECT * EXCLUDE (first_seen_at) FROM search_hits ORDER BY ALL`),
  };
}

describe('loading is independent of batch boundaries', () => {
  for (const seed of [1, 2]) {
    it(`one batch or one item per batch give the same rows (seed ${seed})`, async () => {
      const whole = await loaded(10_000, seed);
      const oneByOne = await loaded(1, seed);
      const threes = await loaded(3, seed);
      expect(whole.lawsuits.length).toBeGreaterThan(20);
      expect(oneByOne).toEqual(whole);
      expect(threes).toEqual(whole);
    });
  }
});
