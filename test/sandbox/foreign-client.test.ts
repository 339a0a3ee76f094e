// The `foreign` fault: another client shares the key and makes requests of its own during the night. Its
// responses appear in GET /responses without request_id, interleaved in creation time with the caller's, its
// requests in GET /requests; each of its requests takes a slot of the key's rate window.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox, waitFinished } from './helpers.js';

const SECOND = 1000;

describe('foreign client', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  test('its requests and responses show up in the key\'s listings, interleaved in time with ours', async () => {
    sb = await sandbox({ faults: 'foreign=1:1000', rateLimit: 1000 });
    const ours = new Set<string>();
    const docs = sb.sampleDocuments(30).filter((d) => d.search_type === 'cpf' || d.search_type === 'cnpj');
    for (const d of docs.slice(0, 6)) {
      const id = (await call(sb, 'POST', '/requests', { search: { search_type: d.search_type, search_key: d.search_key } })).body.request_id;
      ours.add(id);
      await waitFinished(sb, id);
      // Five seconds of the night pass between two of our searches: the other client makes five requests.
      sb.setNow(new Date(sb.state.clock.now() + 5 * SECOND));
    }
    const requests = (await call(sb, 'GET', '/requests?page_size=100')).body.page_data;
    const theirs = requests.filter((r: any) => !ours.has(r.request_id));
    expect(theirs.length).toBeGreaterThanOrEqual(20);
    for (const r of theirs) expect(r.user_id).toBe(requests.find((x: any) => ours.has(x.request_id)).user_id);
    sb.setNow(new Date(sb.state.clock.now() + 60 * SECOND));
    const items = (await call(sb, 'GET', '/responses?page_size=100&order_by=created_at&order=asc')).body.page_data;
    const owner = items.map((i: any) => (ours.has(i.request_id) ? 'ours' : 'theirs'));
    expect(owner).toContain('ours');
    expect(owner).toContain('theirs');
    // Interleaved: their items come both before and after some of ours.
    expect(owner.indexOf('theirs')).toBeLessThan(owner.lastIndexOf('ours'));
    expect(owner.lastIndexOf('theirs')).toBeGreaterThan(owner.indexOf('ours'));
    const dates = items.map((i: any) => i.created_at);
    expect([...dates].sort()).toEqual(dates);
  });

  test('its requests take slots of the key\'s rate window, and it is silent when switched off', async () => {
    sb = await sandbox({ faults: 'foreign=1:1000', rateLimit: 1000 });
    const first = await call(sb, 'GET', '/requests');
    const before = Number(first.headers.get('x-ratelimit-remaining'));
    sb.setNow(new Date(sb.state.clock.now() + 10 * SECOND));
    const after = await call(sb, 'GET', '/requests');
    // Our one call and ten foreign requests.
    expect(before - Number(after.headers.get('x-ratelimit-remaining'))).toBe(11);
    expect(after.body.meta.all_count).toBe(10);
    sb.setFaults('');
    sb.setNow(new Date(sb.state.clock.now() + 10 * SECOND));
    expect((await call(sb, 'GET', '/requests')).body.meta.all_count).toBe(10);
  });
});
