// The `ignore_filters` fault: GET /responses ignores every parameter but request_id, page and page_size, as an
// upstream that does not know our guessed filter names may: it answers the key's whole history in its default
// order (creation time, ascending), with no 400 for the names it does not know.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox, waitFinished } from './helpers.js';

describe('ignore filters', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  test('filters, order and unknown names are ignored; request_id, page and page_size are honoured', async () => {
    sb = await sandbox();
    const ids: string[] = [];
    for (const d of sb.sampleDocuments(10).filter((x) => x.search_type === 'cnpj' || x.search_type === 'cpf').slice(0, 3)) {
      const id = (await call(sb, 'POST', '/requests', { search: { search_type: d.search_type, search_key: d.search_key } })).body.request_id;
      ids.push(id);
      await waitFinished(sb, id);
    }
    const whole = (await call(sb, 'GET', '/responses?page_size=100')).body;
    expect(whole.all_count).toBeGreaterThan(3);
    const filtered = '/responses?page_size=100&created_at_gte=2100-01-01T00:00:00Z&order=desc&request_status=pending&response_type=steps&made_up=1';
    expect((await call(sb, 'GET', filtered)).status).toBe(400);

    sb.setFaults('ignore_filters=1');
    const ignored = await call(sb, 'GET', filtered);
    expect(ignored.status).toBe(200);
    expect(ignored.body.all_count).toBe(whole.all_count);
    expect(ignored.body.page_data.map((i: any) => i.response_id)).toEqual(whole.page_data.map((i: any) => i.response_id));
    const dates = ignored.body.page_data.map((i: any) => i.created_at);
    expect([...dates].sort()).toEqual(dates);
    const one = await call(sb, 'GET', `/responses?request_id=${ids[1]}&page=1&page_size=2&order=desc`);
    expect(one.body.page_data.every((i: any) => i.request_id === ids[1])).toBe(true);
    expect(one.body.page_count).toBeLessThanOrEqual(2);
    const asc = (await call(sb, 'GET', `/responses?request_id=${ids[1]}&page_size=100`)).body.page_data.map((i: any) => i.response_id);
    expect(one.body.page_data.map((i: any) => i.response_id)).toEqual(asc.slice(0, 2));
  });
});
