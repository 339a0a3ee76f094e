import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Lawsuit, ResponseItem } from '../../src/spec/types.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { errorItem, lawsuitItem, richLawsuit } from './fixtures.js';

const TABLES = ['lawsuits', 'parties', 'lawyers', 'steps', 'subjects', 'classifications', 'courts', 'attachments', 'search_hits', 'responses_raw'];
let wh: Warehouse;
beforeEach(async () => { wh = await Warehouse.open(':memory:'); });
afterEach(async () => { await wh.close(); });

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = (await wh.all<{ n: number }>(`SELECT count(*) n FROM ${t}`))[0].n;
  return out;
}
const one = async <T>(sql: string, params?: unknown[]): Promise<T> => (await wh.all<T>(sql, params))[0];
const crawl = (l: Lawsuit, at: string): Lawsuit => ({ ...l, crawler: { ...l.crawler, updated_at: at } });
const older = (over: Partial<Lawsuit> = {}): Lawsuit => crawl(richLawsuit(over), '2023-01-01T00:00:00.000Z');
const newer = (over: Partial<Lawsuit> = {}): Lawsuit => crawl(richLawsuit(over), '2025-01-01T00:00:00.000Z');

describe('loadResponseItems', () => {
  test('loading the same items twice changes no count and no value', async () => {
    const items = [lawsuitItem(richLawsuit()), lawsuitItem(richLawsuit({ code: '5059111-78.2025.4.02.5101' })), errorItem()];
    const first = await loadResponseItems(wh, items, { runId: 'r1' });
    const after1 = await counts();
    const snap1 = await wh.all('SELECT * EXCLUDE (loaded_at) FROM lawsuits ORDER BY code');
    const second = await loadResponseItems(wh, items, { runId: 'r1' });
    expect(await counts()).toEqual(after1);
    expect(await wh.all('SELECT * EXCLUDE (loaded_at) FROM lawsuits ORDER BY code')).toEqual(snap1);
    expect(after1).toMatchObject({ lawsuits: 2, parties: 6, lawyers: 4, steps: 6, subjects: 4, classifications: 2, courts: 4, attachments: 2, search_hits: 2, responses_raw: 3 });
    expect(first).toMatchObject({ items: 3, newResponses: 3, lawsuits: 2, applicationErrors: 1 });
    expect(second.newResponses).toBe(0);
  });

  test('a newer crawl wins and an older one does not overwrite it', async () => {
    await loadResponseItems(wh, [lawsuitItem(older({ phase: 'Inicial', amount: 10 }))], { runId: 'r1' });
    await loadResponseItems(wh, [lawsuitItem(newer({ phase: 'Sentença', amount: 20 }))], { runId: 'r2' });
    expect(await one('SELECT phase, amount, first_seen_run, last_seen_run FROM lawsuits')).toEqual({ phase: 'Sentença', amount: 20, first_seen_run: 'r1', last_seen_run: 'r2' });
    await loadResponseItems(wh, [lawsuitItem(older({ phase: 'Arquivado', amount: 30 }))], { runId: 'r3' });
    const row = await one<{ phase: string; amount: number; last_seen_run: string; raw: string }>('SELECT phase, amount, last_seen_run, raw FROM lawsuits');
    expect(row).toMatchObject({ phase: 'Sentença', amount: 20, last_seen_run: 'r3' });
    expect(JSON.parse(row.raw).phase).toBe('Sentença');
  });

  test('a newer payload that leaves phase and status out keeps the stored ones', async () => {
    await loadResponseItems(wh, [lawsuitItem(older({ phase: 'Recurso', status: 'Ativo' }))], { runId: 'r1' });
    const partial = newer({ name: 'Novo nome' });
    delete partial.phase; delete partial.status; delete partial.steps;
    await loadResponseItems(wh, [lawsuitItem(partial)], { runId: 'r2' });
    expect(await one('SELECT phase, status, name FROM lawsuits')).toEqual({ phase: 'Recurso', status: 'Ativo', name: 'Novo nome' });
    expect((await one<{ n: number }>('SELECT count(*) n FROM steps')).n).toBe(3);
  });

  test('steps merge by step_id: the union is kept and a changed step is updated', async () => {
    await loadResponseItems(wh, [lawsuitItem(older({ steps: [{ step_id: 'a', content: 'one', step_date: '2020-01-01T00:00:00Z' }, { step_id: 'b', content: 'two' }] }))], { runId: 'r1' });
    await loadResponseItems(wh, [lawsuitItem(newer({ steps: [{ step_id: 'b', content: 'two, corrected' }, { step_id: 'c', content: 'three' }] }))], { runId: 'r2' });
    const steps = await wh.all<{ step_id: string; content: string }>('SELECT step_id, content FROM steps ORDER BY step_id');
    expect(steps).toEqual([{ step_id: 'a', content: 'one' }, { step_id: 'b', content: 'two, corrected' }, { step_id: 'c', content: 'three' }]);
    // an older payload adds a step never seen but does not change a known one
    await loadResponseItems(wh, [lawsuitItem(older({ steps: [{ step_id: 'b', content: 'stale' }, { step_id: 'd', content: 'four' }] }))], { runId: 'r3' });
    const after = await wh.all<{ step_id: string; content: string }>('SELECT step_id, content FROM steps ORDER BY step_id');
    expect(after.map((s) => s.step_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(after[1].content).toBe('two, corrected');
  });

  test('parties and lawyers are replaced per lawsuit by the winning payload', async () => {
    await loadResponseItems(wh, [lawsuitItem(older())], { runId: 'r1' });
    await loadResponseItems(wh, [lawsuitItem(newer({ parties: [{ name: 'Only One', side: 'Active', lawyers: [{ name: 'L', oab: '1SP' }] }] }))], { runId: 'r2' });
    expect(await wh.all('SELECT party_index, name FROM parties')).toEqual([{ party_index: 0, name: 'Only One' }]);
    expect(await wh.all('SELECT party_index, lawyer_index, name, oab FROM lawyers')).toEqual([{ party_index: 0, lawyer_index: 0, name: 'L', oab: '1SP' }]);
    // a winning payload without a parties list says nothing about parties: they stay
    const noParties = crawl(richLawsuit(), '2026-01-01T00:00:00.000Z');
    delete noParties.parties;
    await loadResponseItems(wh, [lawsuitItem(noParties)], { runId: 'r3' });
    expect((await one<{ n: number }>('SELECT count(*) n FROM parties')).n).toBe(1);
  });

  test('the same lawsuit twice in one batch (cached, then fresh) is one row: the newest crawl', async () => {
    const cached = lawsuitItem(older({ phase: 'Inicial', steps: [{ step_id: 'old-only', content: 'x' }] }), { tags: { cached_response: true } });
    const fresh = lawsuitItem(newer({ phase: 'Execução', steps: [{ step_id: 'new', content: 'y' }] }));
    const c = await loadResponseItems(wh, [fresh, cached], { runId: 'r1' });
    expect(c).toMatchObject({ lawsuitItems: 2, lawsuits: 1 });
    expect(await wh.all('SELECT phase, cached_response, response_id FROM lawsuits')).toEqual([{ phase: 'Execução', cached_response: false, response_id: fresh.response_id }]);
    expect((await wh.all<{ step_id: string }>('SELECT step_id FROM steps ORDER BY step_id')).map((s) => s.step_id)).toEqual(['new', 'old-only']);
    expect((await counts()).responses_raw).toBe(2);
  });

  test('application_error items reach responses_raw only', async () => {
    const e = errorItem();
    const c = await loadResponseItems(wh, [e], { runId: 'r1' });
    expect(c).toMatchObject({ applicationErrors: 1, lawsuits: 0 });
    const all = await counts();
    expect(all.responses_raw).toBe(1);
    expect(Object.entries(all).filter(([t, n]) => t !== 'responses_raw' && n > 0)).toEqual([]);
    const row = await one<{ item: string; response_type: string }>('SELECT item, response_type FROM responses_raw');
    expect(row.response_type).toBe('application_error');
    expect(JSON.parse(row.item)).toEqual(e);
  });

  test('raw columns keep every property, unknown ones included, exactly as received', async () => {
    const item = { ...lawsuitItem(richLawsuit({ brand_new_field: { a: [1, 'b'] } })), unlisted_item_field: 42 } as ResponseItem;
    await loadResponseItems(wh, [item], { runId: 'r1' });
    const l = await one<{ raw: string }>('SELECT raw FROM lawsuits');
    expect(JSON.parse(l.raw)).toEqual(JSON.parse(JSON.stringify(item.response_data)));
    const r = await one<{ item: string }>('SELECT item FROM responses_raw');
    expect(JSON.parse(r.item)).toEqual(JSON.parse(JSON.stringify(item)));
  });

  test('keys stay unique across many overlapping loads, in small batches', async () => {
    const items: ResponseItem[] = [];
    for (let i = 0; i < 30; i++) {
      const code = `${String(i % 7).padStart(7, '0')}-00.2020.8.26.0100`;
      items.push(lawsuitItem(crawl(richLawsuit({ code }), `2024-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00Z`), { request_id: `req-${i % 3}` }));
    }
    await loadResponseItems(wh, items, { runId: 'r1', batchSize: 4 });
    await loadResponseItems(wh, items.slice().reverse(), { runId: 'r2', batchSize: 5 });
    const keys: Record<string, string> = {
      lawsuits: 'code, instance', parties: 'code, instance, party_index', lawyers: 'code, instance, party_index, lawyer_index',
      steps: 'code, instance, step_id', search_hits: 'request_id, code, instance', responses_raw: 'response_id',
      subjects: 'code, instance, item_code', classifications: 'code, instance, item_code', courts: 'code, instance, court_index',
      attachments: 'code, instance, attachment_id',
    };
    for (const [t, k] of Object.entries(keys)) {
      expect((await one<{ d: number }>(`SELECT count(*) - count(DISTINCT (${k})) d FROM ${t}`)).d, t).toBe(0);
    }
    expect((await counts())).toMatchObject({ lawsuits: 7, search_hits: 21, responses_raw: 30 });
  });

  test('a failed first batch leaves nothing behind and the next load works', async () => {
    const realRun = wh.run.bind(wh);
    wh.run = async (sql, params) => {
      if (sql.includes('INSERT INTO lawsuits')) throw new Error('boom');
      return realRun(sql, params);
    };
    await expect(loadResponseItems(wh, [lawsuitItem(richLawsuit())], { runId: 'r1' })).rejects.toThrow('boom');
    wh.run = realRun;
    expect(await counts()).toMatchObject({ lawsuits: 0, responses_raw: 0, steps: 0 });
    await loadResponseItems(wh, [lawsuitItem(richLawsuit())], { runId: 'r1' });
    expect(await counts()).toMatchObject({ lawsuits: 1, responses_raw: 1, steps: 3 });
  });

  test('items without a usable key are kept raw and skipped', async () => {
    const bad = lawsuitItem({ name: 'no code' } as unknown as Lawsuit);
    const c = await loadResponseItems(wh, [bad], { runId: 'r1' });
    expect(c).toMatchObject({ skipped: 1, lawsuits: 0, newResponses: 1 });
    expect((await counts()).lawsuits).toBe(0);
  });
});
