// A dry run's client (readsOnly) may list what it plans from, and refuses every call that would create, change or
// buy something before it leaves: whatever a stage asks, a plan costs nothing at the provider.
import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import type { Search } from '../../src/spec/types.js';
import { KEY, closedAfterEach, json, startStub, urlsOf } from './stub.js';

const keep = closedAfterEach();

const search: Search = { search_type: 'cpf', search_key: '092.065.297-22' };

describe('a dry run\'s client', () => {
  it('lists, and refuses creations, pauses, resumes and deletions without sending them', async () => {
    const stub = keep(await startStub((_req, res, call) => {
      if (call.method === 'GET') json(res, 200, { page_data: [], links: { next: null }, meta: { page: 1, page_count: 0, all_pages_count: 1, all_count: 0 } });
      else json(res, 201, {});
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), retries: 0, readsOnly: true }));
    expect(await api.tracking.all()).toEqual([]);
    const refused = [
      () => api.requests.create(search), () => api.tracking.create(search, 1), () => api.tracking.pause('t-1'),
      () => api.tracking.resume('t-1'), () => api.tracking.delete('t-1'),
    ];
    for (const call of refused) await expect(call()).rejects.toMatchObject({ code: 'RUN_SENDS_NOTHING' });
    expect(stub.calls.map((c) => c.method)).toEqual(['GET']);
    expect(api.stats().calls).toBe(1);
  });
});
