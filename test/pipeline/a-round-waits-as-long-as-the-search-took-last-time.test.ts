import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import type { RunContext } from '../../src/pipeline/context.js';
import { readHistory } from '../../src/pipeline/history.js';
import { planRun, plannedDocument } from '../../src/pipeline/plan.js';
import { pollUntilFinished, type Waiting } from '../../src/pipeline/poll.js';
import { parseDocuments } from '../../src/input/documents.js';
import { upsertRequest } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// A company's search answers court by court for seconds; every later night of three companies found its searches
// running at the first completion round and sent a second (levels bench, companies by searches: 2 calls of
// GET /requests for a wave where the floor counts 1). How long a search took the last time tells the first round
// when to go. On a fake clock: three requests that finish 3 s after they are made.

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

const TAKES = 3_000;

function upstream(made: Map<string, number>): { ctx: RunContext; listings: () => number } {
  let listings = 0;
  const object = (id: string, at: number) => ({
    request_id: id, status: Date.now() >= at + TAKES ? 'completed' : 'pending', created_at: new Date(at).toISOString(), search: { search_type: 'cnpj', search_key: id },
  });
  const api = {
    requests: {
      async *walkSince() {
        listings++;
        yield { items: [...made].map(([id, at]) => object(id, at)).filter((r) => r.status === 'completed') };
      },
      get: (id: string) => Promise.resolve(object(id, made.get(id)!)),
    },
  };
  return { ctx: { log: pino({ level: 'silent' }), signal: new AbortController().signal, api } as unknown as RunContext, listings: () => listings };
}

/** A wave of three submitted together, each waited for with `expected` (undefined: never answered before). */
async function wave(expected: number | undefined, o: { resumed?: boolean } = {}): Promise<{ listings: number; finishedAt: number[] }> {
  const made = new Map<string, number>();
  const { ctx, listings } = upstream(made);
  const waiting = new Map<string, Waiting>();
  const t0 = Date.now();
  for (const id of ['a', 'b', 'c']) {
    made.set(id, Date.now());
    waiting.set(id, { requestId: id, createdAt: Date.now(), ...(expected === undefined ? {} : { expectedMs: expected }), ...(o.resumed ? { resumed: true } : {}) });
  }
  const finishedAt: number[] = [];
  const polled = pollUntilFinished(ctx, waiting, { finished: () => finishedAt.push(Date.now() - t0), lost: () => undefined, failed: () => undefined, more: () => false }, { minIntervalMs: 500 });
  await vi.advanceTimersByTimeAsync(60_000);
  await polled;
  return { listings: listings(), finishedAt };
}

it('sends one round, once the searches are as old as they took the last time', async () => {
  const r = await wave(TAKES);
  expect(r.listings).toBe(1);
  expect(r.finishedAt).toHaveLength(3);
  // and not much later than that: the round goes once they are due
  expect(Math.max(...r.finishedAt)).toBeLessThan(TAKES + 200);
});

it('polls as before a search never answered, or one an earlier run submitted: from its first interval', async () => {
  for (const r of [await wave(undefined), await wave(TAKES, { resumed: true })]) {
    expect(r.finishedAt).toHaveLength(3);
    expect(r.listings).toBeGreaterThan(1);
  }
});

it('waits no longer than its cap for a search that once took very long', async () => {
  const r = await wave(3_600_000);
  expect(r.listings).toBe(1);
  expect(Math.min(...r.finishedAt)).toBeGreaterThanOrEqual(30_000);
  expect(Math.max(...r.finishedAt)).toBeLessThan(30_200);
});

it('is planned from how long the newest fully loaded search of the document took, by the provider\'s own times', async () => {
  const { documents } = parseDocuments('search_key,search_type\n11222333000181,cnpj\n52998224725,cpf\n');
  const [cnpj] = documents.map(plannedDocument);
  const wh = await Warehouse.open(':memory:');
  try {
    const t = Date.parse('2026-11-20T03:00:00Z');
    // an older answer that took 9 s, the newest 4.2 s, and one cancelled since: the newest loaded one counts
    for (const [id, created, took, status, loaded] of [['old', t, 9_000, 'completed', true], ['new', t + 86_400_000, 4_200, 'completed', true],
      ['gave-up', t + 2 * 86_400_000, 1_000, 'cancelled', false]] as const) {
      await upsertRequest(wh, { request_id: id, search_type: 'cnpj', search_key: cnpj.search.search_key, status, created_at: new Date(created).toISOString(), search: cnpj.search });
      await wh.run('UPDATE requests SET completed_at = $2::TIMESTAMPTZ, loaded_at = CASE WHEN $3 THEN current_timestamp END, submitted_at = current_timestamp WHERE request_id = $1',
        [id, new Date(created + took), loaded]);
    }
    const plan = planRun(documents, await readHistory(wh), { now: new Date(), freshnessDays: 0, force: true, pageSize: 1000 });
    expect(plan.submit.map((p) => [p.search.search_type, p.tookMs])).toEqual([['cnpj', 4_200], ['cpf', undefined]]);
  } finally {
    await wh.close();
  }
});
