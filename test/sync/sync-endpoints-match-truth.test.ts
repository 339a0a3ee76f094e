// The four synchronous endpoints answer, for every search type and every filter, exactly the lawsuits the
// sandbox's ground truth (the lagging database view) gives for the same search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LawsuitApi } from '../../src/api/client.js';
import type { Filter, Lawsuit } from '../../src/spec/types.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { LAWSUITS, SEED, clientFor, get, keySet, post, richestParty } from './helpers.js';

let sandbox: Sandbox;
let api: LawsuitApi;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: SEED, lawsuits: LAWSUITS, rateLimit: 100_000, dialect: 'spec' });
  api = clientFor(sandbox);
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
});

type Base = { search_type: any; search_key: string };

async function allFour(search: Base & { search_params?: { filter?: Filter; lawsuit_instance?: number } }) {
  const [count, hist, exists, grouped] = await Promise.all([
    api.lawsuits.count({ search }),
    api.lawsuits.historical({ search }),
    api.lawsuits.exists({ search: { ...search, search_params: search.search_params ?? {} } }),
    api.lawsuits.grouped({ search }),
  ]);
  return { count, hist, exists, grouped };
}

describe('every search type', () => {
  it('count, historical, exists and grouped agree with the ground truth for the sample documents', async () => {
    const docs = sandbox.sampleDocuments(14);
    expect(new Set(docs.map((d) => d.search_type)).size).toBeGreaterThanOrEqual(4);
    let withLawsuits = 0;
    for (const d of docs) {
      const search = { search_type: d.search_type as any, search_key: d.search_key };
      const truth = sandbox.truth(search);
      const { count, hist, exists, grouped } = await allFour(search);
      expect(count.total, `${d.search_type} ${d.search_key}`).toBe(truth.length);
      expect(keySet(hist.response_data as Lawsuit[])).toEqual(keySet(truth));
      expect(hist.has_lawsuits).toBe(truth.length > 0);
      expect(exists.has_lawsuits).toBe(truth.length > 0);
      expect(exists.response_data).toEqual([]);
      expect(grouped.lawsuits_count).toBe(truth.length);
      if (truth.length > 0) withLawsuits++;
    }
    expect(withLawsuits).toBeGreaterThan(5);
  });
});

describe('filters', () => {
  let base: Base;
  let all: Lawsuit[];
  beforeAll(async () => {
    base = richestParty(sandbox) as Base;
    all = (await api.lawsuits.historical({ search: base, process_status: true })).response_data;
  });

  const mostCommon = (values: string[]): string => {
    const m = new Map<string, number>();
    for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
    return [...m.entries()].sort((a, b) => b[1] - a[1])[0][0];
  };
  const median = <T>(xs: T[]): T => [...xs].sort()[Math.floor(xs.length / 2)];

  it('has a party rich enough to make every filter bite', () => {
    expect(all.length).toBeGreaterThanOrEqual(8);
  });

  it('applies each filter as the ground truth does, on all four endpoints', async () => {
    const tribunal = mostCommon(all.map((l) => l.tribunal_acronym as string));
    const subject = mostCommon(all.flatMap((l) => (l.subjects ?? []).map((s) => s.code)));
    const cls = mostCommon(all.flatMap((l) => (l.classifications ?? []).map((c) => c.code)));
    const amount = median(all.map((l) => l.amount as number).sort((a, b) => a - b));
    const distributed = median(all.map((l) => l.distribution_date as string));
    const lastSteps = all.map((l) => (l.last_step as { step_date?: string } | undefined)?.step_date).filter((x): x is string => !!x);
    const lastStep = median(lastSteps);
    const other = all.flatMap((l) => l.parties ?? []).find((p) => p.document && p.document !== base.search_key.replace(/\D/g, '') && p.person_type !== 'Advogado')!;
    const filters: Record<string, Filter> = {
      side: { side: 'Passive' },
      side_active: { side: 'Active' },
      distribution_date_gte: { distribution_date_gte: distributed },
      amount_gte: { amount_gte: amount },
      amount_lte: { amount_lte: amount },
      tribunals: { tribunals: { keys: [tribunal], not_equal: false } },
      tribunals_not_equal: { tribunals: { keys: [tribunal], not_equal: true } },
      subject_contains: { subject_codes: { contains: [subject] } },
      subject_conteins: { subject_codes: { conteins: [subject] } },
      subject_not_contains: { subject_codes: { not_contains: [subject] } },
      subject_keys_not_equal: { subject_codes: { keys: [subject], not_equal: true } },
      classification: { classification_codes: { keys: [cls] } },
      classification_not_equal: { classification_codes: { keys: [cls], not_equal: true } },
      last_step_date_gte: { last_step_date_gte: lastStep },
      last_step_date_lte: { last_step_date_lte: lastStep },
      party_names: { party_names: [other.name.toUpperCase()] },
      party_documents: { party_documents: [other.document!] },
      side_with_party_names: { side: 'Passive', party_names: [other.name] },
    };
    const sizes: Record<string, number> = {};
    for (const [name, filter] of Object.entries(filters)) {
      const search = { ...base, search_params: { filter } };
      const truth = sandbox.truth(search);
      sizes[name] = truth.length;
      const { count, hist, exists, grouped } = await allFour(search);
      expect(count.total, name).toBe(truth.length);
      expect(keySet(hist.response_data), name).toEqual(keySet(truth));
      expect(exists.has_lawsuits, name).toBe(truth.length > 0);
      expect(grouped.lawsuits_count, name).toBe(truth.length);
    }
    // The filters do something, and include/exclude split the whole.
    for (const f of ['tribunals', 'subject_contains', 'classification', 'party_documents', 'amount_gte']) expect(sizes[f], f).toBeGreaterThan(0);
    expect(sizes.tribunals + sizes.tribunals_not_equal).toBe(all.length);
    expect(sizes.subject_contains + sizes.subject_not_contains).toBe(all.length);
    expect(sizes.subject_conteins).toBe(sizes.subject_contains);
    expect(sizes.subject_keys_not_equal).toBe(sizes.subject_not_contains);
    expect(sizes.classification + sizes.classification_not_equal).toBe(all.length);
    expect(sizes.tribunals).toBeLessThan(all.length + (sizes.tribunals_not_equal === 0 ? 1 : 0));
  });

  it('returns only lawsuits that satisfy the filter (checked on the payloads themselves)', async () => {
    const amount = all.map((l) => l.amount as number).sort((a, b) => a - b)[Math.floor(all.length / 2)];
    const tribunal = all[0].tribunal_acronym as string;
    const r = await api.lawsuits.historical({ search: { ...base, search_params: { filter: { amount_gte: amount, tribunals: { keys: [tribunal] } } } } });
    expect(r.response_data.length).toBeGreaterThan(0);
    for (const l of r.response_data) {
      expect(l.amount as number).toBeGreaterThanOrEqual(amount);
      expect(l.tribunal_acronym).toBe(tribunal);
    }
  });

  it('restricts to one instance with lawsuit_instance', async () => {
    for (const instance of [1, 2]) {
      const search = { ...base, search_params: { lawsuit_instance: instance } };
      const truth = sandbox.truth(search);
      const r = await api.lawsuits.historical({ search });
      expect(keySet(r.response_data)).toEqual(keySet(truth));
      for (const l of r.response_data) expect(l.instance).toBe(instance);
      expect((await api.lawsuits.count({ search })).total).toBe(truth.length);
    }
  });
});

describe('POST /lawsuits payloads', () => {
  it('leaves phase and status out unless process_status is true', async () => {
    const base = richestParty(sandbox) as Base;
    const plain = await api.lawsuits.historical({ search: base });
    const withStatus = await api.lawsuits.historical({ search: base, process_status: true });
    expect(plain.response_data.length).toBeGreaterThan(0);
    for (const l of plain.response_data) { expect(l).not.toHaveProperty('phase'); expect(l).not.toHaveProperty('status'); }
    for (const l of withStatus.response_data) {
      expect(typeof l.phase).toBe('string');
      expect(['Ativo', 'Finalizado']).toContain(l.status);
    }
  });

  it('shows the lagging database state, not the courts of today', async () => {
    const now = Date.parse((await get(sandbox, '/_sandbox/clock')).body.now);
    const docs = sandbox.sampleDocuments(10).filter((d) => d.search_type === 'lawsuit_cnj');
    let lagging = 0;
    for (const d of docs) {
      const r = await api.lawsuits.historical({ search: { search_type: 'lawsuit_cnj', search_key: d.search_key } });
      for (const l of r.response_data) {
        const crawled = Date.parse((l.crawler as { updated_at: string }).updated_at);
        expect(crawled).toBeLessThanOrEqual(now + 1000);
        const live = await get(sandbox, `/_sandbox/lawsuit?code=${encodeURIComponent(l.code)}&instance=${l.instance}`);
        const liveCrawl = Date.parse(live.body.crawler.updated_at);
        if (liveCrawl > crawled) lagging++;
      }
    }
    expect(lagging).toBeGreaterThan(0);
  });
});

describe('POST /requests/create/grouped', () => {
  it('groups the historical lawsuits, with sides and person types in upper case and instances as integers', async () => {
    const base = richestParty(sandbox) as Base;
    const g = await api.lawsuits.grouped({ search: base });
    const { response_data: ls } = await api.lawsuits.historical({ search: base, process_status: true });
    expect(g.lawsuits_count).toBe(ls.length);
    const tally = (values: Array<string | number>) => {
      const m = new Map<string | number, number>();
      for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
      return m;
    };
    const asMap = (entries: Array<{ value: string | number; count: number }>) => new Map(entries.map((e) => [e.value, e.count]));
    expect(asMap(g.tribunals)).toEqual(tally(ls.map((l) => l.tribunal_acronym as string)));
    expect(asMap(g.states)).toEqual(tally(ls.map((l) => l.state as string)));
    expect(asMap(g.phases)).toEqual(tally(ls.map((l) => l.phase as string)));
    expect(asMap(g.instances)).toEqual(tally(ls.map((l) => l.instance)));
    expect(asMap(g.classifications)).toEqual(tally(ls.flatMap((l) => [...new Set((l.classifications ?? []).map((c) => c.name))])));
    expect(asMap(g.subjects)).toEqual(tally(ls.flatMap((l) => [...new Set((l.subjects ?? []).map((c) => c.name))])));
    for (const e of g.instances) expect(Number.isInteger(e.value)).toBe(true);
    expect(g.sides.length).toBeGreaterThan(0);
    for (const e of [...g.sides, ...g.person_types]) {
      expect(typeof e.value).toBe('string');
      expect(e.value).toBe((e.value as string).toUpperCase());
    }
    for (const e of g.sides) expect(['ACTIVE', 'PASSIVE', 'INTERESTED', 'UNKNOWN']).toContain(e.value);
    // The side counts agree with the side filter's ground truth.
    for (const e of g.sides) {
      const side = (e.value as string)[0] + (e.value as string).slice(1).toLowerCase();
      expect(e.count).toBe(sandbox.truth({ ...base, search_params: { filter: { side } } }).length);
    }
  });
});

describe('POST /requests/create', () => {
  it('creates an asynchronous request only with create_complete_request: true', async () => {
    const base = richestParty(sandbox) as Base;
    const before = (await api.requests.list({ page: 1, pageSize: 100 })).allCount;
    const plain = await api.lawsuits.exists({ search: { ...base, search_params: {} } });
    expect(plain.has_lawsuits).toBe(true);
    expect((await api.requests.list({ page: 1, pageSize: 100 })).allCount).toBe(before);
    const complete = await api.lawsuits.exists({ search: { ...base, search_params: { create_complete_request: true } } });
    expect(complete.has_lawsuits).toBe(true);
    const listed = await api.requests.list({ page: 1, pageSize: 100 });
    expect(listed.allCount).toBe(before + 1);
    const req = await api.requests.get(complete.request_id);
    expect(req.request_id).toBe(complete.request_id);
    expect(req.search.search_type).toBe(base.search_type);
    expect(listed.items.map((r) => r.request_id)).toContain(complete.request_id);
  });
});

describe('validation errors', () => {
  it('answers 400 with every reason in {error: {name, message, data}}', async () => {
    for (const path of ['/lawsuits', '/requests/count', '/requests/create/grouped', '/requests/create']) {
      const r = await post(sandbox, path, { search: { search_type: 'rg', search_key: '' , search_params: { filter: { side: 'Left', amount_gte: 'lots' } } }, process_status: 'yes' });
      expect(r.status, path).toBe(400);
      expect(r.body.error.name).toBe('ValidationError');
      expect(typeof r.body.error.message).toBe('string');
      expect(r.body.error.data.length, path).toBeGreaterThanOrEqual(4);
      expect(r.body.error.data.join(' ')).toMatch(/search_type/);
      expect(r.body.error.data.join(' ')).toMatch(/process_status/);
    }
    const misplaced = await post(sandbox, '/lawsuits', { search: { search_type: 'cpf', search_key: '09206529722', search_params: { create_complete_request: true } } });
    expect(misplaced.status).toBe(400);
    expect(misplaced.body.error.data.join(' ')).toMatch(/create_complete_request/);
  });

  it('answers 422 for a CNJ number with a wrong check digit, and the client reports API_VALIDATION', async () => {
    const search = { search_type: 'lawsuit_cnj' as const, search_key: '0001234-55.2023.8.26.0100' };
    for (const path of ['/lawsuits', '/requests/count', '/requests/create/grouped']) {
      const r = await post(sandbox, path, { search });
      expect(r.status, path).toBe(422);
      expect(r.body.error.name).toBe('ValidationError');
      expect(r.body.error.data).toEqual(['search_key has a wrong CNJ check digit']);
    }
    await expect(api.lawsuits.count({ search })).rejects.toMatchObject({ code: 'API_VALIDATION', statusCode: 422 });
    const right = await post(sandbox, '/requests/count', { search: { ...search, search_key: '0001234-08.2023.8.26.0100' } });
    expect(right.status).toBe(200);
  });
});
