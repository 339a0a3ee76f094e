// Two levels (REFERENCE.md, "Two levels"; dialect row `levels`): in the documented dialect a search by CPF, CNPJ,
// OAB or name answers lawsuit headers (no steps, no attachments, phase and status null or left out, last_step
// always) whose last_step is exactly the whole lawsuit's newest step at the same observation; a lawsuit_cnj search
// answers the whole lawsuit, its instances most recent first, and one application_error item for a number the
// universe does not hold. The spec dialect keeps its one level: whole lawsuits everywhere, sparse tribunals and the
// tribunals without last_step as they were, nothing at all for a number it does not hold.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { Universe } from '../../src/sandbox/universe.js';
import { call, digits, keyOf, missingNumber, NOW, sandbox, scan } from './helpers.js';
import { responsesOf } from './tracking-helpers.js';

const DAY = 86_400_000;
const HEADERLESS = ['steps', 'attachments', 'phase', 'status'];
/** A lawsuit object without what only the whole lawsuit carries. */
const bare = (l: Record<string, unknown>) => Object.fromEntries(Object.entries(l).filter(([k]) => !HEADERLESS.includes(k)));

describe('a header and its whole lawsuit, over seeds', () => {
  test('a header never carries steps, attachments, phase or status; its last_step is the whole lawsuit\'s newest step', () => {
    const universes = new Map<number, Universe>();
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 2999 }), fc.integer({ min: -4000, max: 400 }), fc.boolean(), fc.boolean(),
      (seed, i, day, onDemand, privileged) => {
        if (!universes.has(seed)) universes.set(seed, new Universe({ seed, lawsuits: 3000 }));
        const u = universes.get(seed)!;
        const at = Date.parse(NOW) + day * DAY;
        const header = u.lawsuit(i, at, { onDemand, privileged, shape: 'search', levels: 'two' });
        const whole = u.lawsuit(i, at, { onDemand, privileged, shape: 'full', levels: 'two' }) as any;
        expect(header === undefined).toBe(whole === undefined);
        if (!header) return;
        for (const k of ['steps', 'attachments']) expect(header).not.toHaveProperty(k);
        for (const k of ['phase', 'status']) expect(header[k] ?? null).toBeNull();
        // The header is the whole lawsuit but for what only the whole carries, last_step included.
        expect(bare(header)).toEqual(bare(whole));
        const newest = whole.steps[0];
        expect(header.last_step).toMatchObject({ step_id: newest.step_id, steps_count: whole.steps.length, step_date: newest.step_date, lawsuit_cnj: whole.code, lawsuit_instance: whole.instance });
        expect(newest.steps_count).toBe(whole.steps.length);
        expect((header.last_step as any).content).toBe(newest.content);
        expect(whole.phase).toEqual(expect.any(String));
        expect(whole.status).toEqual(expect.any(String));
      },
    ), { numRuns: 300 });
  });

  test('headers come with phase and status null and left out alike, so a client meets both forms', () => {
    const u = new Universe({ seed: 3, lawsuits: 2000 });
    const forms = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const h = u.lawsuit(i, Date.parse(NOW), { shape: 'search', levels: 'two' });
      if (h) for (const k of ['phase', 'status']) forms.add(`${k}:${k in h ? 'null' : 'absent'}`);
    }
    expect([...forms].sort()).toEqual(['phase:absent', 'phase:null', 'status:absent', 'status:null']);
  });

  test('one level (the spec dialect) is as it was: a search\'s lawsuit is whole but on sparse tribunals, and some tribunals omit last_step', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 1999 }), (seed, i) => {
      const u = new Universe({ seed, lawsuits: 2000 });
      const at = Date.parse(NOW);
      const search = u.lawsuit(i, at, { shape: 'search' });
      const whole = u.lawsuit(i, at, { shape: 'full' });
      if (!whole) return;
      const p = u.plan(i);
      expect(search).toEqual(p.tribunal.sparse ? bare(whole) : whole);
      expect('last_step' in whole).toBe(!p.tribunal.noLastStep);
      // Two levels lift the quirk: every whole lawsuit carries last_step.
      expect(u.lawsuit(i, at, { shape: 'full', levels: 'two' })).toHaveProperty('last_step');
    }), { numRuns: 60 });
  });
});

/**
 * POST /requests (201 or 200), then every response item once the request has finished, in the order they were made
 * (the documented listing's default is newest first: the order of creation is the answer's own).
 */
async function read(sb: Sandbox, search: Record<string, unknown>): Promise<{ request: any; items: any[] }> {
  const post = await call(sb, 'POST', '/requests', { search });
  expect([200, 201], JSON.stringify(post.body)).toContain(post.status);
  for (let k = 0; k < 500; k++) {
    const r = await call(sb, 'GET', `/requests/${post.body.request_id}`);
    if (r.body.status === 'completed') break;
    await new Promise((res) => setTimeout(res, 5));
  }
  const items = await responsesOf(sb, post.body.request_id);
  return { request: post.body, items: items.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at)) };
}

describe('the two levels over HTTP', () => {
  let documented: Sandbox;
  let spec: Sandbox;
  let all: any[];
  beforeAll(async () => {
    documented = await sandbox({ dialect: 'documented' });
    spec = await sandbox({ dialect: 'spec' });
    all = scan(documented);
  });
  afterAll(async () => { await documented.close(); await spec.close(); });

  /** A CNJ number held in two instances, both readable without a credential. */
  const twoInstances = () => {
    const byCode = new Map<string, any[]>();
    for (const l of all) byCode.set(l.code, [...(byCode.get(l.code) ?? []), l]);
    return [...byCode.entries()].find(([, ls]) => ls.length === 2 && ls.every((l) => l.secrecy_level < 3))![0];
  };

  test('every search by document answers headers whose last_step agrees with the whole lawsuit read by number', async () => {
    const docs = documented.sampleDocuments(40).filter((d) => ['cpf', 'cnpj', 'oab', 'name'].includes(d.search_type)).slice(0, 8);
    expect(new Set(docs.map((d) => d.search_type)).size).toBeGreaterThanOrEqual(3);
    let headers = 0;
    for (const d of docs) {
      const { request, items } = await read(documented, { search_type: d.search_type, search_key: d.search_key });
      const truth = await call(documented, 'POST', `/_sandbox/truth?at=${request.created_at}`, { documents: [{ search_type: d.search_type, search_key: d.search_key }] }, null);
      const whole = new Map<string, any>(truth.body.lawsuits.map((l: any) => [keyOf(l), l]));
      for (const it of items.filter((x) => x.response_type === 'lawsuit')) {
        const h = it.response_data;
        for (const k of HEADERLESS) if (k in h) expect(h[k], `${k} of ${keyOf(h)}`).toBeNull();
        expect(h).not.toHaveProperty('steps');
        expect(h.last_step, keyOf(h)).toBeDefined();
        const w = whole.get(keyOf(h));
        if (!w) continue; // secret to a read by number (403 in this dialect): the header is all there is
        expect(h.last_step).toEqual(w.last_step);
        expect(h.last_step.step_id).toBe(w.steps[0].step_id);
        expect(h.last_step.steps_count).toBe(w.steps.length);
        headers++;
      }
    }
    expect(headers).toBeGreaterThan(20);
  });

  test('a lawsuit_cnj search answers the whole lawsuit, both instances, the most recent first (spec: as found)', async () => {
    const code = twoInstances();
    const { items } = await read(documented, { search_type: 'lawsuit_cnj', search_key: code });
    expect(items.map((i) => i.response_data.instance)).toEqual([2, 1]);
    for (const { response_data: l } of items) {
      for (const k of HEADERLESS) expect(l).toHaveProperty(k);
      expect(l.steps.length).toBe(l.last_step.steps_count);
      expect(l.steps[0].step_id).toBe(l.last_step.step_id);
    }
    const { items: one } = await read(spec, { search_type: 'lawsuit_cnj', search_key: code });
    expect(one.map((i) => i.response_data.instance)).toEqual([1, 2]);
  });

  test('a lawsuit-level read of a number (or an id) the universe does not hold answers one LAWSUIT_NOT_FOUND item; the spec dialect answers nothing', async () => {
    const missing = missingNumber(documented);
    const id = '00000000-0000-4000-8000-000000000000';
    for (const search of [{ search_type: 'lawsuit_cnj', search_key: missing }, { search_type: 'lawsuit_id', search_key: id }]) {
      const { items } = await read(documented, search);
      expect(items.map((i) => [i.response_type, i.response_data])).toEqual([['application_error', { code: 2, message: 'LAWSUIT_NOT_FOUND' }]]);
      expect((await read(spec, search)).items).toEqual([]);
    }
    // A document that finds nothing is still an empty answer in both.
    const nobody = documented.sampleDocuments(10).find((d) => d.label === 'finds nothing')!;
    expect((await read(documented, { search_type: 'cpf', search_key: nobody.search_key })).items).toEqual([]);
  });

  test('the spec dialect answers document searches with whole lawsuits but on its sparse tribunals', async () => {
    const d = spec.sampleDocuments(30).find((x) => x.search_type === 'cnpj')!;
    const { items } = await read(spec, { search_type: 'cnpj', search_key: digits(d.search_key) });
    expect(items.length).toBeGreaterThan(0);
    for (const { response_data: l } of items) {
      const sparse = !('steps' in l);
      if (sparse) expect(['TJBA', 'TJCE', 'TRT15', 'TRF1']).toContain(l.tribunal_acronym);
      else for (const k of HEADERLESS) expect(l).toHaveProperty(k);
      if (!sparse && l.last_step) expect(l.last_step.steps_count).toBe(l.steps.length);
    }
  });

  test('the dialect shows its level model', async () => {
    expect((await call(documented, 'GET', '/_sandbox/dialect', undefined, null)).body.rules.levels).toBe('two');
    expect((await call(spec, 'GET', '/_sandbox/dialect', undefined, null)).body.rules.levels).toBe('one');
  });
});
