import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { rememberRawText } from '../../src/shared/raw-json.js';
import type { Lawsuit, ResponseItem } from '../../src/spec/types.js';
import { flattenLawsuit } from '../../src/warehouse/flatten.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// A list of a lawsuit in a shape the flattening does not take. `steps` sent as an object ({"0": …, "1": …})
// dropped the lawsuit's 18 steps in silence: exit 0, no problem recorded. An object keyed 0 … n−1 means a list
// (some serialisers write one so): it is taken, in key order, and a problem says so; any other shape is not taken
// (no rows, the list not carried) and a problem says so. Never dropped without a word.

const CODE = '0710802-55.2018.8.02.0001';
const steps = Array.from({ length: 18 }, (_, i) => ({ step_id: `s${i}`, step_date: `2020-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`, content: `step ${i}` }));
const asObject = <T>(xs: readonly T[]): Record<string, T> => Object.fromEntries(xs.map((x, i) => [String(i), x]));

describe('a list in a shape the flattening does not take', () => {
  it('an object keyed 0 … n−1 is taken as the list, in key order, with a problem saying so', () => {
    // keys in any order in the text: the list is in key order
    const shuffled = Object.fromEntries(Object.entries(asObject(steps)).reverse());
    const f = flattenLawsuit({ code: CODE, instance: 1, steps: shuffled, parties: [{ name: 'P', lawyers: asObject([{ name: 'L' }]) }] } as unknown as Lawsuit);
    expect(f.steps.map((s) => s.step_id)).toEqual(steps.map((s) => s.step_id));
    expect(f.lawsuit.has_steps).toBe(true);
    expect(f.lawyers.map((w) => w.name)).toEqual(['L']);
    expect(f.problems.map((p) => [p.field, p.problem])).toEqual([['steps', 'list_as_object'], ['parties[0].lawyers', 'list_as_object']]);
  });

  it('any other shape is not taken, and never in silence: a problem names the field and shows the value', () => {
    const notLists = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant({}),
      fc.dictionary(fc.string({ minLength: 1 }).filter((k) => !/^(0|[1-9]\d*)$/.test(k)), fc.anything(), { minKeys: 1 }),
      fc.constant({ 0: 'a', 2: 'b' }), fc.constant({ 1: 'a' }), fc.constant({ '00': 'a' }));
    // (subjects, classifications and courts written as one non-blank text are the documentation's descriptive
    // form: that one item, flatten-reads-the-documented-loose-shapes.test.ts)
    const textTaken = (field: string, v: unknown): boolean => ['subjects', 'classifications', 'courts'].includes(field) && typeof v === 'string' && v.trim() !== '';
    fc.assert(fc.property(fc.constantFrom('steps', 'parties', 'subjects', 'classifications', 'courts', 'attachments'), notLists, (field, v) => {
      fc.pre(!textTaken(field, v));
      const f = flattenLawsuit({ code: CODE, instance: 1, [field]: v } as unknown as Lawsuit);
      expect(f.problems).toEqual([expect.objectContaining({ field, problem: 'not_a_list' })]);
      expect(f.lawsuit[`has_${field}` as 'has_steps']).toBe(false);
      expect((f as unknown as Record<string, unknown[]>)[field === 'parties' ? 'parties' : field]).toEqual([]);
    }));
  });

  describe('loaded', () => {
    const tmp = scratch();
    afterAll(() => tmp.cleanup());

    it('the steps of an object are in the warehouse and the problem in load_problems; the raw payload is as received', async () => {
      const wh = await Warehouse.open(join(tmp.dir, 'w.duckdb'));
      try {
        const text = JSON.stringify({ response_id: 'r1', request_id: 'q1', response_type: 'lawsuit', created_at: '2024-01-01T00:00:00Z',
          response_data: { code: CODE, instance: 1, steps: asObject(steps), courts: 7 } });
        await loadResponseItems(wh, [rememberRawText(JSON.parse(text), text) as ResponseItem], { runId: 'run-1' });
        const [{ n }] = await wh.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM steps');
        expect(n).toBe(18);
        const problems = await wh.all<{ field: string; problem: string }>('SELECT field, problem FROM load_problems ORDER BY field');
        expect(problems).toEqual([{ field: 'courts', problem: 'not_a_list' }, { field: 'steps', problem: 'list_as_object' }]);
        const [{ raw }] = await wh.all<{ raw: string }>('SELECT raw::VARCHAR AS raw FROM lawsuits');
        expect(JSON.parse(raw).steps).toEqual(asObject(steps));
      } finally {
        await wh.close();
      }
    });
  });
});
