import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseResponsesPage } from '../../src/api/responses.js';
import { PageSink } from '../../src/pipeline/page-sink.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// A second night over lawsuits the warehouse already holds, at the run's memory budget: 1,000 lawsuits of
// ~34 KB (a hundred steps each) newer than the stored ones, every step's text changed. Updating them in place
// ran DuckDB out of its 128 MB at COMMIT (the lawsuits), or left it unable to roll back (the steps); a first
// night of the same lawsuits loads fine. Replaced (kept values set aside, deleted, inserted merged) they load,
// and every merge rule still holds.

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

function lawsuit(i: number, night: number): Record<string, unknown> {
  const l: Record<string, unknown> = {
    code: `${String(i).padStart(7, '0')}-00.2020.8.26.0100`, instance: 1, tribunal_acronym: 'TJSP', name: `Autor ${i} x Réu ${i}`,
    phase: night === 0 ? 'Inicial' : 'Sentença', crawler: { updated_at: new Date(Date.UTC(2026, 0, 1 + night)).toISOString() },
    parties: [{ name: 'Autor', side: 'Active', document: '09206529722' }, { name: 'Réu', side: 'Passive', document: '11222333000181' }],
    steps: Array.from({ length: 100 + night * 5 }, (_, k) => ({ step_id: `s${k}`, step_date: new Date(Date.UTC(2020, 0, 1 + k)).toISOString(), content: `Movimento ${k} ${(night === 0 ? 'texto ' : 'revisto ').repeat(40)}`, ...(night === 0 ? { step_type: `T${k}` } : {}) })),
  };
  if (night === 0) l.amount = 1000 + i; // the second payload leaves the amount out: the stored one stays
  return l;
}

async function night(wh: Warehouse, n: number, lawsuits: number): Promise<void> {
  const sink = new PageSink(wh, { runId: `run-${n}` });
  const pending: Array<Promise<unknown>> = [];
  for (let p = 0; p < lawsuits / 100; p++) {
    const items = Array.from({ length: 100 }, (_, k) => ({
      request_id: `req-${n}-${p}`, response_id: `resp-${n}-${p}-${k}`, response_type: 'lawsuit', created_at: new Date().toISOString(),
      response_data: lawsuit(p * 100 + k, n),
    }));
    // Parsed from page text, as the API client does, so that each item's bytes are known to the sink.
    const page = parseResponsesPage(JSON.stringify({ page: 1, page_count: 100, all_pages_count: 1, all_count: 100, page_data: items }));
    pending.push(sink.add({ items: page.items, ledger: [{ kind: 'span', requestId: `req-${n}-${p}`, from: 0, count: page.items.length, total: page.items.length, complete: true }] }));
    if (pending.length >= 4) await pending.shift();
  }
  await Promise.all(pending);
}

describe('a second night over big lawsuits, at 128 MB', () => {
  it('replaces every lawsuit with its newer payload, keeping what the payload leaves out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'second-night-'));
    dirs.push(dir);
    const wh = await Warehouse.open(join(dir, 'w.duckdb'), { memoryLimit: '128MB', threads: 1 });
    try {
      await night(wh, 0, 1000);
      await night(wh, 1, 1000);
      const [row] = await wh.all<Record<string, number>>(`SELECT count(*)::INTEGER AS lawsuits, count(*) FILTER (WHERE phase = 'Sentença')::INTEGER AS newer,
          count(*) FILTER (WHERE amount = 1000 + CAST(substr(code, 1, 7) AS INTEGER))::INTEGER AS kept_amount,
          count(*) FILTER (WHERE first_seen_run = 'run-0' AND last_seen_run = 'run-1')::INTEGER AS runs,
          count(DISTINCT code || '#' || instance)::INTEGER AS keys FROM lawsuits`);
      expect(row).toEqual({ lawsuits: 1000, newer: 1000, kept_amount: 1000, runs: 1000, keys: 1000 });
      const [steps] = await wh.all<Record<string, number>>(`SELECT count(*)::INTEGER AS n,
          count(*) FILTER (WHERE content LIKE '%revisto%')::INTEGER AS revised, count(*) FILTER (WHERE step_type = 'T' || substr(step_id, 2))::INTEGER AS kept_type,
          count(DISTINCT code || '#' || instance || '#' || step_id)::INTEGER AS keys FROM steps`);
      expect(steps).toEqual({ n: 1000 * 105, revised: 1000 * 105, kept_type: 1000 * 100, keys: 1000 * 105 });
      // the raw is the newer payload's (read for a sample: a scan of every raw string is an analyst's query, run with more memory)
      const sample = await wh.all<{ phase: string; steps: number }>(`SELECT json_extract_string(raw, '$.phase') AS phase, json_array_length(raw->'steps')::INTEGER AS steps
        FROM v_lawsuit_raw WHERE code IN (SELECT code FROM lawsuits ORDER BY code LIMIT 20)`);
      expect(sample).toHaveLength(20);
      for (const r of sample) expect(r).toEqual({ phase: 'Sentença', steps: 105 });
    } finally {
      await wh.close();
    }
  });
});
