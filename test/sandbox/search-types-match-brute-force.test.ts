// Each of the six search types returns exactly the lawsuits a brute-force scan of the universe finds,
// through the real HTTP flow (POST /requests, GET /responses).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { digits, keyOf, normName, runSearch, sandbox, scan } from './helpers.js';

describe('search types', () => {
  let sb: Sandbox;
  let all: any[];
  beforeAll(async () => { sb = await sandbox(); all = scan(sb); });
  afterAll(async () => sb.close());

  const found = (items: any[]) => new Set(items.filter((i) => i.response_type === 'lawsuit').map((i) => keyOf(i.response_data)));
  const expected = (pred: (l: any) => boolean) => new Set(all.filter((l) => l.secrecy_level < 5 && pred(l)).map(keyOf));
  const someParty = (pred: (p: any) => boolean) => all.find((l) => l.secrecy_level === 0 && l.parties.some(pred))!.parties.find(pred);

  test('cpf (punctuated key) finds every lawsuit where a party holds the CPF', async () => {
    const p = someParty((q) => q.document_type === 'CPF' && q.document);
    const key = `${p.document.slice(0, 3)}.${p.document.slice(3, 6)}.${p.document.slice(6, 9)}-${p.document.slice(9)}`;
    const { items } = await runSearch(sb, { search_type: 'cpf', search_key: key });
    const want = expected((l) => l.parties.some((q: any) => q.document === p.document));
    expect(want.size).toBeGreaterThan(0);
    expect(found(items)).toEqual(want);
  });

  test('cnpj of a big litigant finds many lawsuits across pages', async () => {
    const counts = new Map<string, number>();
    for (const l of all) for (const q of l.parties) if (q.document_type === 'CNPJ') counts.set(q.document, (counts.get(q.document) ?? 0) + 1);
    const [doc] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
    const { items } = await runSearch(sb, { search_type: 'cnpj', search_key: doc });
    const want = expected((l) => l.parties.some((q: any) => q.document === doc));
    expect(want.size).toBeGreaterThan(20);
    expect(found(items)).toEqual(want);
  });

  test('oab finds lawsuits where the lawyer acts, tied to a party or listed as one, in any key form', async () => {
    const lawyerParty = someParty((q) => q.person_type === 'Advogado' && q.documents.length > 0);
    const oab = lawyerParty.documents[0].document as string;
    const m = /^(\d+)([A-Z]{2})([A-Z]?)$/.exec(oab)!;
    const { items } = await runSearch(sb, { search_type: 'oab', search_key: `${m[2]}${m[1].padStart(7, '0')}${m[3]}` });
    const has = (l: any) => l.parties.some((q: any) => (q.documents ?? []).some((d: any) => d.document === oab)
      || q.lawyers.some((w: any) => (w.documents ?? []).some((d: any) => d.document === oab)));
    const want = expected(has);
    expect(want.size).toBeGreaterThan(0);
    expect(found(items)).toEqual(want);
  });

  test('name finds homonyms: every lawsuit with a party of that name, whoever holds it', async () => {
    const byName = new Map<string, Set<string>>();
    for (const l of all) for (const q of l.parties) if (q.document_type === 'CPF' && q.document) {
      const n = normName(q.name);
      byName.set(n, (byName.get(n) ?? new Set()).add(q.document));
    }
    const homonym = [...byName.entries()].find(([, docs]) => docs.size >= 2)![0];
    const shown = all.flatMap((l) => l.parties).find((q: any) => normName(q.name) === homonym).name as string;
    const { items } = await runSearch(sb, { search_type: 'name', search_key: shown.toUpperCase() });
    const want = expected((l) => l.parties.some((q: any) => normName(q.name) === homonym));
    expect(found(items)).toEqual(want);
    const docs = new Set(items.flatMap((i) => i.response_data.parties).filter((q: any) => normName(q.name) === homonym).map((q: any) => q.document));
    expect(docs.size).toBeGreaterThanOrEqual(2);
  });

  test('lawsuit_cnj finds every instance of the number, with the full object', async () => {
    const codes = new Map<string, any[]>();
    for (const l of all) codes.set(l.code, [...(codes.get(l.code) ?? []), l]);
    const [code, both] = [...codes.entries()].find(([, ls]) => ls.length === 2 && ls.every((l) => l.secrecy_level === 0 && l.tribunal_acronym === 'TJBA'))
      ?? [...codes.entries()].find(([, ls]) => ls.length === 2)!;
    const { items } = await runSearch(sb, { search_type: 'lawsuit_cnj', search_key: digits(code) });
    expect(found(items)).toEqual(new Set(both.map(keyOf)));
    for (const it of items) expect(Array.isArray(it.response_data.steps)).toBe(true);
  });

  test('lawsuit_id finds the one instance whose lawsuit_id matches', async () => {
    // An appeal of a tribunal whose payloads show the provider's id (the others' carry none to search with).
    const target = all.find((l) => l.instance === 2 && l.lawsuit_id)!;
    const { items } = await runSearch(sb, { search_type: 'lawsuit_id', search_key: target.lawsuit_id });
    expect([...found(items)]).toEqual([keyOf(target)]);
  });

  test('document searches leave out steps, attachments, phase and status on sparse tribunals; lawsuit_cnj does not (attachments when asked)', async () => {
    const l = all.find((x) => x.secrecy_level === 0 && x.tribunal_acronym === 'TJBA' && x.parties.some((q: any) => q.document_type === 'CPF'))!;
    const cpf = l.parties.find((q: any) => q.document_type === 'CPF').document;
    const byDoc = (await runSearch(sb, { search_type: 'cpf', search_key: cpf })).items.find((i) => keyOf(i.response_data) === keyOf(l))!.response_data;
    for (const k of ['steps', 'attachments', 'phase', 'status']) expect(byDoc).not.toHaveProperty(k);
    const byCnj = (await runSearch(sb, { search_type: 'lawsuit_cnj', search_key: l.code })).items.find((i) => keyOf(i.response_data) === keyOf(l))!.response_data;
    for (const k of ['steps', 'phase', 'status']) expect(byCnj).toHaveProperty(k);
    expect(byCnj).not.toHaveProperty('attachments');
    expect(byDoc.crawler.updated_at).toBeTruthy();
  });
});
