import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { LawsuitApi } from '../../src/api/client.js';
import { pageDataElements } from '../../src/shared/raw-json.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';
import { startStub, urlsOf, type Stub } from '../api/stub.js';

// responses_raw keeps each item exactly as the service sent it: the bytes of the item, not JSON.parse's reading
// of them. Typed columns get what fits; what does not is a row of load_problems, never a silent NULL or a
// lawsuit dropped without a word. Driven through the real HTTP client against a stub that writes its own text.

const CODE = (n: number): string => `000000${n}-00.2020.8.26.0100`;
const lawsuit = (n: number, extra: string): string =>
  `{"code":"${CODE(n)}","instance":1,"name":"L${n}","amount":1234.5,"steps":[{"step_id":"s1","step_date":"2020-01-02T03:04:05Z","content":"c"}]${extra}}`;
const item = (n: number, data: string, type = 'lawsuit'): string =>
  `{"response_id":"r${n}","request_id":"q1","response_type":"${type}","created_at":"2024-01-01T00:00:0${n % 10}Z","response_data":${data},"user_id":"u"}`;

const ITEMS = [
  item(1, lawsuit(1, ',"big_id":9007199254740993,"ratio":1e400,"tiny":1.00000000000000000001')),
  // an instance beyond 32 bits: the lawsuit has no usable key
  item(2, `{"code":"${CODE(2)}","instance":9007199254740993,"name":"L2"}`),
  // an amount beyond DECIMAL(18,2), and one JSON.parse cannot even hold
  item(3, lawsuit(3, '').replace('"amount":1234.5', '"amount":99999999999999999999.99')),
  item(4, lawsuit(4, '').replace('"amount":1234.5', '"amount":1e400')),
  // dates DuckDB cannot read, in the lawsuit and in a step
  item(5, lawsuit(5, ',"distribution_date":"31/02/2020"').replace('"step_date":"2020-01-02T03:04:05Z"', '"step_date":"ontem"')),
  // an unknown property 5,000 levels deep
  item(6, lawsuit(6, `,"deep":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)),
  item(7, '{"code":2,"message":"LAWSUIT_NOT_FOUND"}', 'application_error'),
];
const PAGE = `{"request_status":"completed","page":1,"page_count":${ITEMS.length},"all_pages_count":1,"all_count":${ITEMS.length},\n"page_data":[\n  ${ITEMS.join(',\n  ')}\n]}`;

describe('loading a page as the service sent it', () => {
  let stub: Stub;
  let wh: Warehouse;
  const tmp = scratch();
  beforeAll(async () => {
    stub = await startStub((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(PAGE); });
    const api = new LawsuitApi({ apiKey: 'k', urls: urlsOf(stub) });
    const page = await api.responses.list({ request_id: 'q1' });
    await api.close();
    wh = await Warehouse.open(join(tmp.dir, 'w.duckdb'), { memoryLimit: '128MB', threads: 1 });
    await loadResponseItems(wh, page.items, { runId: 'run-1' });
  });
  afterAll(async () => {
    await wh.close();
    await stub.close();
    tmp.cleanup();
  });

  test('responses_raw.item is each item\'s text, byte for byte, numbers beyond 2^53 and 1e400 included', async () => {
    const rows = await wh.all<{ response_id: string; item: string }>('SELECT response_id, item::VARCHAR AS item FROM responses_raw ORDER BY response_id');
    expect(rows.map((r) => r.item)).toEqual(pageDataElements(PAGE));
    expect(rows[0].item).toContain('"big_id":9007199254740993,"ratio":1e400,"tiny":1.00000000000000000001');
  });

  test('lawsuits.raw is the response_data text; steps.raw its slice', async () => {
    const [l] = await wh.all<{ raw: string }>(`SELECT raw::VARCHAR AS raw FROM lawsuits WHERE code = $1`, [CODE(1)]);
    expect(l.raw).toBe(lawsuit(1, ',"big_id":9007199254740993,"ratio":1e400,"tiny":1.00000000000000000001'));
    const [s] = await wh.all<{ raw: string }>(`SELECT raw::VARCHAR AS raw FROM steps WHERE code = $1`, [CODE(1)]);
    expect(s.raw).toBe('{"step_id":"s1","step_date":"2020-01-02T03:04:05Z","content":"c"}');
  });

  test('the 5,000-level lawsuit loads whole', async () => {
    const [l] = await wh.all<{ n: number; len: number }>(`SELECT count(*) AS n, max(length(raw::VARCHAR)) AS len FROM lawsuits WHERE code = $1`, [CODE(6)]);
    expect(l).toEqual({ n: 1, len: lawsuit(6, `,"deep":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`).length });
  });

  test('typed columns get what fits; every value that does not is a load problem with the value as received', async () => {
    const lawsuits = await wh.all<{ code: string; amount: string | null; distribution_date: Date | null }>(
      'SELECT code, amount::VARCHAR AS amount, distribution_date FROM lawsuits ORDER BY code');
    expect(lawsuits.map((l) => [l.code, l.amount])).toEqual([[CODE(1), '1234.50'], [CODE(3), null], [CODE(4), null], [CODE(5), '1234.50'], [CODE(6), '1234.50']]);
    const problems = await wh.all<{ response_id: string; code: string | null; instance: number | null; field: string; value: string; problem: string; detail: string }>(
      'SELECT response_id, code, instance, field, value, problem, detail FROM load_problems ORDER BY response_id, field');
    expect(problems.map((p) => [p.response_id, p.field, p.value, p.problem])).toEqual([
      ['r2', 'instance', '9007199254740993', 'out_of_range'],
      ['r3', 'amount', '99999999999999999999.99', 'out_of_range'],
      ['r4', 'amount', '1e400', 'out_of_range'],
      ['r5', 'distribution_date', '31/02/2020', 'not_a_date'],
      ['r5', 'steps[s1].step_date', 'ontem', 'not_a_date'],
    ]);
    expect(problems[0]).toMatchObject({ code: CODE(2), instance: null, detail: expect.stringMatching(/responses_raw only/) });
    expect(problems[1]).toMatchObject({ code: CODE(3), instance: 1 });
  });

  test('loading the page again adds no row anywhere', async () => {
    const count = async () => wh.all(`SELECT (SELECT count(*) FROM responses_raw) AS r, (SELECT count(*) FROM lawsuits) AS l,
      (SELECT count(*) FROM steps) AS s, (SELECT count(*) FROM load_problems) AS p`);
    const before = await count();
    const api = new LawsuitApi({ apiKey: 'k', urls: urlsOf(stub) });
    const again = await api.responses.list({ request_id: 'q1' });
    await api.close();
    const c = await loadResponseItems(wh, again.items, { runId: 'run-2' });
    expect(c).toMatchObject({ newResponses: 0, problems: 0 });
    expect(await count()).toEqual(before);
  });
});
