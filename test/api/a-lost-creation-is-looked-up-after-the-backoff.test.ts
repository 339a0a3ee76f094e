import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import type { Search } from '../../src/spec/types.js';
import { KEY, closedAfterEach, json, startStub, urlsOf } from './stub.js';

// A creation answered by a 503 may have been made: the one retry loop looks it up before sending it again. The
// look-up waits the client's backoff on top of its floor (lookupDelayMs), so a 503's Retry-After is honoured
// (it used to wait a fixed second, whatever the service asked), and gives up after maxLookups.

const keep = closedAfterEach();

const search: Search = { search_type: 'cpf', search_key: '09206529722' };

describe('the look-up of a lost creation', () => {
  it('waits at least the 503\'s Retry-After before looking, and adopts what was made', async () => {
    const at: Record<string, number> = {};
    const made = { request_id: 'r-1', status: 'pending', created_at: '', search };
    const stub = keep(await startStub((_req, res, call) => {
      if (call.method === 'POST') {
        at.post = Date.now();
        made.created_at = new Date().toISOString();
        return json(res, 503, { error: 'busy' }, { 'retry-after': '1' });
      }
      at.lookup ??= Date.now();
      json(res, 200, { page_data: [made], links: { next: null }, meta: { page: 1, page_count: 1, all_pages_count: 1, all_count: 1 } });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 10, lookupDelayMs: 10 }));
    const r = await api.requests.create(search);
    expect(r.request_id).toBe('r-1');
    expect(stub.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(at.lookup - at.post).toBeGreaterThanOrEqual(1000);
  });

  it('gives up after maxLookups look-ups that found nothing, each followed by one more submission', async () => {
    const stub = keep(await startStub((_req, res, call) => {
      if (call.method === 'POST') return json(res, 502, { error: 'bad gateway' });
      json(res, 200, { page_data: [], links: { next: null }, meta: { page: 1, page_count: 0, all_pages_count: 1, all_count: 0 } });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 1, maxDelayMs: 2, lookupDelayMs: 1 }));
    const e = await api.requests.create(search, { maxLookups: 2 }).catch((x: unknown) => x as { code: string; exhausted?: boolean });
    expect(e.code).toBe('API_SERVER');
    expect(e.exhausted).toBe(true);
    expect(stub.calls.map((c) => c.method)).toEqual(['POST', 'GET', 'POST', 'GET', 'POST']);
  });
});
