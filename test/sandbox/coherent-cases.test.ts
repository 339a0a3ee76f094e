// A sandbox a litigation analyst would believe, checked over a large sample of every justice branch: a document
// search returns only lawsuits that name the document, every instance of a case names the same parties,
// alphanumeric CNPJs appear only on lawsuits distributed since July 2026, codes are the CNJ's (TPU), and cases
// hang together: labour claims are about labour law, tax enforcements are brought by a public entity, criminal
// actions by the Ministério Público, steps read like their movement.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { tpuClass, tpuMovement, tpuSubject } from '../../src/sandbox/tpu.js';
import { call, keyOf, runSearch, sandbox } from './helpers.js';

/** Late enough for the first alphanumeric CNPJs (issued from July 2026) to stand in some lawsuits. */
const AT = Date.parse('2027-06-30T12:00:00.000Z');
const JULY_2026 = Date.parse('2026-07-01T00:00:00.000Z');

/** An entry of the bundled TPU extract, looked up as the generator does; undefined for a code the extract lacks. */
const lookUp = <T>(find: (code: string) => T) => (code: string): T | undefined => {
  try { return find(code); } catch { return undefined; }
};
const subjectOf = lookUp(tpuSubject);
const classOf = lookUp(tpuClass);
const movementOf = lookUp(tpuMovement);
const rootOf = (code: string) => subjectOf(code)?.root;
const docsOf = (l: any) => new Set<string>(l.parties.filter((p: any) => p.document_type !== 'OAB' && p.document).map((p: any) => p.document));

/** What a step of each movement says, read independently of the generator's wording lists. */
const MOVEMENT_WORDS: Record<string, RegExp> = {
  26: /^Distribuído/, 3: /^Decisão:/, 332: /^Decisão: deferid/, 785: /^Decisão: indeferid/, 132: /^Recebidos os autos/, 51: /^Conclusos/, 11010: /^Despacho/, 60: /^Expedid[oa]/, 85: /^Juntada/,
  11383: /^Ato ordinatório/, 92: /Diário da Justiça Eletrônico/, 970: /^Audiência/, 1051: /^Decorrido o prazo/,
  219: /procedente/, 220: /improcedente/, 221: /procedentes? em parte/, 237: /provi(do|mento)/, 239: /n[ãe][o]? provi|Negado provimento/,
  238: /parcial provimento|provido em parte/, 235: /^Não conhecido/, 417: /^Incluído em pauta/, 200: /embargos de declaração/,
  466: /acordo|transação/, 463: /desistência/, 471: /prescrição/, 196: /^Extinta a execução/, 11385: /^Iniciad[ao]/,
  123: /^Remetidos os autos/, 848: /trânsito em julgado|Transitado em julgado/i, 22: /^Baixa definitiva/, 245: /rquiv/, 246: /rquiv/, 893: /^Desarquivados/,
};

describe('coherent cases', () => {
  let sb: Sandbox;
  let all: any[];
  let byKey: Map<string, any>;
  beforeAll(async () => {
    sb = await sandbox({ lawsuits: 12000, seed: 3, now: new Date(AT) });
    all = [];
    byKey = new Map();
    for (let i = 0; i < sb.universe.count; i++) {
      const l = sb.universe.lawsuit(i, AT, { onDemand: true, shape: 'full', privileged: true }) as any;
      if (!l) continue;
      l.__index = i;
      all.push(l);
      byKey.set(keyOf(l), l);
    }
  }, 60_000);
  afterAll(async () => sb.close());

  test('the sample is large and covers every justice branch and kind of case', () => {
    expect(all.length).toBeGreaterThan(8000);
    const justices = new Set(all.map((l) => l.justice));
    // State, labour and federal justice above all; electoral, state military and the superior courts (STJ is J 3) now and then.
    expect([...justices].sort()).toEqual(['3', '4', '5', '6', '8', '9']);
    const classes = new Set(all.map((l) => l.classifications[0].code));
    for (const c of ['436', '7', '1116', '159', '69', '985', '283', '198', '202', '1009', '417']) expect(classes.has(c), `class ${c}`).toBe(true);
  });

  test('each lawsuit a document search finds names that document, for people, companies and public entities', () => {
    const docs = new Map<string, 'cpf' | 'cnpj'>();
    for (const l of all.filter((_, k) => k % 23 === 0)) for (const p of l.parties) {
      if (!p.document) continue; // the highest secrecy blanks documents even for a credential
      if (p.document_type === 'CPF') docs.set(p.document, 'cpf');
      if (p.document_type === 'CNPJ') docs.set(p.document, 'cnpj');
    }
    let found = 0;
    let entities = 0;
    for (const [doc, type] of docs) {
      const truth = sb.truth({ search_type: type, search_key: doc });
      for (const h of truth) {
        const l = byKey.get(keyOf(h));
        // The scan sees the courts now; the search the database, which may not know a lawsuit yet.
        if (!l) continue;
        found++;
        expect(docsOf(l).has(doc), `${doc} in ${h.code} #${h.instance}`).toBe(true);
      }
      if (truth.length > 50) entities++;
    }
    expect(found).toBeGreaterThan(3000);
    expect(entities).toBeGreaterThan(0);
  });

  test('every instance of one case names the same parties; appeals keep the number, interlocutory appeals get their own', () => {
    const byCode = new Map<string, any[]>();
    for (const l of all) byCode.set(l.code, [...(byCode.get(l.code) ?? []), l]);
    let pairs = 0;
    for (const ls of byCode.values()) {
      if (ls.length < 2) continue;
      pairs++;
      const [a, b] = ls;
      expect(new Set([a.instance, b.instance])).toEqual(new Set([1, 2]));
      expect([...docsOf(a)].sort()).toEqual([...docsOf(b)].sort());
    }
    expect(pairs).toBeGreaterThan(100);
    const interlocutory = all.filter((l) => l.classifications[0].code === '202');
    expect(interlocutory.length).toBeGreaterThan(20);
    for (const l of interlocutory) {
      expect(l.instance).toBe(2);
      // An interlocutory appeal is filed at the appellate body: OOOO 0000, a number of its own.
      expect(l.code.endsWith('.0000')).toBe(true);
      expect(byCode.get(l.code)).toHaveLength(1);
      const first = sb.universe.lawsuit(sb.universe.planner.baseOf(l.__index), AT, { onDemand: true, shape: 'full', privileged: true }) as any;
      expect([...docsOf(l)].sort()).toEqual([...docsOf(first)].sort());
      expect(Date.parse(l.distribution_date)).toBeGreaterThan(Date.parse(first.distribution_date));
    }
  });

  test('alphanumeric CNPJs only on lawsuits distributed from July 2026, and some there', () => {
    let recent = 0;
    for (const l of all) for (const p of l.parties) {
      if (p.document_type !== 'CNPJ' || !/[A-Z]/.test(p.document)) continue;
      expect(Date.parse(l.distribution_date), `${l.code} names ${p.document}`).toBeGreaterThanOrEqual(JULY_2026);
      recent++;
    }
    expect(recent).toBeGreaterThan(0);
  });

  test('every class and subject is a code of the bundled TPU extract, under its name', () => {
    for (const l of all) {
      for (const c of l.classifications) expect(classOf(c.code)?.name, `class ${c.code}`).toBe(c.name);
      for (const s of l.subjects) expect(subjectOf(s.code)?.name, `subject ${s.code}`).toBe(s.name);
    }
  });

  test('labour claims are about labour law, tax enforcements are brought by a public entity, criminal actions by the Ministério Público', () => {
    const labour = all.filter((l) => l.justice === '5');
    expect(labour.length).toBeGreaterThan(500);
    for (const l of labour) {
      for (const s of l.subjects) expect(rootOf(s.code), `${l.code} subject ${s.code}`).toBe('864');
      // Ordinary and summary rites, the TRT's Recurso Ordinário, the TST's Recurso de Revista.
      expect(['985', '1125', '1009', '1008']).toContain(l.classifications[0].code);
    }
    const nonLabour = all.filter((l) => l.justice !== '5');
    for (const l of nonLabour) for (const s of l.subjects) expect(rootOf(s.code)).not.toBe('864');

    // Level 5 secrecy hides even the names.
    const named = all.filter((l) => l.secrecy_level < 5);
    const tax = named.filter((l) => l.classifications[0].code === '1116');
    expect(tax.length).toBeGreaterThan(300);
    for (const l of tax) {
      const plaintiff = l.parties.find((p: any) => p.side === 'Active');
      expect(plaintiff.name, l.code).toMatch(/^(Município d[eo] |Estado d|Distrito Federal|União - Fazenda Nacional)/);
      for (const s of l.subjects) expect(rootOf(s.code), `${l.code} subject ${s.code}`).toBe('14');
    }

    const criminal = named.filter((l) => ['283', '10943'].includes(l.classifications[0].code));
    expect(criminal.length).toBeGreaterThan(100);
    for (const l of criminal) {
      const prosecutor = l.parties.find((p: any) => p.side === 'Active');
      expect(prosecutor.name, l.code).toMatch(/^Ministério Público/);
      expect(prosecutor.lawyers).toEqual([]);
      expect(l.parties.find((p: any) => p.side === 'Passive').document_type).toBe('CPF');
      for (const s of l.subjects) expect(rootOf(s.code), `${l.code} subject ${s.code}`).toBe('287');
      expect(l.area).toBe('Criminal');
    }

    const social = all.filter((l) => l.justice === '4' && l.parties.some((p: any) => p.name === 'Instituto Nacional do Seguro Social - INSS'));
    expect(social.length).toBeGreaterThan(10);
    for (const l of social) for (const s of l.subjects) expect(rootOf(s.code)).toBe('195');
  });

  test('steps carry the TPU code of their movement in step_type and a text that belongs to it', () => {
    let steps = 0;
    for (const l of all) for (const s of l.steps) {
      expect(movementOf(s.step_type), `movement ${s.step_type}`).toBeDefined();
      if (s.private) continue;
      steps++;
      expect(s.content, `${s.step_type}: ${s.content}`).toMatch(MOVEMENT_WORDS[s.step_type]);
    }
    expect(steps).toBeGreaterThan(50_000);
    // A criminal judgment convicts or acquits.
    for (const l of all.filter((x) => x.area === 'Criminal' && x.instance === 1)) for (const s of l.steps) expect(s.step_type).not.toBe('221');
  });

  test('origin codes are real units: federal ones are subsections, labour ones number the Vara do Trabalho', () => {
    const federalUnits = new Set(['6100', '6182', '6183', '6301', '6181', '6105', '6303', '3400', '5101', '5151', '7100', '7000', '0000']);
    const federal = all.filter((l) => l.justice === '4');
    expect(federal.length).toBeGreaterThan(100);
    for (const l of federal) expect(federalUnits.has(l.code.slice(-4)), l.code).toBe(true);
    for (const l of all.filter((x) => x.tribunal_acronym === 'TRT2' && x.instance === 1 && x.city === 'São Paulo')) {
      const vara = Number(l.code.slice(-4));
      expect(vara).toBeGreaterThanOrEqual(1);
      expect(vara).toBeLessThanOrEqual(90);
      expect(l.courts[0].name).toBe(`${vara}ª Vara do Trabalho de São Paulo`);
    }
  });

  test('lawsuit_id is a property of some tribunals\' payloads only, and a lawsuit_id search still finds the instance', async () => {
    const withId = all.filter((l) => 'lawsuit_id' in l);
    const tribunalsWith = new Set(withId.map((l) => l.tribunal_acronym));
    const tribunalsWithout = new Set(all.filter((l) => !('lawsuit_id' in l)).map((l) => l.tribunal_acronym));
    expect(withId.length).toBeGreaterThan(100);
    expect(withId.length).toBeLessThan(all.length);
    for (const t of tribunalsWith) expect(tribunalsWithout.has(t), t).toBe(false);
    const target = withId.find((l) => l.secrecy_level === 0 && l.instance === 2) ?? withId[0];
    const { items } = await runSearch(sb, { search_type: 'lawsuit_id', search_key: target.lawsuit_id, on_demand: true });
    expect(items.map((i) => keyOf(i.response_data))).toEqual([keyOf(target)]);
    expect(items[0].response_data.lawsuit_id).toBe(target.lawsuit_id);
  });

  test('over HTTP, a document search for a big public entity answers lawsuits that all name it', async () => {
    const entity = sb.universe.entities.list.find((e) => e.name === 'Estado de São Paulo')!;
    const { items } = await runSearch(sb, { search_type: 'cnpj', search_key: entity.document });
    expect(items.length).toBeGreaterThan(20);
    for (const it of items) {
      const l = it.response_data;
      if (l.secrecy_level >= 3) continue;
      expect(l.parties.some((p: any) => p.document === entity.document), l.code).toBe(true);
    }
    const nowAt = sb.state.clock.now();
    expect(nowAt).toBeGreaterThanOrEqual(AT);
    expect((await call(sb, 'GET', '/requests?page_size=1')).status).toBe(200);
  });
});
