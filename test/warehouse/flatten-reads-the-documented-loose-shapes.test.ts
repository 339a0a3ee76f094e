import { describe, expect, it, test } from 'vitest';
import type { Lawsuit } from '../../src/spec/types.js';
import { readInstance } from '../../src/spec/identifiers.js';
import { applicationErrorRow } from '../../src/warehouse/application-error.js';
import { flattenLawsuit } from '../../src/warehouse/flatten.js';
import { richLawsuit } from './fixtures.js';

// The provider's documentation writes the lawsuit header more loosely than the spec types it (docs.judit.io,
// schemas/lawsuit-object, and the spec's "alternative descriptive form": every field a string): an instance as
// `1ª INSTÂNCIA`, a court as text (`court`), subjects and classifications as plain names. Each shape is read into
// the same rows as the typed one, field by field, instead of leaving the lawsuit in responses_raw for want of a
// key; the header's judge and situation get columns, related_lawsuits rows, an application_error a reason.

const CODE = '0710802-55.2018.8.02.0001';

describe('an instance, as the documentation and payloads write it', () => {
  it.each([
    [1, 1], [2, 2], ['2', 2], [' 2 ', 2], ['2.0', 2], ['1ª INSTÂNCIA', 1], ['2ª INSTÂNCIA', 2], ['2ª instância', 2], ['1a instancia', 1],
    ['1º GRAU', 1], ['2° grau', 2], ['2 INSTANCIA', 2], ['PRIMEIRA INSTÂNCIA', 1], ['SEGUNDA INSTÂNCIA', 2], ['segundo grau', 2],
    ['TERCEIRA INSTÂNCIA', 3], ['1.ª INSTÂNCIA', 1],
  ])('%j is %d', (v, n) => expect(readInstance(v)).toBe(n));

  it.each([null, undefined, '', 'x', 'INSTÂNCIA SUPERIOR', '3ª TURMA', '0ª INSTÂNCIA', 'QUINTA INSTÂNCIA', 1.5, 9007199254740993, true, {}])('%j is none', (v) => {
    expect(readInstance(v)).toBeNull();
  });
});

describe('flattenLawsuit, the loose shapes', () => {
  test('an instance written as text keys the lawsuit, with no problem', () => {
    for (const [instance, n] of [['1ª INSTÂNCIA', 1], ['SEGUNDA INSTÂNCIA', 2], ['2', 2]] as const) {
      const r = flattenLawsuit(richLawsuit({ instance: instance as unknown as number }));
      expect(r.lawsuit.instance, instance).toBe(n);
      expect(r.problems, instance).toEqual([]);
      expect(r.parties.every((p) => p.instance === n) && r.steps.every((s) => s.instance === n), instance).toBe(true);
    }
  });

  test('courts as text are court names; a `court` alone, text or object, is the list of one', () => {
    const asText = flattenLawsuit(richLawsuit({ courts: ['1ª Vara Cível de Maceió', { name: 'Turma Recursal', code: '9' }] as never }));
    expect(asText.courts.map((c) => [c.court_index, c.court_code, c.court_name])).toEqual([[0, null, '1ª Vara Cível de Maceió'], [1, '9', 'Turma Recursal']]);
    const one = { ...richLawsuit(), court: '2ª Vara Cível' } as Lawsuit;
    delete one.courts;
    const single = flattenLawsuit(one);
    expect(single.courts.map((c) => [c.court_code, c.court_name])).toEqual([[null, '2ª Vara Cível']]);
    expect(single.lawsuit.has_courts).toBe(true);
    const object = flattenLawsuit({ ...one, court: { code: '0001', name: '1ª Vara' } } as Lawsuit);
    expect(object.courts.map((c) => [c.court_code, c.court_name])).toEqual([['0001', '1ª Vara']]);
    // the list wins over the single field when both are given
    expect(flattenLawsuit({ ...richLawsuit(), court: 'ignored' } as Lawsuit).courts).toHaveLength(2);
  });

  test('subjects and classifications as plain text: a code, a code and its name, or a name standing for its own code', () => {
    const r = flattenLawsuit(richLawsuit({
      subjects: ['7698 - Perdas e Danos', '10433', 'INDENIZAÇÃO POR DANO MORAL', ' ', 'INDENIZAÇÃO POR DANO MORAL'] as never,
      classifications: 'PROCEDIMENTO COMUM CÍVEL' as never,
    }));
    expect(r.subjects.map((s) => [s.item_code, s.item_name])).toEqual([
      ['7698', 'Perdas e Danos'], ['10433', null], ['INDENIZAÇÃO POR DANO MORAL', 'INDENIZAÇÃO POR DANO MORAL'],
    ]);
    expect(r.classifications.map((s) => [s.item_code, s.item_name])).toEqual([['PROCEDIMENTO COMUM CÍVEL', 'PROCEDIMENTO COMUM CÍVEL']]);
    expect(r.lawsuit).toMatchObject({ has_subjects: true, has_classifications: true });
    // `subject` alone, as the documentation names it beside `subjects`
    const single = { ...richLawsuit(), subject: { code: '7698', name: 'Perdas e Danos' } } as Lawsuit;
    delete single.subjects;
    expect(flattenLawsuit(single).subjects.map((s) => s.item_code)).toEqual(['7698']);
  });

  test('the header\'s judge and situation are columns, absent ones null', () => {
    const f = flattenLawsuit(richLawsuit());
    expect(f.lawsuit).toMatchObject({ judge: 'Juiz Fulano', situation: 'Em andamento' });
    const bare = flattenLawsuit({ code: CODE, instance: 1 } as Lawsuit);
    expect(bare.lawsuit).toMatchObject({ judge: null, situation: null, has_related_lawsuits: false });
    expect(bare.related_lawsuits).toEqual([]);
    const odd = flattenLawsuit({ code: CODE, instance: 1, judge: { name: 'x' } } as unknown as Lawsuit);
    expect(odd.lawsuit.judge).toBeNull();
    expect(odd.problems.map((p) => [p.field, p.problem])).toEqual([['judge', 'wrong_type']]);
  });

  test('related lawsuits: an object with a CNJ code (instance and relation when given), a bare number; one without a number stays in raw', () => {
    const l = richLawsuit({
      related_lawsuits: [
        { code: '5059111-78.2025.4.02.5101', instance: '2ª INSTÂNCIA', relation: 'Apensado' },
        '00012340820238260100',
        { lawsuit_cnj: '0710802-55.2018.8.02.0001', lawsuit_instance: 1, type: 'Recurso' },
        { code: '5059111-78.2025.4.02.5101', relation: 'repeated: the first entry stands' },
        { description: 'autos físicos sem número' },
        { code: '123' },
        null,
      ],
    });
    const f = flattenLawsuit(l);
    expect(f.lawsuit.has_related_lawsuits).toBe(true);
    expect(f.related_lawsuits.map((r) => [r.code, r.instance, r.related_code, r.related_instance, r.relation])).toEqual([
      [CODE, 1, '5059111-78.2025.4.02.5101', 2, 'Apensado'],
      [CODE, 1, '0001234-08.2023.8.26.0100', null, null],
      [CODE, 1, '0710802-55.2018.8.02.0001', 1, 'Recurso'],
    ]);
    expect(JSON.parse(f.related_lawsuits[0].raw)).toEqual(l.related_lawsuits![0]);
    expect(JSON.parse(f.lawsuit.raw!).related_lawsuits).toEqual(l.related_lawsuits);
    // the list as sent, slice for slice, when the text was given
    const text = JSON.stringify(l);
    expect(flattenLawsuit(JSON.parse(text) as Lawsuit, { rawText: text }).related_lawsuits[1].raw).toBe('"00012340820238260100"');
    expect(flattenLawsuit(richLawsuit({ related_lawsuits: [] })).lawsuit.has_related_lawsuits).toBe(true);
  });
});

describe('an application_error\'s reason', () => {
  it.each([
    [2, 'LAWSUIT_NOT_FOUND', 'not_found'], [null, 'Processo não encontrado', 'not_found'], [null, 'NENHUM PROCESSO ENCONTRADO', 'not_found'],
    [7, 'HOMONYM_FOUND', 'homonym'], [null, 'Homônimos encontrados para o nome', 'homonym'],
    [null, 'SECRET_LAWSUIT', 'secrecy'], [null, 'Processo em segredo de justiça', 'secrecy'], [null, 'sigilo', 'secrecy'],
    [null, 'CREDENTIAL_REQUIRED', 'credential'], [null, 'Credencial inválida no cofre', 'credential'],
    [null, 'COURT_TIMEOUT', 'court_unavailable'], [null, 'Tribunal indisponível', 'court_unavailable'],
    [null, 'INVALID_SEARCH_KEY', 'invalid_search'], [2, undefined, 'not_found'], ['2', '', 'not_found'],
    [99, 'SOMETHING_ELSE', 'other'], [undefined, undefined, 'other'],
  ])('code %j, message %j: %s', (code, message, reason) => {
    const item = { request_id: 'q', response_id: 'r', response_type: 'application_error', response_data: { code, message } };
    expect(applicationErrorRow(item, 'r', null).reason).toBe(reason);
  });

  test('a row of the item, whatever its response_data holds', () => {
    const item = { request_id: 'q', response_id: 'r', response_type: 'application_error', created_at: '2024-01-01T00:00:00Z', response_data: { code: 2, message: 'LAWSUIT_NOT_FOUND' } };
    expect(applicationErrorRow(item, 'r', 'run')).toEqual({
      response_id: 'r', request_id: 'q', created_at: '2024-01-01T00:00:00Z', error_code: '2', message: 'LAWSUIT_NOT_FOUND', reason: 'not_found', run_id: 'run',
    });
    expect(applicationErrorRow({ ...item, response_data: 'HOMONYM' }, 'r', null)).toMatchObject({ error_code: null, message: 'HOMONYM', reason: 'homonym' });
    expect(applicationErrorRow({ ...item, response_data: null }, 'r', null)).toMatchObject({ error_code: null, message: null, reason: 'other' });
    expect(applicationErrorRow({ ...item, response_data: { message: 'x'.repeat(5000) } }, 'r', null).message).toHaveLength(1000);
  });
});
