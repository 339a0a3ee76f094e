// The ledger that makes a run resumable: runs, requests, and what of each request is loaded, written with the
// responses it covers (read-ledger.ts): per request as an item offset, across requests as a sweep's cursor.
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { PageSink } from '../../src/pipeline/page-sink.js';
import { readHistory } from '../../src/pipeline/history.js';
import { finishRun, markRequest, recordRejections, startRun, upsertRequest } from '../../src/warehouse/ledger.js';
import { activeSweep, assignStrategy, openSweep, recordReads, type ReadEntry } from '../../src/warehouse/read-ledger.js';
import { join } from 'node:path';
import { MIGRATIONS } from '../../src/warehouse/migrations/index.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';
import { errorItem, lawsuitItem, richLawsuit } from './fixtures.js';

let wh: Warehouse;
const tmp = scratch('ledger-');
afterAll(() => tmp.cleanup());
beforeEach(async () => { wh = await Warehouse.open(':memory:'); });
afterEach(async () => { await wh.close(); });

describe('ledger', () => {
  test('run ids sort by start time and are unique', async () => {
    const a = await startRun(wh, { command: 'run', now: new Date('2024-01-01T00:00:00Z') });
    const b = await startRun(wh, { command: 'run', now: new Date('2024-01-01T00:00:01Z') });
    expect([b, a].sort()).toEqual([a, b]);
    expect(await startRun(wh, { command: 'run', now: new Date(0) })).not.toBe(await startRun(wh, { command: 'run', now: new Date(0) }));
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

  test('a page is recorded with its rows, atomically, and only once; the offset moves only from where it stands', async () => {
    await upsertRequest(wh, { request_id: 'req-1', search_type: 'cpf', search_key: '09206529722', status: 'completed', run_id: 'r1' });
    const sink = new PageSink(wh, { runId: 'r1' });
    const items = [lawsuitItem(richLawsuit(), { request_id: 'req-1' }), errorItem({ request_id: 'req-1' })];
    const span = (from: number, count: number, complete = false): ReadEntry => ({ kind: 'span', requestId: 'req-1', from, count, total: 5, complete });
    await sink.add({ items, ledger: [span(0, 2)] });
    await sink.add({ items, ledger: [span(0, 2)] });
    expect(await wh.all('SELECT items_loaded, items_total, loaded_at FROM requests')).toEqual([{ items_loaded: 2, items_total: 5, loaded_at: null }]);
    // a span beyond the offset would leave a hole: not counted
    await sink.add({ items: [], ledger: [span(3, 1)] });
    expect((await wh.all<{ items_loaded: number }>('SELECT items_loaded FROM requests'))[0].items_loaded).toBe(2);
    // a page whose load fails leaves neither rows nor a ledger entry
    const broken = [lawsuitItem(richLawsuit({ code: '5059111-78.2025.4.02.5101' }), { request_id: 'req-1' })];
    const realRun = wh.run.bind(wh);
    wh.run = async (sql, params) => {
      if (sql.includes('INSERT INTO steps')) throw new Error('boom');
      return realRun(sql, params);
    };
    await expect(sink.add({ items: broken, ledger: [span(2, 3, true)] })).rejects.toThrow('boom');
    wh.run = realRun;
    expect(await wh.all('SELECT items_loaded, loaded_at FROM requests')).toEqual([{ items_loaded: 2, loaded_at: null }]);
    expect((await wh.all<{ n: number }>('SELECT count(*) n FROM lawsuits'))[0].n).toBe(1);
    expect((await wh.all<{ n: number }>('SELECT count(*) n FROM responses_raw'))[0].n).toBe(2);
    await sink.add({ items: broken, ledger: [span(2, 3, true)] });
    const [row] = await wh.all<{ items_loaded: number; loaded: boolean }>('SELECT items_loaded, loaded_at IS NOT NULL AS loaded FROM requests');
    expect(row).toEqual({ items_loaded: 5, loaded: true });
  });

  test('a sweep page counts its requests\' responses, completes some, moves its cursor; a hand-over resets a request', async () => {
    for (const id of ['a', 'b']) await upsertRequest(wh, { request_id: id, status: 'completed' });
    await openSweep(wh, 's1', 'r1', 'documents');
    await assignStrategy(wh, 'a', 'sweep', 's1');
    await assignStrategy(wh, 'b', 'sweep', 's1');
    const cursor = { from: Date.parse('2024-01-01T00:00:00.000Z'), page: 3, pageSize: 100, seen: ['x'], seenBefore: ['w'], atLast: ['x'], last: Date.parse('2024-01-01T00:00:05.000Z'), high: Date.parse('2024-01-01T00:00:05.000Z') };
    await recordReads(wh, [
      { kind: 'sweep', sweepId: 's1', cursor, read: 10, skipped: 4, pages: 1, ours: [{ requestId: 'a', items: 4 }, { requestId: 'b', items: 2 }], complete: ['a'] },
      { kind: 'to_per_request', requestIds: ['b'] },
    ]);
    expect(await wh.all('SELECT request_id, strategy, items_loaded, items_total, loaded_at IS NOT NULL AS loaded FROM requests ORDER BY 1')).toEqual([
      { request_id: 'a', strategy: 'sweep', items_loaded: 4, items_total: 4, loaded: true },
      { request_id: 'b', strategy: 'per_request', items_loaded: 0, items_total: null, loaded: false },
    ]);
    expect(await activeSweep(wh, 'lawsuits')).toBeUndefined(); // each wave resumes its own sweep
    const stored = await activeSweep(wh, 'documents');
    expect(stored).toMatchObject({ sweepId: 's1', pages: 1, itemsRead: 10, itemsOurs: 6, itemsSkipped: 4 });
    expect(stored!.cursor).toEqual({ from: cursor.from, page: 3, pageSize: 100, seen: ['x', 'w'], last: cursor.last, high: cursor.high });
    await recordReads(wh, [{ kind: 'sweep_status', sweepId: 's1', status: 'done' }]);
    expect(await activeSweep(wh, 'documents')).toBeUndefined();
  });

  // What a run resumes is what readHistory answers (the planner's input): the outstanding request of each search.
  test('a search\'s request stays outstanding until its last span is loaded; cancelled and failed ones are submitted again', async () => {
    const cpf = (key: string) => ({ search_type: 'cpf', search_key: key });
    await upsertRequest(wh, { request_id: 'pending', ...cpf('1'), status: 'pending', created_at: '2024-01-01T00:00:00Z' });
    await upsertRequest(wh, { request_id: 'done', ...cpf('2'), status: 'completed', created_at: '2024-01-02T00:00:00Z' });
    await upsertRequest(wh, { request_id: 'half', ...cpf('3'), status: 'completed', created_at: '2024-01-03T00:00:00Z' });
    await upsertRequest(wh, { request_id: 'cancelled', ...cpf('4'), status: 'cancelled' });
    await upsertRequest(wh, { request_id: 'failed', ...cpf('5'), status: 'failed' });
    await recordReads(wh, [
      { kind: 'span', requestId: 'done', from: 0, count: 1, total: 1, complete: true },
      { kind: 'span', requestId: 'half', from: 0, count: 100, total: 150, complete: false },
    ]);
    const outstanding = async () => [...(await readHistory(wh))]
      .filter(([, h]) => h.outstandingRequestId !== undefined).map(([hash, h]) => `${hash} ${h.outstandingRequestId}`).sort();
    expect(await outstanding()).toEqual(['cpf|1|db|* pending', 'cpf|3|db|* half']);
    await recordReads(wh, [{ kind: 'span', requestId: 'half', from: 100, count: 50, total: 150, complete: true }]);
    await markRequest(wh, 'pending', { status: 'completed', completed_at: new Date('2024-01-05T00:00:00Z') });
    await recordReads(wh, [{ kind: 'span', requestId: 'pending', from: 0, count: 0, total: 0, complete: true }]);
    expect(await outstanding()).toEqual([]);
  });

  test('a warehouse from before the reading ledger keeps its answer to "fully loaded" (migration 50)', async () => {
    const path = join(tmp.dir, 'old.duckdb');
    const old = await Warehouse.open(path, { migrations: MIGRATIONS.filter((m) => m.version < 50) });
    await old.run(`INSERT INTO requests (request_id, status, completed_at, all_pages_count, pages_loaded, items_loaded) VALUES
      ('whole', 'completed', '2024-01-01T00:00:00Z', 2, 2, 150), ('empty', 'completed', '2024-01-02T00:00:00Z', 0, 1, 0),
      ('half', 'completed', '2024-01-03T00:00:00Z', 2, 1, 100), ('running', 'pending', NULL, NULL, 0, 0)`);
    await old.close();
    const now = await Warehouse.open(path);
    expect(await now.all(`SELECT request_id, loaded_at, strategy, items_loaded, items_total FROM requests ORDER BY 1`)).toEqual([
      { request_id: 'empty', loaded_at: new Date('2024-01-02T00:00:00Z'), strategy: 'per_request', items_loaded: 0, items_total: 0 },
      { request_id: 'half', loaded_at: null, strategy: null, items_loaded: 100, items_total: null },
      { request_id: 'running', loaded_at: null, strategy: null, items_loaded: 0, items_total: null },
      { request_id: 'whole', loaded_at: new Date('2024-01-01T00:00:00Z'), strategy: 'per_request', items_loaded: 150, items_total: 150 },
    ]);
    await now.close();
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

  test('a search\'s last success is its latest fully loaded submission (our clock), with that request\'s responses; on demand apart', async () => {
    expect((await readHistory(wh)).size).toBe(0);
    await upsertRequest(wh, { request_id: 'a', search_type: 'cpf', search_key: '1', created_at: '2024-01-01T00:00:00Z', submitted_at: '2024-01-01T00:00:00Z', status: 'completed', completed_at: '2024-01-01T00:00:00Z' });
    await upsertRequest(wh, { request_id: 'b', search_type: 'cpf', search_key: '1', created_at: '2024-02-01T00:00:00Z', submitted_at: '2024-02-01T00:00:00Z', status: 'completed', completed_at: '2024-02-01T00:00:00Z' });
    await upsertRequest(wh, { request_id: 'c', search_type: 'cpf', search_key: '1', created_at: '2024-03-01T00:00:00Z', submitted_at: '2024-03-01T00:00:00Z', on_demand: true, status: 'completed', completed_at: '2024-03-01T00:00:00Z' });
    // a and c fully loaded; b, the latest of the first search, is not (and so is the one to resume)
    await recordReads(wh, [
      { kind: 'span', requestId: 'a', from: 0, count: 3, total: 3, complete: true },
      { kind: 'span', requestId: 'b', from: 0, count: 2, total: 9, complete: false },
      { kind: 'span', requestId: 'c', from: 0, count: 0, total: 0, complete: true },
    ]);
    const h = await readHistory(wh);
    expect(h.get('cpf|1|db|*')).toEqual({ lastSuccessAt: new Date('2024-01-01T00:00:00Z'), lastResponses: 3, lastTookMs: 0, outstandingRequestId: 'b' });
    expect(h.get('cpf|1|od|*')).toEqual({ lastSuccessAt: new Date('2024-03-01T00:00:00Z'), lastResponses: 0, lastTookMs: 0, outstandingRequestId: undefined });
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
