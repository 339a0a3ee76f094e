// The lawsuit-level read's unhappy paths and the ground truth an end-to-end test compares a warehouse with:
// - the `lawsuit_unavailable` fault (POST /_sandbox/faults): a share of CNJ numbers, drawn per number from the seed,
//   is answered one application_error item (LAWSUIT_NOT_FOUND or SECRET_LAWSUIT) by a lawsuit_cnj or lawsuit_id read
//   though the universe holds the lawsuit; searches by document are untouched; the documented dialect's 403 for a
//   secret lawsuit searched by number without a credential stays;
// - POST /_sandbox/truth with `documents` and `cnj`: every lawsuit they find, whole, equal to what a lawsuit-level
//   read made at that instant answers, and those such a read would not give, with the reason it would give.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, keyOf, missingNumber, sandbox, scan } from './helpers.js';
import { responsesOf } from './tracking-helpers.js';

/** POST /requests, then every response item once finished (creation order); the request, or the refusal. */
async function read(sb: Sandbox, search: Record<string, unknown>): Promise<{ status: number; request: any; items: any[] }> {
  const post = await call(sb, 'POST', '/requests', { search });
  if (post.status >= 300) return { status: post.status, request: post.body, items: [] };
  for (let k = 0; k < 500 && (await call(sb, 'GET', `/requests/${post.body.request_id}`)).body.status !== 'completed'; k++) await new Promise((r) => setTimeout(r, 5));
  const items = await responsesOf(sb, post.body.request_id);
  return { status: post.status, request: post.body, items: items.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at)) };
}

const truth = async (sb: Sandbox, body: unknown, at?: string) => call(sb, 'POST', `/_sandbox/truth${at ? `?at=${at}` : ''}`, body, null);

describe('lawsuit-level reads refused, and the ground truth', () => {
  let sb: Sandbox;
  let all: any[];
  beforeAll(async () => { sb = await sandbox({ dialect: 'documented' }); all = scan(sb); });
  afterAll(async () => sb.close());

  const readable = () => [...new Set(all.filter((l) => l.secrecy_level < 3).map((l) => l.code as string))];

  test('lawsuit_unavailable refuses a deterministic share of numbers, on every read, with a not-found or a secrecy item', async () => {
    expect(parseFaults('lawsuit_unavailable=0.3')).toEqual({ lawsuitUnavailable: 0.3 });
    expect((await call(sb, 'POST', '/_sandbox/faults', { spec: 'lawsuit_unavailable=0.3' }, null)).body.faults).toEqual({ lawsuitUnavailable: 0.3 });
    const codes = readable().slice(0, 40);
    const answers = new Map<string, string>();
    for (const code of codes) {
      const { items } = await read(sb, { search_type: 'lawsuit_cnj', search_key: code });
      const refused = items.filter((i) => i.response_type === 'application_error');
      if (refused.length > 0) {
        expect(items).toHaveLength(1);
        answers.set(code, refused[0].response_data.message);
        expect([{ code: 2, message: 'LAWSUIT_NOT_FOUND' }, { code: 3, message: 'SECRET_LAWSUIT' }]).toContainEqual(refused[0].response_data);
      } else {
        expect(items.map((i) => i.response_data.code)).toEqual(all.filter((l) => l.code === code).map(() => code));
      }
    }
    expect(answers.size).toBeGreaterThanOrEqual(5);
    expect(answers.size).toBeLessThanOrEqual(20);
    expect(new Set(answers.values())).toEqual(new Set(['LAWSUIT_NOT_FOUND', 'SECRET_LAWSUIT']));
    // The same number is refused the same way on the next read, and by its lawsuit id too.
    const [code, message] = [...answers][0];
    expect((await read(sb, { search_type: 'lawsuit_cnj', search_key: code })).items.map((i) => i.response_data.message)).toEqual([message]);
    const id = all.find((l) => l.code === code && l.lawsuit_id)?.lawsuit_id;
    if (id) expect((await read(sb, { search_type: 'lawsuit_id', search_key: id })).items.map((i) => i.response_data.message)).toEqual([message]);
    // A document search still finds the refused lawsuit, as a header.
    const doc = all.find((l) => l.code === code)!.parties.find((q: any) => q.document_type === 'CPF' || q.document_type === 'CNPJ');
    const byDoc = await read(sb, { search_type: doc.document_type.toLowerCase(), search_key: doc.document });
    expect(byDoc.items.map((i) => i.response_data.code)).toContain(code);
    // Switched off, every number is read whole again.
    await call(sb, 'POST', '/_sandbox/faults', { spec: '' }, null);
    expect((await read(sb, { search_type: 'lawsuit_cnj', search_key: code })).items.every((i) => i.response_type === 'lawsuit')).toBe(true);
  });

  test('a secret lawsuit searched by number without a credential is still refused 403, fault or not', async () => {
    const secret = all.find((l) => l.secrecy_level === 3 || l.secrecy_level === 4)!;
    await call(sb, 'POST', '/_sandbox/faults', { spec: 'lawsuit_unavailable=1' }, null);
    try {
      const r = await read(sb, { search_type: 'lawsuit_cnj', search_key: secret.code });
      expect(r.status).toBe(403);
      expect(r.request.error.data).toEqual(['SECRET_LAWSUIT_WITHOUT_CREDENTIAL']);
    } finally {
      await call(sb, 'POST', '/_sandbox/faults', { spec: '' }, null);
    }
  });

  test('the ground truth of documents and numbers is every lawsuit whole, as lawsuit-level reads at that instant answer them', async () => {
    const cnpj = sb.sampleDocuments(40).find((d) => d.search_type === 'cnpj')!;
    const code = readable().find((c) => all.filter((l) => l.code === c).length === 2)!;
    const docSearch = await read(sb, { search_type: 'cnpj', search_key: cnpj.search_key });
    const at = docSearch.request.created_at;
    const t = await truth(sb, { documents: [{ search_type: 'cnpj', search_key: cnpj.search_key }], cnj: [code] }, at);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ at, dialect: 'documented', on_demand: false });
    // The document's lawsuits are what its search found, each whole or named unavailable.
    const found = docSearch.items.map((i) => keyOf(i.response_data));
    expect(t.body.documents[0].lawsuits.map(keyOf)).toEqual(found);
    const whole = new Map<string, any>(t.body.lawsuits.map((l: any) => [keyOf(l), l]));
    const unavailable = new Set(t.body.unavailable.map(keyOf));
    for (const k of found) expect(whole.has(k) !== unavailable.has(k), k).toBe(true);
    for (const u of t.body.unavailable) expect(u).toMatchObject({ status: 403, reason: 'SECRET_LAWSUIT_WITHOUT_CREDENTIAL' });
    // Both instances of the number, the most recent first, whole.
    expect(t.body.cnj[0].lawsuits.map((l: any) => l.instance)).toEqual([2, 1]);
    expect(t.body.count).toBe(t.body.lawsuits.length);
    // Equal to real lawsuit-level reads: read a few numbers, and ask the truth at each read's instant.
    for (const k of [...whole.keys()].slice(0, 4).concat(`${code}#2`)) {
      const n = k.split('#')[0];
      const r = await read(sb, { search_type: 'lawsuit_cnj', search_key: n });
      const then = await truth(sb, { cnj: [n] }, r.request.created_at);
      expect(r.items.map((i) => i.response_data)).toEqual(then.body.lawsuits);
      for (const l of r.items.map((i) => i.response_data)) {
        expect(l.steps.length).toBe(l.last_step.steps_count);
        if (whole.has(keyOf(l))) expect(l.last_step.step_id).toBe(whole.get(keyOf(l)).last_step.step_id);
      }
    }
  });

  test('the ground truth names what a read would not give: secret without credential, not found, refused by the fault', async () => {
    const secret = all.find((l) => l.secrecy_level === 3 || l.secrecy_level === 4)!;
    const doc = secret.parties.find((q: any) => q.document_type === 'CPF' || q.document_type === 'CNPJ');
    const body = { documents: [{ search_type: doc.document_type.toLowerCase(), search_key: doc.document }], cnj: [secret.code] };
    const t = await truth(sb, body);
    expect(t.body.unavailable).toContainEqual({ code: secret.code, instance: secret.instance, status: 403, reason: 'SECRET_LAWSUIT_WITHOUT_CREDENTIAL' });
    // With the stored credential the same lawsuit is read whole, unmasked.
    const lifted = await truth(sb, { ...body, customer_key: 'sandbox-credential' });
    const l = lifted.body.lawsuits.find((x: any) => keyOf(x) === keyOf(secret));
    expect(l.parties.some((q: any) => q.document !== '')).toBe(true);
    expect(l.steps.length).toBe(l.last_step.steps_count);
    // A valid number the universe does not hold; one the fault refuses.
    const missing = missingNumber(sb);
    expect((await truth(sb, { cnj: [missing] })).body.unavailable).toEqual([{ code: missing, instance: null, status: 200, reason: 'LAWSUIT_NOT_FOUND' }]);
    await call(sb, 'POST', '/_sandbox/faults', { spec: 'lawsuit_unavailable=1' }, null);
    try {
      const code = readable()[0];
      const refused = (await truth(sb, { cnj: [code] })).body;
      expect(refused.lawsuits).toEqual([]);
      expect(refused.unavailable.map((u: any) => u.reason)).toEqual(all.filter((x) => x.code === code).map(() => expect.stringMatching(/^(LAWSUIT_NOT_FOUND|SECRET_LAWSUIT)$/)));
    } finally {
      await call(sb, 'POST', '/_sandbox/faults', { spec: '' }, null);
    }
    const bad = await truth(sb, { documents: [{ search_type: 'cpf', search_key: '123' }], cnj: ['0000001-00.2020.8.26.0100', 7] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.data).toEqual(['documents[0]: search_key is not a valid CPF', 'cnj[0]: search_key has a wrong CNJ check digit', 'cnj[1] must be a CNJ number (a string)']);
  });
});
