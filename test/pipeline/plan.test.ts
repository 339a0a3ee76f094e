import { describe, expect, it } from 'vitest';
import { planRun, searchFor } from '../../src/pipeline/plan.js';
import { searchIdentity } from '../../src/spec/identifiers.js';
import type { DocumentSpec } from '../../src/input/documents.js';

const doc = (line: number, key: string, extra: Partial<DocumentSpec> = {}): DocumentSpec =>
  ({ line, searchType: 'cpf', searchKey: key, rawKey: key, onDemand: false, ...extra });
const now = new Date('2026-11-21T03:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

describe('planning a run', () => {
  it('submits new documents, resumes outstanding ones and skips fresh ones', () => {
    const docs = [doc(2, '09206529722'), doc(3, '11144477735'), doc(4, '52998224725', { onDemand: true })];
    const history = new Map([
      [searchIdentity(searchFor(docs[0])), { lastSuccessAt: hoursAgo(5) }],
      [searchIdentity(searchFor(docs[1])), { outstandingRequestId: 'r-1', lastSuccessAt: hoursAgo(50) }],
    ]);
    const plan = planRun(docs, history, { now, freshnessDays: 1, force: false, pageSize: 100 });
    expect(plan.fresh.map((p) => p.doc.line)).toEqual([2]);
    expect(plan.resume.map((p) => [p.doc.line, p.requestId])).toEqual([[3, 'r-1']]);
    expect(plan.submit.map((p) => p.doc.line)).toEqual([4]);
    expect(plan.onDemand).toBe(1);
    // one submission, one polling round for both requests, one first page each
    expect(plan.expectedCalls).toBe(1 + 1 + 2);
  });

  it('estimates the calls of the strategy in force from the answers each search had last time', () => {
    const docs = [doc(2, '09206529722'), doc(3, '11144477735'), doc(4, '52998224725'), doc(5, '39053344705')];
    const history = new Map([
      [searchIdentity(searchFor(docs[0])), { lastSuccessAt: hoursAgo(50), lastResponses: 2 }],
      [searchIdentity(searchFor(docs[1])), { lastSuccessAt: hoursAgo(50), lastResponses: 0 }],
      [searchIdentity(searchFor(docs[2])), { lastSuccessAt: hoursAgo(50), lastResponses: 250 }],
    ]);
    const at = (strategy: 'sweep' | 'per-request') => planRun(docs, history, { now, freshnessDays: 1, force: false, pageSize: 100, strategy }).expectedCalls;
    // four submissions and one polling round either way; per request 1 + 1 + 3 + 1 pages, swept ceil(252 / 100)
    expect(at('per-request')).toBe(4 + 1 + 6);
    expect(at('sweep')).toBe(4 + 1 + 3);
    expect(planRun(docs, new Map(), { now, freshnessDays: 1, force: false, pageSize: 100, strategy: 'sweep' }).expectedCalls).toBe(4 + 1 + 1);
  });

  it('searches a document again once its last search is older than freshness_days, or with --force', () => {
    const d = doc(2, '09206529722');
    const history = new Map([[searchIdentity(searchFor(d)), { lastSuccessAt: hoursAgo(30) }]]);
    expect(planRun([d], history, { now, freshnessDays: 1, force: false, pageSize: 100 }).submit).toHaveLength(1);
    const recent = new Map([[searchIdentity(searchFor(d)), { lastSuccessAt: hoursAgo(2) }]]);
    expect(planRun([d], recent, { now, freshnessDays: 1, force: true, pageSize: 100 }).submit).toHaveLength(1);
    expect(planRun([d], recent, { now, freshnessDays: 0, force: false, pageSize: 100 }).submit).toHaveLength(1);
  });

  it('builds the search body from the line: on_demand, instance and cache TTL only when given', () => {
    expect(searchFor(doc(2, '09206529722'))).toEqual({ search_type: 'cpf', search_key: '09206529722', response_type: 'lawsuit' });
    expect(searchFor(doc(2, '0710802-55.2018.8.02.0001', { searchType: 'lawsuit_cnj', onDemand: true, lawsuitInstance: 2, cacheTtlInDays: 3 }))).toEqual({
      search_type: 'lawsuit_cnj', search_key: '0710802-55.2018.8.02.0001', response_type: 'lawsuit', on_demand: true, cache_ttl_in_days: 3,
      search_params: { lawsuit_instance: 2 },
    });
    // on_demand and instance make different searches; the same search made twice has one identity
    expect(searchIdentity(searchFor(doc(2, 'x')))).not.toBe(searchIdentity(searchFor(doc(2, 'x', { onDemand: true }))));
    expect(searchIdentity(searchFor(doc(2, 'x')))).toBe(searchIdentity(searchFor(doc(9, 'x', { label: 'other' }))));
  });
});
