import { describe, expect, test } from 'vitest';
import type { Lawsuit } from '../../src/spec/types.js';
import { flattenLawsuit } from '../../src/warehouse/flatten.js';
import { richLawsuit } from './fixtures.js';

const ctx = { responseId: 'resp-x', responseCreatedAt: '2024-03-01T00:00:00.000Z', cachedResponse: true, source: 'async', runId: 'run-1' };
const digits = (s: string): string => s.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

describe('flattenLawsuit', () => {
  const l = richLawsuit();
  const raw = JSON.parse(JSON.stringify(l));
  const f = flattenLawsuit(l, ctx);

  test('the lawsuit row carries every scalar field of the payload', () => {
    const row = f.lawsuit;
    expect(row.amount).toBe('12345.67'); // the number as written: DuckDB casts the text to DECIMAL(18,2), exactly
    for (const k of ['code', 'justice', 'tribunal', 'instance', 'distribution_date', 'tribunal_acronym', 'secrecy_level',
      'area', 'county', 'state', 'city', 'justice_description', 'phase', 'status', 'name', 'created_at', 'updated_at', 'free_justice'] as const) {
      expect(row[k], k).toEqual(raw[k]);
    }
    expect(row.crawl_id).toBe(raw.crawler.crawl_id);
    expect(row.crawler_source).toBe(raw.crawler.source_name);
    expect(row.crawled_at).toBe(raw.crawler.updated_at);
    expect(row.last_step_date).toBe(raw.last_step.step_date);
    expect(row.steps_count).toBe(raw.last_step.steps_count);
    expect(row).toMatchObject({ response_id: 'resp-x', response_created_at: ctx.responseCreatedAt, cached_response: true, source: 'async', run_id: 'run-1' });
    expect(row).toMatchObject({ has_parties: true, has_steps: true, has_subjects: true, has_classifications: true, has_courts: true, has_attachments: true });
  });

  test('raw is the whole object, properties outside the spec included', () => {
    expect(JSON.parse(f.lawsuit.raw!)).toEqual(raw);
    expect(f.lawsuit.raw).toBe(JSON.stringify(l));
    expect(JSON.parse(f.lawsuit.raw!).unknown_extra.nested[2].deep).toBe('x');
    expect(JSON.parse(f.lawsuit.raw!).judge).toBe('Juiz Fulano');
  });

  test('parties: one row per entry, indexed by position, documents digits only', () => {
    expect(f.parties.map((p) => p.party_index)).toEqual(raw.parties.map((_: unknown, i: number) => i));
    f.parties.forEach((p, i) => {
      const src = raw.parties[i];
      expect(p).toMatchObject({ code: raw.code, instance: raw.instance, name: src.name, side: src.side, person_type: src.person_type });
      expect(p.document).toBe(src.document === undefined ? null : digits(src.document));
      expect(p.document_type).toBe(src.document_type ?? null);
      expect(p.main_document).toBe(src.main_document ? digits(src.main_document) : null);
      expect(JSON.parse(p.raw)).toEqual(src);
      if (src.documents === undefined) expect(p.documents).toBeNull();
      else expect(JSON.parse(p.documents!)).toEqual(src.documents.map((d: { document: string }) => ({ ...d, document: digits(d.document) })));
    });
  });

  test('lawyers: under their party, indexed, OAB from the field or from an OAB document', () => {
    const src = raw.parties[0].lawyers;
    expect(f.lawyers).toHaveLength(src.length);
    expect(f.lawyers[0]).toMatchObject({ party_index: 0, lawyer_index: 0, name: src[0].name, side: src[0].side, person_type: 'Advogado', oab: '123456SP', documents: null });
    // no side of its own: the party's side; the OAB document DF0012345 normalises to 12345DF
    expect(f.lawyers[1]).toMatchObject({ party_index: 0, lawyer_index: 1, name: src[1].name, side: raw.parties[0].side, oab: '12345DF' });
    expect(JSON.parse(f.lawyers[1].documents!)).toEqual(src[1].documents);
  });

  test('steps: every field, and a deterministic id for a step without one', () => {
    expect(f.steps).toHaveLength(raw.steps.length);
    raw.steps.forEach((s: Record<string, unknown>) => {
      // a step the payload gives no id is found by what identifies it: its date and its text
      const row = f.steps.find((r) => (s.step_id === undefined
        ? r.step_id_derived && r.step_date === s.step_date && r.content === s.content
        : r.step_id === s.step_id))!;
      expect(row, String(s.step_id ?? s.content)).toBeDefined();
      expect(row).toMatchObject({ code: raw.code, instance: raw.instance, step_date: s.step_date, content: s.content, private: s.private,
        step_type: s.step_type ?? null, step_id_derived: s.step_id === undefined });
      expect(JSON.parse(row.raw)).toEqual(s);
    });
    const again = flattenLawsuit(richLawsuit(), ctx);
    expect(again.steps.map((s) => s.step_id)).toEqual(f.steps.map((s) => s.step_id));
    // The derived id is the step's own, not its place: a step prepended leaves it, another text is another id.
    const derivedIds = (steps: object[]) => flattenLawsuit(richLawsuit({ steps: steps as never }), ctx).steps.filter((r) => r.step_id_derived).map((r) => r.step_id);
    const bare = { private: false, content: 'a', step_date: '2020-01-02T03:04:05.000Z' };
    const [alone] = derivedIds([bare]);
    const both = derivedIds([{ ...bare, content: 'c' }, bare]);
    expect(both).toHaveLength(2);
    expect(both).toContain(alone);
    expect(new Set(both).size).toBe(2);
  });

  test('subjects, classifications, courts and attachments', () => {
    expect(f.subjects.map((s) => [s.item_code, s.item_name])).toEqual(raw.subjects.map((s: { code: string; name: string }) => [s.code, s.name]));
    expect(f.classifications.map((s) => [s.item_code, s.item_name])).toEqual(raw.classifications.map((s: { code: string; name: string }) => [s.code, s.name]));
    expect(f.courts.map((c) => [c.court_index, c.court_code, c.court_name])).toEqual(
      raw.courts.map((c: { code?: string; name: string }, i: number) => [i, c.code ?? null, c.name]));
    expect(f.attachments).toHaveLength(1);
    expect(f.attachments[0]).toMatchObject({ attachment_id_derived: true, attachment_date: raw.attachments[0].attachment_date, name: raw.attachments[0].attachment_name });
    expect(f.attachments[0].attachment_id).toMatch(/^h_[0-9a-f]{32}$/);
    expect(JSON.parse(f.attachments[0].raw)).toEqual(raw.attachments[0]);
  });

  test('missing lists give no rows and flags false; missing fields give null', () => {
    const bare = flattenLawsuit({ code: '07108025520188020001', instance: 2 } as Lawsuit);
    expect(bare.lawsuit.code).toBe('0710802-55.2018.8.02.0001');
    expect(bare.lawsuit).toMatchObject({ instance: 2, phase: null, status: null, amount: null, crawled_at: null, steps_count: null, has_steps: false, has_parties: false });
    expect([bare.parties, bare.lawyers, bare.steps, bare.subjects, bare.classifications, bare.courts, bare.attachments].every((a) => a.length === 0)).toBe(true);
  });

  test('never throws on odd input', () => {
    const odd = { code: 5, instance: 'x', parties: [null, 3, { lawyers: 'no' }], steps: [null, 'a'], subjects: [{ name: 'no code' }], amount: 'abc', courts: {} };
    const r = flattenLawsuit(odd as unknown as Lawsuit);
    // a text amount goes to DuckDB as it is, which cannot cast it (problems.ts records that)
    expect(r.lawsuit).toMatchObject({ code: '5', instance: null, amount: 'abc', has_courts: false });
    expect(r.problems).toEqual([
      // an empty object is no list: not taken, and said (it was once dropped in silence)
      { field: 'courts', value: '{}', problem: 'not_a_list', detail: expect.stringMatching(/none of its entries is loaded/) },
      { field: 'instance', value: '"x"', problem: 'wrong_type', detail: expect.stringMatching(/kept in responses_raw only/) },
    ]);
    expect(r.parties).toEqual([]);
    expect(() => flattenLawsuit(null as unknown as Lawsuit)).not.toThrow();
    const keyed = flattenLawsuit({ ...odd, instance: 1 } as unknown as Lawsuit);
    expect(keyed.parties.map((p) => p.name)).toEqual([null, null, null]);
    expect(keyed.subjects).toEqual([]);
    // two steps with neither date nor content are the same derived step
    expect(keyed.steps).toHaveLength(1);
    expect(keyed.problems.filter((p) => p.problem === 'not_a_list').map((p) => p.field)).toEqual(['courts', 'parties[2].lawyers']);
  });
});

describe('flattenLawsuit with the text as received', () => {
  // An unknown property beyond 2^53, an amount beyond a double's digits, a number JSON cannot hold: all as sent.
  const text = '{"code":"0710802-55.2018.8.02.0001","instance":1,"amount":12345678901234567.891,"big_id":9007199254740993,'
    + '"steps":[{"step_id":"a","step_date":"2020-01-01T00:00:00Z","n":1e400},{"step_id":"b","content":"x\\"y"}],'
    + '"parties":[{"name":"P","x":0.1000000000000000055511151231257827}],"attachments":[{"attachment_name":"a.pdf","size":18446744073709551617}]}';
  const parsed = JSON.parse(text) as Lawsuit;
  const f = flattenLawsuit(parsed, { rawText: text });

  test('raw columns are slices of the text, digit for digit', () => {
    expect(f.lawsuit.raw).toBe(text);
    expect(f.steps.map((s) => s.raw)).toEqual(['{"step_id":"a","step_date":"2020-01-01T00:00:00Z","n":1e400}', '{"step_id":"b","content":"x\\"y"}']);
    expect(f.steps[1].content).toBe('x"y');
    expect(f.parties[0].raw).toBe('{"name":"P","x":0.1000000000000000055511151231257827}');
    expect(f.attachments[0].raw).toBe('{"attachment_name":"a.pdf","size":18446744073709551617}');
  });

  test('the amount is the literal as written, not its double', () => {
    expect(f.lawsuit.amount).toBe('12345678901234567.891');
    expect(String(parsed.amount)).not.toBe('12345678901234567.891');
  });

  test('values their columns cannot hold are problems, with the value as received', () => {
    const odd = '{"code":"0710802-55.2018.8.02.0001","instance":9007199254740993,"secrecy_level":1e400,"free_justice":"sim",'
      + '"name":{"first":"A"},"tribunal":26,"amount":true}';
    const r = flattenLawsuit(JSON.parse(odd) as Lawsuit, { rawText: odd });
    expect(r.lawsuit).toMatchObject({ instance: null, secrecy_level: null, free_justice: null, name: null, tribunal: '26', amount: null });
    expect(Object.fromEntries(r.problems.map((p) => [p.field, [p.value, p.problem]]))).toEqual({
      instance: ['9007199254740993', 'out_of_range'],
      secrecy_level: ['1e400', 'out_of_range'],
      free_justice: ['"sim"', 'wrong_type'],
      name: ['{"first":"A"}', 'wrong_type'],
      amount: ['true', 'wrong_type'],
    });
    expect(r.problems.find((p) => p.field === 'instance')!.detail).toMatch(/no usable key.*responses_raw only/);
    expect(r.problems.find((p) => p.field === 'secrecy_level')!.detail).toMatch(/left NULL/);
  });

  test('a lawsuit without a code or an instance is a missing key', () => {
    const r = flattenLawsuit({ name: 'x' } as Lawsuit);
    expect(r.problems.map((p) => [p.field, p.problem])).toEqual([['code', 'missing_key'], ['instance', 'missing_key']]);
  });

  test('a long value is shortened in the problem, its length said', () => {
    const long = `{"code":"0710802-55.2018.8.02.0001","instance":1,"name":[${'"x",'.repeat(500)}"x"]}`;
    const [p] = flattenLawsuit(JSON.parse(long) as Lawsuit, { rawText: long }).problems;
    expect(p.value).toMatch(/^\["x","x",.*… \(2005 characters\)$/);
  });

  test('any depth: an unknown property 5,000 levels deep, with or without the text as received', () => {
    const deep = `{"code":"0710802-55.2018.8.02.0001","instance":1,"deep":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)},"steps":[{"step_id":"s","x":${'['.repeat(5000)}${']'.repeat(5000)}}]}`;
    const parsedDeep = JSON.parse(deep) as Lawsuit;
    expect(() => JSON.stringify(parsedDeep)).toThrow(RangeError);
    const withText = flattenLawsuit(parsedDeep, { rawText: deep });
    expect(withText.lawsuit.raw).toBe(deep);
    const without = flattenLawsuit(parsedDeep);
    expect(without.lawsuit.raw).toBe(deep);
    expect(without.steps[0].raw).toBe(`{"step_id":"s","x":${'['.repeat(5000)}${']'.repeat(5000)}}`);
  });
});
