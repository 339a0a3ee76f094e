import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Lawsuit } from '../../src/spec/types.js';
import { startRun } from '../../src/warehouse/ledger.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { migration as m101 } from '../../src/warehouse/migrations/101-header-fields-related-lawsuits-and-error-reasons.js';
import { rebuildFromRaw } from '../../src/warehouse/rebuild.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { errorItem, lawsuitItem, richLawsuit } from './fixtures.js';

// A lawsuit in each loose shape the provider's documentation shows — an instance written `1ª INSTÂNCIA` or
// `SEGUNDA INSTÂNCIA`, a court as a plain string, subjects and classifications as plain names — lands in
// `lawsuits` with its instance and courts, rather than in responses_raw alone (before: no usable key, kept raw
// only). The header's judge and situation are carried (a newer payload without them keeps them), the related
// lawsuits are a list replaced whole by the newest payload carrying one, each application_error item has its
// reason; and `rebuild` gives the same tables.

let wh: Warehouse;
beforeEach(async () => { wh = await Warehouse.open(':memory:'); });
afterEach(async () => { await wh.close(); });

const crawl = (l: Lawsuit, at: string): Lawsuit => ({ ...l, crawler: { ...l.crawler, updated_at: at } });

/** Each documented loose shape, on a lawsuit of its own. */
function looseLawsuits(): Lawsuit[] {
  const textCourt = { ...richLawsuit({ code: '0000001-00.2020.8.26.0100', instance: '1ª INSTÂNCIA' as never }), court: '3ª Vara Cível do Foro Central' } as Lawsuit;
  delete textCourt.courts;
  return [
    textCourt,
    richLawsuit({ code: '0000002-00.2020.8.26.0100', instance: 'SEGUNDA INSTÂNCIA' as never, courts: ['1ª Câmara de Direito Privado'] as never }),
    richLawsuit({ code: '0000003-00.2020.8.26.0100', instance: '2' as never, subjects: ['Perdas e Danos'] as never, classifications: ['Apelação Cível'] as never }),
  ];
}

describe('a lawsuit in a loose shape', () => {
  test('lands in lawsuits with its instance and courts, its subjects and classifications, and no problem recorded', async () => {
    const counts = await loadResponseItems(wh, looseLawsuits().map((l) => lawsuitItem(l)), { runId: 'r1' });
    expect(counts).toMatchObject({ lawsuitItems: 3, lawsuits: 3, skipped: 0, problems: 0 });
    expect(await wh.all('SELECT code, instance FROM lawsuits ORDER BY code')).toEqual([
      { code: '0000001-00.2020.8.26.0100', instance: 1 }, { code: '0000002-00.2020.8.26.0100', instance: 2 }, { code: '0000003-00.2020.8.26.0100', instance: 2 },
    ]);
    expect(await wh.all('SELECT code, instance, court_index, court_code, court_name FROM courts WHERE code <> \'0000003-00.2020.8.26.0100\' ORDER BY code, court_index')).toEqual([
      { code: '0000001-00.2020.8.26.0100', instance: 1, court_index: 0, court_code: null, court_name: '3ª Vara Cível do Foro Central' },
      { code: '0000002-00.2020.8.26.0100', instance: 2, court_index: 0, court_code: null, court_name: '1ª Câmara de Direito Privado' },
    ]);
    expect(await wh.all(`SELECT s.item_code, c.item_code AS class_code FROM subjects s JOIN classifications c USING (code, instance)
      WHERE code = '0000003-00.2020.8.26.0100'`)).toEqual([{ item_code: 'Perdas e Danos', class_code: 'Apelação Cível' }]);
    // every child row under the key the instance gave
    expect((await wh.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM parties WHERE instance IS NULL OR code NOT IN (SELECT code FROM lawsuits)'))[0].n).toBe(0);
    expect(await wh.all('SELECT count(*)::INTEGER AS n FROM load_problems')).toEqual([{ n: 0 }]);
  });

  test('judge and situation are carried; related lawsuits come whole from the newest payload that carries the list', async () => {
    const older = crawl(richLawsuit(), '2023-01-01T00:00:00.000Z');
    await loadResponseItems(wh, [lawsuitItem(older)], { runId: 'r1' });
    const one = async () => (await wh.all<Record<string, unknown>>('SELECT judge, situation, has_related_lawsuits FROM lawsuits'))[0];
    const related = async () => (await wh.all<{ related_code: string }>('SELECT related_code FROM related_lawsuits ORDER BY related_code')).map((r) => r.related_code);
    expect(await one()).toEqual({ judge: 'Juiz Fulano', situation: 'Em andamento', has_related_lawsuits: true });
    expect(await related()).toEqual(['0001234-08.2023.8.26.0100', '5059111-78.2025.4.02.5101']);
    // a newer payload without judge, situation or the list keeps them all
    const partial = crawl(richLawsuit(), '2024-01-01T00:00:00.000Z');
    delete partial.judge; delete partial.situation; delete partial.related_lawsuits;
    await loadResponseItems(wh, [lawsuitItem(partial)], { runId: 'r2' });
    expect(await one()).toEqual({ judge: 'Juiz Fulano', situation: 'Em andamento', has_related_lawsuits: true });
    expect(await related()).toEqual(['0001234-08.2023.8.26.0100', '5059111-78.2025.4.02.5101']);
    // a newer one with other values and another list replaces them; an empty list says "none now"
    await loadResponseItems(wh, [lawsuitItem(crawl(richLawsuit({ judge: 'Juíza Beltrana', related_lawsuits: [{ code: '0710802-55.2018.8.02.0001' }] }), '2025-01-01T00:00:00.000Z'))], { runId: 'r3' });
    expect((await one()).judge).toBe('Juíza Beltrana');
    expect(await related()).toEqual(['0710802-55.2018.8.02.0001']);
    await loadResponseItems(wh, [lawsuitItem(crawl(richLawsuit({ related_lawsuits: [] }), '2026-01-01T00:00:00.000Z'))], { runId: 'r4' });
    expect(await related()).toEqual([]);
  });

  test('an application_error item has its typed reason, once however often it is loaded', async () => {
    const items = [errorItem(), errorItem({ response_data: { code: 5, message: 'HOMONYM' } as never }), errorItem({ response_data: { code: 9 } as never })];
    await loadResponseItems(wh, items, { runId: 'r1' });
    await loadResponseItems(wh, items, { runId: 'r1' });
    expect(await wh.all('SELECT error_code, message, reason, run_id FROM application_errors ORDER BY error_code')).toEqual([
      { error_code: '2', message: 'LAWSUIT_NOT_FOUND', reason: 'not_found', run_id: 'r1' },
      { error_code: '5', message: 'HOMONYM', reason: 'homonym', run_id: 'r1' },
      { error_code: '9', message: null, reason: 'other', run_id: 'r1' },
    ]);
  });

  test('rebuild gives the same tables', async () => {
    const run = await startRun(wh, { command: 'run' });
    await loadResponseItems(wh, [...looseLawsuits().map((l) => lawsuitItem(l)), lawsuitItem(richLawsuit()), errorItem()], { runId: run });
    const TABLES = ['lawsuits', 'courts', 'subjects', 'classifications', 'related_lawsuits', 'application_errors'];
    const snapshot = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t,
      (await wh.all<{ r: string }>(`SELECT CAST(to_json(x) AS VARCHAR) AS r FROM (SELECT * ${t === 'lawsuits' ? 'EXCLUDE (loaded_at)' : ''} FROM ${t}) x`)).map((x) => x.r).sort()])));
    const before = await snapshot();
    expect(before.related_lawsuits).toHaveLength(8); // the fixture's two, under each of the four lawsuits
    expect(before.application_errors).toHaveLength(1);
    await rebuildFromRaw(wh);
    expect(await snapshot()).toEqual(before);
  });

  test('migration 101 fills a stored lawsuit\'s judge and situation from its raw (its newest payload)', async () => {
    const noJudge = richLawsuit({ code: '0000009-00.2020.8.26.0100', situation: 12 as never });
    delete noJudge.judge;
    await loadResponseItems(wh, [lawsuitItem(richLawsuit()), lawsuitItem(noJudge)], { runId: 'r1' });
    const loaded = await wh.all('SELECT code, judge, situation FROM lawsuits ORDER BY code');
    // as a warehouse made before the columns holds them
    await wh.run('UPDATE lawsuits SET judge = NULL, situation = NULL');
    for (const c of m101.changes) if (c.kind === 'sql') await wh.run(c.sql);
    expect(await wh.all('SELECT code, judge, situation FROM lawsuits ORDER BY code')).toEqual(loaded);
    expect(loaded).toEqual([
      { code: '0000009-00.2020.8.26.0100', judge: null, situation: '12' },
      { code: '0710802-55.2018.8.02.0001', judge: 'Juiz Fulano', situation: 'Em andamento' },
    ]);
  });
});
