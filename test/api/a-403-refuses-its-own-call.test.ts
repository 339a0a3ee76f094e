import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { resolveFailure } from '../../src/shared/failure-policy.js';
import type { Search } from '../../src/spec/types.js';
import { KEY, closedAfterEach, json, startStub, urlsOf } from './stub.js';

// The provider documents 403 for a resource not in the plan, and for one secret lawsuit searched without a
// credential. One 403 refuses its own call (its document fails, the others go on); a resource that answers 403
// again and again with no success between is refused for the night, its queued calls failing unsent.

const keep = closedAfterEach();

const search = (key: string): Search => ({ search_type: 'lawsuit_cnj', search_key: key });
/** 403s in a row, with no success between, that refuse the resource (docs/dialect-and-spec-gaps.md: three). */
const PLAN_WIDE_403 = 3;
const secret = { error: { name: 'HttpForbiddenError', message: 'forbidden', data: ['SECRET_LAWSUIT_WITHOUT_CREDENTIAL'] } };
const forbidden = { error: { name: 'HttpForbiddenError', message: 'forbidden', data: ['INSUFFICIENT_PERMISSIONS'] } };

describe('a 403', () => {
  it('refuses its own search only: the searches before and after it are created', async () => {
    let n = 0;
    const stub = keep(await startStub((_req, res, call) => {
      const key = (call.body as { search: Search }).search.search_key;
      if (key === 'secret') return json(res, 403, n % 2 === 0 ? forbidden : secret);
      json(res, 201, { request_id: `r-${++n}`, status: 'pending', created_at: new Date().toISOString(), search: { search_type: 'lawsuit_cnj', search_key: key } });
    }));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 5 }));
    const outcomes = [];
    for (const key of ['a', 'secret', 'b', 'secret', 'c']) {
      outcomes.push(await api.requests.create(search(key)).then((r) => r.request_id, (e) => `${e.code}:${resolveFailure(e).reach}`));
    }
    expect(outcomes).toEqual(['r-1', 'API_SECRET_LAWSUIT:item', 'r-2', 'API_FORBIDDEN_ONE:item', 'r-3']);
  });

  it('saying secrecy, however many in a row, refuses its own search only: a night of secret lawsuits never refuses the resource', async () => {
    const stub = keep(await startStub((_req, res) => json(res, 403, secret)));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 5, maxConcurrency: 1 }));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => api.requests.create(search(`k${i}`)).catch((e) => `${e.code}:${resolveFailure(e).reach}`)));
    expect(stub.calls.filter((c) => c.method === 'POST')).toHaveLength(10);
    expect(results).toEqual(Array(10).fill('API_SECRET_LAWSUIT:item'));
  });

  it(`answered ${PLAN_WIDE_403} times in a row, refuses the resource: what is queued fails unsent, and the stage is refused`, async () => {
    const stub = keep(await startStub((_req, res) => json(res, 403, forbidden)));
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(stub), baseDelayMs: 5, maxConcurrency: 1 }));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => api.requests.create(search(`k${i}`)).catch((e) => e.code as string)));
    expect(stub.calls.filter((c) => c.method === 'POST')).toHaveLength(PLAN_WIDE_403);
    expect(results.slice(0, PLAN_WIDE_403 - 1)).toEqual(Array(PLAN_WIDE_403 - 1).fill('API_FORBIDDEN_ONE'));
    expect(results.slice(PLAN_WIDE_403 - 1)).toEqual(Array(10 - PLAN_WIDE_403 + 1).fill('API_FORBIDDEN'));
  });
});
