import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import type { Search } from '../../src/spec/types.js';
import { KEY, closedAfterEach, json, startStub, urlsOf } from './stub.js';

// `with_attachments` is a field of the request's body beside `search`, not of the search (REFERENCE.md, "Two
// levels": "with_attachments: true, top level of the body; only for lawsuit_cnj"); the filter, the credential and
// masked_response travel inside `search.search_params` untouched. A body that asks no attachments carries no field.

const keep = closedAfterEach();

const search: Search = {
  search_type: 'lawsuit_cnj', search_key: '0710802-55.2018.8.02.0001', response_type: 'lawsuit',
  search_params: { filter: { side: 'Passive', tribunals: { keys: ['TJAL'], not_equal: false } }, credential: { customer_key: 'vault' } },
};

describe('what a request asks beside its search', () => {
  it('goes at the top level of POST /requests and POST /tracking, the search as given', async () => {
    const stub = keep(await startStub((_req, res, call) => {
      if (call.path === '/rq/requests') return json(res, 201, { request_id: 'r-1', status: 'pending', created_at: new Date().toISOString(), search: (call.body as { search: Search }).search });
      if (call.path === '/tk/tracking') return json(res, 200, { tracking_id: 't-1', status: 'created', recurrence: 1, search: (call.body as { search: Search }).search, created_at: new Date().toISOString() });
      json(res, 404, {});
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10 }));
    await api.requests.create(search, { withAttachments: true });
    await api.requests.create(search);
    await api.tracking.create(search, 1, { withAttachments: true });
    await api.tracking.create(search, 1);
    expect(stub.calls.map((c) => c.body)).toEqual([
      { search, with_attachments: true },
      { search },
      { recurrence: 1, search, with_attachments: true },
      { recurrence: 1, search },
    ]);
  });
});
