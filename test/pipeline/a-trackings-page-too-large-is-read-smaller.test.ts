import { afterEach, expect, it } from 'vitest';
import type { RunContext } from '../../src/pipeline/context.js';
import { PageSink } from '../../src/pipeline/page-sink.js';
import { PageSizer } from '../../src/pipeline/page-size.js';
import { readTrackingRuns } from '../../src/pipeline/tracking/read-runs.js';
import type { TrackedSearch } from '../../src/pipeline/tracking/runs-page.js';
import { MODEL_SWEEP_PARAMS } from './support/provider-model.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { captureLogger } from '../api/stub.js';
import { ProviderModel } from './support/provider-model.js';

// A trackings night reads its runs through the listing across requests as the sweep does, a page asked the same way
// (sweep/across-page.ts): a page too large to read (over the body limit) is asked again in smaller pages, as the
// failure policy's shrink-page says, instead of failing the night's reading (it did: the reading had a loop of its
// own that asked no smaller page).

const T0 = Date.parse('2026-11-21T03:00:00Z');
let wh: Warehouse | undefined;
afterEach(async () => { await wh?.close(); wh = undefined; });

it('a page of the trackings\' runs too large to read is read again in smaller pages: every response of our runs once', async () => {
  wh = await Warehouse.open(':memory:');
  const model = new ProviderModel();
  model.request('run-1', T0);
  model.respond('run-1', T0 + 1, 30);
  model.complete('run-1', T0 + 500);
  for (const i of model.items) Object.assign(i, { origin: 'tracking', origin_id: 't-1' });
  const asked: number[] = [];
  const listAcross = async (q: Record<string, string | number | undefined>) => {
    asked.push(Number(q.page_size));
    if (Number(q.page_size) > 8) throw Object.assign(new Error('GET /responses answered a body larger than its limit; ask for smaller pages'), { code: 'API_TOO_LARGE' });
    return model.listAcross(q);
  };
  const cap = captureLogger();
  const ctx = {
    wh, runId: 'run-a', log: cap.logger, signal: new AbortController().signal,
    api: {
      responses: { listAcross },
      requests: { list: async () => ({ items: [], allCount: 0, allPagesCount: 1 }) },
      providerNow: () => undefined, spentBudget: () => false,
    },
  } as unknown as RunContext;
  const ours = new Map<string, TrackedSearch>([['t-1', { searchType: 'cpf', searchKey: '09206529722' }]]);
  const figures = await readTrackingRuns({
    ctx, sink: new PageSink(wh, { runId: 'run-a' }), sizer: new PageSizer({ max: 100, targetBytes: 4e6 }),
    reading: { params: MODEL_SWEEP_PARAMS, pageSize: 100 }, ours, firstFrom: T0,
  });
  expect(asked[0]).toBe(100);
  expect(asked.filter((s) => s <= 8).length).toBeGreaterThan(0);
  expect(cap.text()).toContain('too large to read: reading it again in smaller pages');
  expect(figures).toMatchObject({ responses: 30, runs: 1 });
  const loaded = (await wh.all<{ id: string }>('SELECT response_id AS id FROM responses_raw ORDER BY 1')).map((r) => r.id);
  expect(loaded).toEqual(model.responsesOf(['run-1']));
  const [read] = await wh.all<{ status: string }>('SELECT status FROM tracking_reads');
  expect(read.status).toBe('done');
});
