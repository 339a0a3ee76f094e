import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  finishRun, lastSuccessfulSearch, loadPage, loadPages, markRequest, newRunId, outstandingRequests, pagesLoaded, recordRejections, startRun, upsertRequest,
} from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { errorItem, lawsuitItem, richLawsuit } from './fixtures.js';

let wh: Warehouse;
beforeEach(async () => { wh = await Warehouse.open(':memory:'); });
afterEach(async () => { await wh.close(); });

describe('ledger', () => {
  test('run ids sort by start time and are unique', () => {
    const a = newRunId(new Date('2024-01-01T00:00:00Z'));
    const b = newRunId(new Date('2024-01-01T00:00:01Z'));
    expect([b, a].sort()).toEqual([a, b]);
    expect(newRunId(new Date(0))).not.toBe(newRunId(new Date(0)));
  });

  test('startRun and finishRun record the run and its totals', async () => {
    const runId = await startRun(wh, { command: 'run' });
    expect((await wh.all('SELECT status, command FROM runs'))).toEqual([{ status: 'running', command: 'run' }]);
    await finishRun(wh, runId, { status: 'partial', calls: 12, callsByStatus: { 200: 11, 429: 1 }, lawsuits: 5, errors: 1, summary: { a: 1 } });
    const [r] = await wh.all<Record<string, unknown>>('SELECT * FROM runs');
    expect(r).toMatchObject({ run_id: runId, status: 'partial', calls: 12, lawsuits: 5, errors: 1 });
    expect(JSON.parse(r.calls_by_status as string)).toEqual({ 200: 11, 429: 1 });
    expect(r.finished_at).toBeInstanceOf(Date);
  });

  test('loadPage records the page with its rows, atomically, and only once', async () => {
    await upsertRequest(wh, { request_id: 'req-1', search_type: 'cpf', search_key: '09206529722', status: 'pending', run_id: 'r1' });
    const items = [lawsuitItem(richLawsuit()), errorItem({ request_id: 'req-1' })];
    await loadPage(wh, 'req-1', 1, items, { runId: 'r1' });
    await loadPage(wh, 'req-1', 1, items, { runId: 'r1' });
    expect(await pagesLoaded(wh, 'req-1')).toEqual(new Set([1]));
    expect(await wh.all('SELECT pages_loaded, items_loaded FROM requests')).toEqual([{ pages_loaded: 1, items_loaded: 2 }]);
    // a page whose load fails leaves neither rows nor a ledger entry
    const broken = [lawsuitItem(richLawsuit({ code: '5059111-78.2025.4.02.5101' }))];
    const realRun = wh.run.bind(wh);
    wh.run = async (sql, params) => {
      if (sql.includes('INSERT INTO steps')) throw new Error('boom');
      return realRun(sql, params);
    };
    await expect(loadPage(wh, 'req-1', 2, broken, { runId: 'r1' })).rejects.toThrow('boom');
    wh.run = realRun;
    expect(await pagesLoaded(wh, 'req-1')).toEqual(new Set([1]));
    expect((await wh.all<{ n: number }>('SELECT count(*) n FROM lawsuits'))[0].n).toBe(1);
    expect((await wh.all<{ n: number }>('SELECT count(*) n FROM responses_raw'))[0].n).toBe(2);
  });

  test('loadPages records several pages with their rows in one go', async () => {
    await upsertRequest(wh, { request_id: 'req-2', status: 'completed', all_pages_count: 2 });
    const c = await loadPages(wh, 'req-2', [
      { page: 1, items: [lawsuitItem(richLawsuit(), { request_id: 'req-2' })] },
      { page: 2, items: [lawsuitItem(richLawsuit({ code: '5059111-78.2025.4.02.5101' }), { request_id: 'req-2' }), errorItem({ request_id: 'req-2' })] },
    ], { runId: 'r1' });
    expect(c).toMatchObject({ items: 3, lawsuits: 2, applicationErrors: 1 });
    expect(await pagesLoaded(wh, 'req-2')).toEqual(new Set([1, 2]));
    expect(await wh.all('SELECT pages_loaded, items_loaded FROM requests')).toEqual([{ pages_loaded: 2, items_loaded: 3 }]);
    expect(await outstandingRequests(wh)).toEqual([]);
    expect((await wh.all<{ n: number }>('SELECT count(*) n FROM search_hits WHERE request_id = $1', ['req-2']))[0].n).toBe(2);
  });

  test('outstanding requests: not completed, or completed with pages missing', async () => {
    await upsertRequest(wh, { request_id: 'pending', status: 'pending', created_at: '2024-01-01T00:00:00Z' });
    await upsertRequest(wh, { request_id: 'done', status: 'completed', all_pages_count: 1, created_at: '2024-01-02T00:00:00Z' });
    await upsertRequest(wh, { request_id: 'half', status: 'completed', all_pages_count: 2, created_at: '2024-01-03T00:00:00Z' });
    await upsertRequest(wh, { request_id: 'cancelled', status: 'cancelled' });
    await loadPage(wh, 'done', 1, [lawsuitItem(richLawsuit(), { request_id: 'done' })], { runId: 'r' });
    await loadPage(wh, 'half', 1, [], { runId: 'r' });
    expect((await outstandingRequests(wh)).map((r) => r.request_id)).toEqual(['pending', 'half']);
    await loadPage(wh, 'half', 2, [], { runId: 'r' });
    await markRequest(wh, 'pending', { status: 'completed', all_pages_count: 0, completed_at: new Date('2024-01-05T00:00:00Z') });
    expect(await outstandingRequests(wh)).toEqual([]);
  });

  test('upsertRequest keeps fields it is not given; markRequest updates only those given', async () => {
    await upsertRequest(wh, { request_id: 'r', search_type: 'oab', search_key: '123456SP', on_demand: true, status: 'pending', search: { search_type: 'oab' } });
    await upsertRequest(wh, { request_id: 'r', status: 'completed' });
    await markRequest(wh, 'r', { error: 'x', last_polled_at: '2024-01-01T00:00:00Z' });
    const [row] = await wh.all<Record<string, unknown>>('SELECT * FROM requests');
    expect(row).toMatchObject({ search_type: 'oab', search_key: '123456SP', on_demand: true, status: 'completed', error: 'x' });
    expect(JSON.parse(row.search as string)).toEqual({ search_type: 'oab' });
    expect((row.last_polled_at as Date).toISOString()).toBe('2024-01-01T00:00:00.000Z');
  });

  test('lastSuccessfulSearch: the latest fully loaded completion of the same search', async () => {
    expect(await lastSuccessfulSearch(wh, 'cpf', '1', false)).toBeUndefined();
    await upsertRequest(wh, { request_id: 'a', search_type: 'cpf', search_key: '1', status: 'completed', all_pages_count: 0, completed_at: '2024-01-01T00:00:00Z' });
    await upsertRequest(wh, { request_id: 'b', search_type: 'cpf', search_key: '1', status: 'completed', all_pages_count: 3, completed_at: '2024-02-01T00:00:00Z' });
    await upsertRequest(wh, { request_id: 'c', search_type: 'cpf', search_key: '1', on_demand: true, status: 'completed', all_pages_count: 0, completed_at: '2024-03-01T00:00:00Z' });
    expect((await lastSuccessfulSearch(wh, 'cpf', '1', false))?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect((await lastSuccessfulSearch(wh, 'cpf', '1', true))?.toISOString()).toBe('2024-03-01T00:00:00.000Z');
  });

  test('recordRejections stores line, value and reason once per run and line', async () => {
    const n = await recordRejections(wh, 'r1', [{ line: 2, value: '000', reason: 'bad check digits' }, { line: 5, value: '', reason: 'empty key' }], 'documents.csv');
    expect(n).toBe(2);
    expect(await recordRejections(wh, 'r1', [{ line: 2, value: '000', reason: 'bad check digits' }], 'documents.csv')).toBe(0);
    expect(await wh.all('SELECT line, value, reason, source FROM rejected_inputs ORDER BY line')).toEqual([
      { line: 2, value: '000', reason: 'bad check digits', source: 'documents.csv' },
      { line: 5, value: '', reason: 'empty key', source: 'documents.csv' },
    ]);
  });
});
