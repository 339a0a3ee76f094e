import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { sameSearch } from '../../src/api/search-match.js';
import { KEY, closedAfterEach, json, startStub, urlsOf } from './stub.js';

const keep = closedAfterEach();

const search = { search_type: 'cnpj' as const, search_key: '11.222.333/0001-81' };
const TRK = 'a1b2c3d4-0000-4000-8000-0000000000aa';

describe('tracking', () => {
  it('returns the created tracking, and {conflict: true} with the existing id on 409', async () => {
    let n = 0;
    const stub = keep(await startStub((_req, res, call) => {
      n++;
      if (n === 1) return json(res, 200, { tracking_id: TRK, status: 'created', recurrence: (call.body as { recurrence: number }).recurrence, search: (call.body as { search: unknown }).search, created_at: 'x' });
      // docs/dialect-and-spec-gaps.md, "Spec gaps": duplicate -> 409 {error: {name: 'Conflict', message, data: [tracking_id]}}.
      json(res, 409, { error: { name: 'Conflict', message: 'already tracked', data: [TRK] } });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const first = await api.tracking.create(search, 7);
    expect(first.conflict).toBe(false);
    if (!first.conflict) expect(first.tracking.tracking_id).toBe(TRK);
    const second = await api.tracking.create(search, 7);
    expect(second).toEqual({ conflict: true, trackingId: TRK });
    expect(stub.calls[0].body).toEqual({ recurrence: 7, search });
    expect(stub.calls[0].path).toBe('/tk/tracking');
  });
});

describe('synchronous queries', () => {
  it('send each query to its route under the lawsuits base and check the answers', async () => {
    const stub = keep(await startStub((_req, res, call) => {
      // Spec "Synchronous historical query", "Count", "Grouped summary", "True/false query".
      if (call.path === '/ls/lawsuits') return json(res, 200, { has_lawsuits: true, request_id: 'r', response_data: [{ code: '0710802-55.2018.8.02.0001', instance: 1 }] });
      if (call.path === '/ls/requests/count') return json(res, 200, { total: 5 });
      if (call.path === '/ls/requests/create/grouped') return json(res, 200, { classifications: [{ count: 2, value: 'x' }], subjects: [], areas: [], tribunals: [], justices: [], phases: [], states: [], instances: [{ count: 2, value: 1 }], sides: [], person_types: [], lawsuits_count: 2 });
      if (call.path === '/ls/requests/create') return json(res, 200, { has_lawsuits: false, request_id: 'r', response_data: [] });
      json(res, 404, {});
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const h = await api.lawsuits.historical({ search, process_status: true });
    expect(h.response_data[0].code).toBe('0710802-55.2018.8.02.0001');
    expect((await api.lawsuits.count({ search })).total).toBe(5);
    expect((await api.lawsuits.grouped({ search })).lawsuits_count).toBe(2);
    expect((await api.lawsuits.exists({ search: { ...search, search_params: { create_complete_request: false } } })).has_lawsuits).toBe(false);
    expect(stub.calls[0].body).toEqual({ search, process_status: true });
    expect(Object.keys(api.stats().byRoute).sort()).toEqual(['POST /lawsuits', 'POST /requests/count', 'POST /requests/create', 'POST /requests/create/grouped']);
  });

  it('rejects a count without total as API_BAD_RESPONSE', async () => {
    const stub = keep(await startStub((_req, res) => json(res, 200, { count: 5 })));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub) }));
    const e = await api.lawsuits.count({ search }).catch((x: unknown) => x);
    expect((e as { code: string }).code).toBe('API_BAD_RESPONSE');
  });
});

describe('matching a lost submission (pure)', () => {
  it('matches the echoed search regardless of punctuation and empty echoes, and tells apart what differs', () => {
    const echoed = { search_type: 'cnpj' as const, search_key: '11222333000181', response_type: 'lawsuit', search_params: { filter: {}, pagination: {} } };
    expect(sameSearch(search, echoed)).toBe(true);
    expect(sameSearch({ ...search, on_demand: true }, echoed)).toBe(false);
    expect(sameSearch({ ...search, search_type: 'cpf' }, echoed)).toBe(false);
    expect(sameSearch({ ...search, search_params: { lawsuit_instance: 2 } }, echoed)).toBe(false);
    expect(sameSearch({ ...search, search_params: { filter: { side: 'Passive' } } }, echoed)).toBe(false);
    expect(sameSearch({ ...search, search_params: { filter: { side: 'Passive' } } }, { ...echoed, search_params: { filter: { side: 'Passive' } } })).toBe(true);
  });
});
