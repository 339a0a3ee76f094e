import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberRawText } from '../../src/shared/raw-json.js';
import type { ResponseItem } from '../../src/spec/types.js';
import { upsertRequest, type ReadBasis } from '../../src/warehouse/ledger.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { SCHEMA } from '../../src/warehouse/schema/index.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// What level a lawsuit is known at is read from the data (v_lawsuit_levels, docs/two-levels.md): a header from a
// search by document, the whole lawsuit from a lawsuit-level read, a newer header that moved past what is held, a
// read that found nothing or was refused (then retried on a backoff in days), a read bought for the header the
// lawsuit has now that still lags it. Each case is a handful of payloads and ledger rows.

const CODE = '0710802-55.2018.8.02.0001';
let wh: Warehouse;
let seq = 0;

beforeAll(async () => { wh = await Warehouse.open(':memory:'); });
afterAll(async () => { await wh?.close(); });

async function emptied(): Promise<void> {
  await wh.transaction(async () => { for (const t of SCHEMA.tables) await wh.run(`DELETE FROM ${t.name}`); });
  await wh.run(`INSERT INTO runs (run_id, started_at, status) VALUES ('run-1', TIMESTAMPTZ '2026-11-01 03:00:00+00', 'ok')`);
}

function item(requestId: string, data: Record<string, unknown>, type = 'lawsuit'): ResponseItem {
  const text = JSON.stringify({ request_id: requestId, response_id: `r${++seq}`, response_type: type, created_at: '2026-11-01T03:00:00.000Z', response_data: data });
  return rememberRawText(JSON.parse(text) as ResponseItem, text);
}

/** A search by document's answer: no steps, phase or status; its last_step says how far the lawsuit has gone. */
const header = (crawled: string, stepId: string, count: number) => ({
  code: CODE, instance: 1, name: 'Ana x Banco', crawler: { updated_at: crawled }, last_step: { step_id: stepId, steps_count: count },
});
/** A lawsuit-level answer: steps newest first (the newest carries the count), phase and status. */
const whole = (crawled: string, ids: string[]) => ({
  code: CODE, instance: 1, name: 'Ana x Banco', crawler: { updated_at: crawled }, phase: 'Inicial', status: 'Ativo',
  steps: ids.map((id, n) => ({ step_id: id, step_date: `2026-10-${String(20 - n).padStart(2, '0')}T12:00:00.000Z`, ...(n === 0 ? { steps_count: ids.length } : {}) })),
  last_step: { step_id: ids[0], steps_count: ids.length },
});

async function docSearch(requestId: string, items: ResponseItem[]): Promise<void> {
  await upsertRequest(wh, { request_id: requestId, search_type: 'cpf', search_key: '09206529722', status: 'completed', created_at: '2026-11-01T02:00:00Z', completed_at: '2026-11-01T02:10:00Z' });
  await wh.run(`UPDATE requests SET loaded_at = current_timestamp WHERE request_id = $1`, [requestId]);
  await loadResponseItems(wh, items, { runId: 'run-1' });
}

async function lawsuitRead(requestId: string, at: string, items: ResponseItem[], basis?: ReadBasis): Promise<void> {
  await upsertRequest(wh, { request_id: requestId, search_type: 'lawsuit_cnj', search_key: CODE, status: 'completed', created_at: at, completed_at: at, basis });
  await wh.run(`UPDATE requests SET loaded_at = current_timestamp WHERE request_id = $1`, [requestId]);
  if (items.length > 0) await loadResponseItems(wh, items, { runId: 'run-1' });
}

interface Level { level: string; reason: string | null; failures: number; next_read_at: string | null; read_for_header: boolean; since: string | null }
async function level(): Promise<Level> {
  const [row] = await wh.all<Level>(`SELECT level, reason, failures, strftime(next_read_at AT TIME ZONE 'UTC', '%Y-%m-%d') AS next_read_at, read_for_header,
      strftime(since AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M') AS since FROM v_lawsuit_levels WHERE code = $1 AND instance = 1`, [CODE]);
  return row;
}

describe('a lawsuit\'s level is read from the data', () => {
  it('a header only: known by its header, since the run that found it', async () => {
    await emptied();
    await docSearch('q1', [item('q1', header('2026-10-30T00:00:00Z', 's3', 3))]);
    expect(await level()).toMatchObject({ level: 'header', reason: 'known by its header only', since: '2026-11-01 03:00', failures: 0 });
  });

  it('whole once a lawsuit-level answer agrees with the newest header; stale when a newer header moves past it', async () => {
    await emptied();
    await docSearch('q1', [item('q1', header('2026-10-30T00:00:00Z', 's3', 3))]);
    await lawsuitRead('L1', '2026-11-01T04:00:00Z', [item('L1', whole('2026-10-31T00:00:00Z', ['s3', 's2', 's1']))]);
    expect(await level()).toMatchObject({ level: 'whole', reason: null, since: '2026-10-31 00:00' });
    // an older header repeats what is held: still whole
    await docSearch('q2', [item('q2', header('2026-10-29T00:00:00Z', 's2', 2))]);
    expect((await level()).level).toBe('whole');
    // a newer header with the same last step: still whole
    await docSearch('q3', [item('q3', header('2026-11-02T00:00:00Z', 's3', 3))]);
    expect((await level()).level).toBe('whole');
    // a newer header that moved (a fourth step)
    await docSearch('q4', [item('q4', header('2026-11-03T00:00:00Z', 's4', 4))]);
    expect(await level()).toMatchObject({ level: 'stale', since: '2026-11-03 00:00', read_for_header: false });
    expect((await level()).reason).toMatch(/moved past what is held \(last step s4, 4 steps; held s3, 3\)/);
    // a court withdrew a step: fewer steps than held is a movement too
    await docSearch('q5', [item('q5', header('2026-11-04T00:00:00Z', 's3', 2))]);
    expect((await level()).level).toBe('stale');
  });

  it('a read bought for the header it has now that still lags it: stale, not to be bought again until the header moves', async () => {
    await emptied();
    await docSearch('q1', [item('q1', header('2026-11-03T00:00:00Z', 's4', 4))]);
    await lawsuitRead('L1', '2026-11-03T04:00:00Z', [item('L1', whole('2026-11-01T00:00:00Z', ['s3', 's2', 's1']))], { 1: { step_id: 's4', steps_count: 4 } });
    expect(await level()).toMatchObject({ level: 'stale', read_for_header: true });
    expect((await level()).reason).toMatch(/lags its header/);
    await docSearch('q2', [item('q2', header('2026-11-05T00:00:00Z', 's5', 5))]);
    expect((await level()).read_for_header).toBe(false);
  });

  it('unavailable after reads that found nothing, each due a backoff later in days; whole again once one finds it', async () => {
    await emptied();
    await docSearch('q1', [item('q1', header('2026-10-30T00:00:00Z', 's3', 3))]);
    await lawsuitRead('L1', '2026-11-01T04:00:00Z', [item('L1', { code: 2, message: 'LAWSUIT_NOT_FOUND' }, 'application_error')]);
    expect(await level()).toMatchObject({ level: 'unavailable', reason: 'LAWSUIT_NOT_FOUND', failures: 1, next_read_at: '2026-11-02', since: '2026-11-01 04:00' });
    await lawsuitRead('L2', '2026-11-02T04:00:00Z', []); // completed, and did not return the instance
    expect(await level()).toMatchObject({ level: 'unavailable', reason: 'its lawsuit-level read did not return this instance', failures: 2, next_read_at: '2026-11-04' });
    await wh.run(`INSERT INTO lawsuit_read_refusals (code, refused_at, error_code, reason) VALUES ($1, TIMESTAMPTZ '2026-11-04 04:00:00+00', 'API_FORBIDDEN_ONE', 'secret lawsuit without a credential')`, [CODE]);
    expect(await level()).toMatchObject({ level: 'unavailable', reason: 'refused: secret lawsuit without a credential', failures: 3, next_read_at: '2026-11-08' });
    await lawsuitRead('L3', '2026-11-08T04:00:00Z', [item('L3', whole('2026-11-07T00:00:00Z', ['s3', 's2', 's1']))]);
    expect(await level()).toMatchObject({ level: 'whole', failures: 0, next_read_at: null });
  });

  it('the backoff stops growing at 30 days', async () => {
    await emptied();
    await docSearch('q1', [item('q1', header('2026-10-30T00:00:00Z', 's3', 3))]);
    for (let n = 0; n < 7; n++) await lawsuitRead(`L${n}`, `2026-11-0${n + 1}T04:00:00Z`, []);
    expect(await level()).toMatchObject({ failures: 7, next_read_at: '2026-12-07' });
  });
});
