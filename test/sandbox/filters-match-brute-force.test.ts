// Every filter of the spec, applied to a big litigant's lawsuits, against a brute-force reading of the
// lawsuit objects; including the rule that `side` does not apply to party_names / party_documents.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, keyOf, normName, runSearch, sandbox, scan } from './helpers.js';

describe('filters', () => {
  let sb: Sandbox;
  let mine: any[];
  let doc: string;
  const found = (items: any[]) => new Set(items.filter((i) => i.response_type === 'lawsuit').map((i) => keyOf(i.response_data)));
  const expected = (pred: (l: any) => boolean) => new Set(mine.filter(pred).map(keyOf));
  const search = async (filter: Record<string, unknown>, params: Record<string, unknown> = {}) =>
    found((await runSearch(sb, { search_type: 'cnpj', search_key: doc, search_params: { filter, ...params } })).items);
  const lastStepMs = (l: any) => Math.max(...l.steps.map((s: any) => Date.parse(s.step_date)));
  const sideOf = (l: any) => new Set(l.parties.filter((q: any) => q.document === doc).map((q: any) => q.side));

  beforeAll(async () => {
    sb = await sandbox();
    const all = scan(sb).filter((l) => l.secrecy_level < 5);
    const counts = new Map<string, number>();
    for (const l of all) for (const q of l.parties) if (q.document_type === 'CNPJ') counts.set(q.document, (counts.get(q.document) ?? 0) + 1);
    doc = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
    mine = all.filter((l) => l.parties.some((q: any) => q.document === doc));
    expect(mine.length).toBeGreaterThan(30);
  });
  afterAll(async () => sb.close());

  test('no filter: all of them', async () => {
    expect(await search({})).toEqual(expected(() => true));
  });

  test('side restricts where the searched party stands', async () => {
    for (const side of ['Active', 'Passive']) {
      const want = expected((l) => sideOf(l).has(side));
      expect(want.size).toBeGreaterThan(0);
      expect(await search({ side })).toEqual(want);
    }
  });

  test('distribution_date_gte, amount_gte and amount_lte', async () => {
    const dates = mine.map((l) => l.distribution_date).sort();
    const mid = dates[Math.floor(dates.length / 2)];
    expect(await search({ distribution_date_gte: mid })).toEqual(expected((l) => l.distribution_date >= mid));
    const amounts = mine.map((l) => l.amount).sort((a, b) => a - b);
    const a1 = amounts[Math.floor(amounts.length / 3)];
    const a2 = amounts[Math.floor((2 * amounts.length) / 3)];
    expect(await search({ amount_gte: a1, amount_lte: a2 })).toEqual(expected((l) => l.amount >= a1 && l.amount <= a2));
  });

  test('distribution_date_lte (the documentation\'s, beyond the spec) and a date without a time as a whole day', async () => {
    const dates = mine.map((l) => l.distribution_date).sort();
    const mid = dates[Math.floor(dates.length / 2)];
    expect(await search({ distribution_date_lte: mid })).toEqual(expected((l) => l.distribution_date <= mid));
    // `_lte` of a day keeps every lawsuit of that day, `_gte` of it too
    const day = mid.slice(0, 10);
    expect(await search({ distribution_date_lte: day })).toEqual(expected((l) => l.distribution_date.slice(0, 10) <= day));
    expect(await search({ distribution_date_gte: day, distribution_date_lte: day })).toEqual(expected((l) => l.distribution_date.slice(0, 10) === day));
  });

  test('what the sandbox answers alike either way is named on the request, nothing when it honours all', async () => {
    const post = async (body: Record<string, unknown>) => (await call(sb, 'POST', '/requests', body)).body;
    expect((await post({ search: { search_type: 'cnpj', search_key: doc, search_params: { filter: { side: 'Passive' }, credential: { customer_key: 'x' } } } })).sandbox_ignored).toBeUndefined();
    expect((await post({ search: { search_type: 'cnpj', search_key: doc, search_params: { masked_response: false } } })).sandbox_ignored)
      .toEqual([expect.stringMatching(/^search\.search_params\.masked_response: /)]);
    const cnj = await post({ search: { search_type: 'lawsuit_cnj', search_key: mine[0].code, search_params: { filter: { side: 'Active' } } }, with_attachments: true });
    expect(cnj.sandbox_ignored).toEqual([expect.stringMatching(/^with_attachments: /), expect.stringMatching(/^search\.search_params\.filter\.side: /)]);
    // shown again on GET /requests/<id>
    expect((await call(sb, 'GET', `/requests/${cnj.request_id}`)).body.sandbox_ignored).toEqual(cnj.sandbox_ignored);
    expect((await call(sb, 'POST', '/requests', { search: { search_type: 'cnpj', search_key: doc }, with_attachments: 'yes' })).status).toBe(400);
  });

  test('tribunals and classification_codes: keys with not_equal false includes, true excludes', async () => {
    const trib = mine[0].tribunal_acronym;
    expect(await search({ tribunals: { keys: [trib], not_equal: false } })).toEqual(expected((l) => l.tribunal_acronym === trib));
    expect(await search({ tribunals: { keys: [trib], not_equal: true } })).toEqual(expected((l) => l.tribunal_acronym !== trib));
    const cls = mine[0].classifications[0].code;
    expect(await search({ classification_codes: { keys: [cls] } })).toEqual(expected((l) => l.classifications.some((c: any) => c.code === cls)));
    expect(await search({ classification_codes: { keys: [cls], not_equal: true } })).toEqual(expected((l) => !l.classifications.some((c: any) => c.code === cls)));
  });

  test('subject_codes in both spellings (contains/not_contains, keys/not_equal) and `conteins`', async () => {
    const subj = mine[0].subjects[0].code;
    const inc = expected((l) => l.subjects.some((s: any) => s.code === subj));
    const exc = expected((l) => !l.subjects.some((s: any) => s.code === subj));
    expect(inc.size).toBeGreaterThan(0);
    expect(await search({ subject_codes: { contains: [subj] } })).toEqual(inc);
    expect(await search({ subject_codes: { conteins: [subj] } })).toEqual(inc);
    expect(await search({ subject_codes: { keys: [subj], not_equal: false } })).toEqual(inc);
    expect(await search({ subject_codes: { not_contains: [subj] } })).toEqual(exc);
    expect(await search({ subject_codes: { keys: [subj], not_equal: true } })).toEqual(exc);
  });

  test('last_step_date_gte and last_step_date_lte', async () => {
    const withSteps = mine.filter((l) => l.steps.length > 0);
    const ms = withSteps.map(lastStepMs).sort((a, b) => a - b);
    const lo = new Date(ms[Math.floor(ms.length / 4)]).toISOString();
    const hi = new Date(ms[Math.floor((3 * ms.length) / 4)]).toISOString();
    expect(await search({ last_step_date_gte: lo, last_step_date_lte: hi }))
      .toEqual(expected((l) => l.steps.length > 0 && lastStepMs(l) >= Date.parse(lo) && lastStepMs(l) <= Date.parse(hi)));
  });

  test('party_names and party_documents match any party', async () => {
    const other = mine[0].parties.find((q: any) => q.document !== doc && q.document_type === 'CPF');
    const name = other.name.toLowerCase();
    expect(await search({ party_names: [name] })).toEqual(expected((l) => l.parties.some((q: any) => normName(q.name) === normName(name))));
    expect(await search({ party_documents: [other.document] })).toEqual(expected((l) => l.parties.some((q: any) => q.document === other.document)));
  });

  test('side is not applied to the parties of party_documents / party_names', async () => {
    // A lawsuit where the big litigant is Passive and another party is Active: filtering side=Passive with that
    // Active party's document must still find it (side only restricts the searched party).
    const l = mine.find((x) => sideOf(x).has('Passive') && x.parties.some((q: any) => q.side === 'Active' && q.document && q.document !== doc))!;
    const active = l.parties.find((q: any) => q.side === 'Active' && q.document && q.document !== doc);
    const got = await search({ side: 'Passive', party_documents: [active.document] });
    expect(got.has(keyOf(l))).toBe(true);
    expect(got).toEqual(expected((x) => sideOf(x).has('Passive') && x.parties.some((q: any) => q.document === active.document)));
    const byName = await search({ side: 'Passive', party_names: [active.name] });
    expect(byName.has(keyOf(l))).toBe(true);
  });

  test('lawsuit_instance restricts to one court degree', async () => {
    for (const instance of [1, 2]) {
      expect(expected((l) => l.instance === instance).size).toBeGreaterThan(0);
      expect(await search({}, { lawsuit_instance: instance })).toEqual(expected((l) => l.instance === instance));
    }
  });
});
