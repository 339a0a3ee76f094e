import { afterEach, beforeEach, expect, it } from 'vitest';
import { pino } from 'pino';
import { errorForStatus } from '../../src/api/errors.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { passOwnAnswers } from '../../src/pipeline/tracking/past-own-answers.js';
import { loadConfig } from '../../src/shared/config.js';
import { saveCursor } from '../../src/warehouse/cursor-store.js';
import { latestTrackingRead, openTrackingRead } from '../../src/warehouse/tracking-ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// A first trackings night reads its trackings' runs (none yet) before it buys its searches and lawsuit-level reads,
// so the next night's reading paged through all their answers to skip them (night 2 of the levels bench: 4 calls
// for a floor of 3, some 25 pages at 10,000 individuals). At the night's end one listing proves no run lies among
// them, and the next reading starts past them; whatever could put a run among them keeps the cursor where it was.

let wh: Warehouse;
beforeEach(async () => { wh = await Warehouse.open(':memory:'); });
afterEach(async () => { await wh.close(); });

const T0 = Date.parse('2026-11-28T03:00:00.000Z');

interface Upstream { listed: number; asked: Array<Record<string, unknown>>; fails?: Error }

const ctxOf = (up: Upstream): RunContext => ({
  cfg: loadConfig({ env: {}, flags: { sandbox: true } }), wh, runId: 'night-1', log: pino({ level: 'silent' }), signal: new AbortController().signal,
  api: {
    requests: {
      list: async (q: Record<string, unknown>) => {
        up.asked.push(q);
        if (up.fails) throw up.fails;
        return { items: Array.from({ length: Math.min(up.listed, 1) }, () => ({ request_id: 'run' })), allCount: up.listed };
      },
    },
  },
}) as unknown as RunContext;

/** Tonight's reading of the runs, ended: started at T0, read `ours` responses of our runs, bounded by a running run when `until` is set. */
async function readingEnded(o: { ours?: number; until?: number; status?: 'done' | 'active' } = {}) {
  const cursor = { from: T0, page: 1, seen: [], last: T0 };
  await openTrackingRead(wh, { readId: 'night-1', runId: 'night-1', watermark: T0, until: o.until, cursor });
  if (o.status !== 'active') await saveCursor(wh, 'tracking_reads', 'night-1', cursor, { pages: 1, read: o.ours ?? 0, ours: o.ours ?? 0, skipped: 0 }, true);
}

/** The night's own answers, loaded after the reading: created a second apart from T0 + 1 s, the last two in one millisecond. */
async function ownAnswers(n: number) {
  for (let i = 1; i <= n; i++) {
    const at = new Date(T0 + Math.min(i, n - 1) * 1000).toISOString();
    await wh.run(`INSERT INTO responses_raw (response_id, request_id, response_type, created_at, item, run_id, loaded_at)
      VALUES ($1, 'ours', 'lawsuit', $2::TIMESTAMPTZ, '{}', 'night-1', current_timestamp)`, [`r${i}`, at]);
  }
}

it('moves the next reading past them when the listing shows no run made since the reading started', async () => {
  await readingEnded();
  await ownAnswers(5);
  const up: Upstream = { listed: 0, asked: [] };
  const report = await passOwnAnswers(ctxOf(up));
  expect(up.asked).toEqual([{ page: 1, pageSize: 1, origin: 'tracking', createdGte: new Date(T0).toISOString() }]);
  expect(report.counts).toEqual({ passed_over: 5, calls: 1 });
  const next = await latestTrackingRead(wh);
  // the next reading starts at the newest answer, skipping by id the two created in its millisecond
  expect(next).toMatchObject({ status: 'done', cursor: { from: T0 + 4000, last: T0 + 4000, page: 1 } });
  expect([...next!.cursor.seen].sort()).toEqual(['r4', 'r5']);
  // run again (a resumed night): nothing past the new cursor, nothing asked
  const again: Upstream = { listed: 0, asked: [] };
  expect((await passOwnAnswers(ctxOf(again))).counts).toEqual({ passed_over: 0, calls: 0 });
  expect(again.asked).toEqual([]);
});

it('keeps the cursor where the reading ended when a run could lie among the answers, asking only when it cannot tell without', async () => {
  const cases: Array<{ why: string; ended: Parameters<typeof readingEnded>[0]; answers: number; listed: number; calls: number; fails?: Error }> = [
    { why: 'the listing shows a run made since the reading started', ended: {}, answers: 5, listed: 1, calls: 1 },
    { why: 'the listing fails (the provider answers 503 past the retries)', ended: {}, answers: 5, listed: 0, calls: 1, fails: errorForStatus(503, {}, 'GET /requests', (s) => s) },
    { why: 'the reading was bounded before a running run', ended: { until: T0 + 500 }, answers: 5, listed: 0, calls: 0 },
    { why: 'the reading loaded runs of ours: a run was made since it started', ended: { ours: 3 }, answers: 5, listed: 0, calls: 0 },
    { why: 'the reading was left active by a killed run', ended: { status: 'active' }, answers: 5, listed: 0, calls: 0 },
    { why: 'no answer of the night lies past the reading', ended: {}, answers: 0, listed: 0, calls: 0 },
  ];
  for (const c of cases) {
    await wh.run('DELETE FROM tracking_reads');
    await wh.run('DELETE FROM responses_raw');
    await readingEnded(c.ended);
    await ownAnswers(c.answers);
    const before = await latestTrackingRead(wh);
    const up: Upstream = { listed: c.listed, asked: [], ...(c.fails ? { fails: c.fails } : {}) };
    expect((await passOwnAnswers(ctxOf(up))).counts, c.why).toEqual({ passed_over: 0, calls: c.calls });
    expect(await latestTrackingRead(wh), c.why).toEqual(before);
  }
});

it('lets the key refused end the stage: nothing more may be sent', async () => {
  await readingEnded();
  await ownAnswers(5);
  const up: Upstream = { listed: 0, asked: [], fails: errorForStatus(401, {}, 'GET /requests', (s) => s) };
  await expect(passOwnAnswers(ctxOf(up))).rejects.toMatchObject({ code: 'API_UNAUTHORIZED' });
});
