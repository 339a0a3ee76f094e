// The analyst's checklist (analyst-checklist.ts) over 500 lawsuits sampled from five seeds' universes, each read
// with the lawsuit it appeals from or the appeal it has: the audit of issue 24 as assertions, so that no change to
// the universe brings back a case that does not read as a real one. The checklist's tables are the analyst's own,
// not the generator's.
import { beforeAll, describe, expect, test } from 'vitest';
import { Universe } from '../../src/sandbox/universe.js';
import { RULES, runChecklist, type Case } from './analyst-checklist.js';

const SEEDS = [1, 2, 3, 4, 5];
const PER_SEED = 100;
const LAWSUITS = 100_000;
const AT = Date.parse('2026-06-15T12:00:00.000Z');
const VIEW = { onDemand: true, shape: 'full', privileged: true } as const;

function sample(seed: number): Case[] {
  const u = new Universe({ seed, lawsuits: LAWSUITS });
  const cases: Case[] = [];
  // A fixed stride over the indexes (coprime with the size), from a start of the test's own.
  for (let k = 0; cases.length < PER_SEED && k < LAWSUITS; k++) {
    const i = (7919 * k + 104_729 * seed) % LAWSUITS;
    const l = u.lawsuit(i, AT, VIEW) as Record<string, any> | undefined;
    if (!l) continue;
    const base = u.planner.baseOf(i);
    const c: Case = { l, at: AT };
    if (base !== i) c.origin = u.lawsuit(base, AT, VIEW) as Record<string, any>;
    else if (i + 1 < LAWSUITS && u.planner.baseOf(i + 1) === i) c.appeal = u.lawsuit(i + 1, AT, VIEW) as Record<string, any> | undefined;
    cases.push(c);
  }
  return cases;
}

describe('an analyst reading 500 sampled lawsuits', () => {
  let cases: Case[];
  let flagged: ReturnType<typeof runChecklist>;
  beforeAll(() => {
    cases = SEEDS.flatMap(sample);
    flagged = runChecklist(cases);
    const rows = RULES.map((r) => `${String(flagged.get(r.id)!.length).padStart(4)}  ${r.hard ? 'hard' : 'soft'}  ${r.what}${flagged.get(r.id)!.length ? `  e.g. ${flagged.get(r.id)![0].code}#${flagged.get(r.id)![0].instance}: ${flagged.get(r.id)![0].reason}` : ''}`);
    console.log(`realism checklist over ${cases.length} lawsuits (seeds ${SEEDS.join(', ')}):\n${rows.join('\n')}`);
  }, 60_000);

  test('the sample holds 500 lawsuits, appeals with their first instance among them', () => {
    expect(cases).toHaveLength(SEEDS.length * PER_SEED);
    expect(cases.filter((c) => c.origin).length).toBeGreaterThan(10);
    expect(cases.filter((c) => c.appeal).length).toBeGreaterThan(10);
  });

  for (const rule of RULES.filter((r) => r.hard)) {
    test(`hard rule: ${rule.what}: none flagged`, () => {
      expect(flagged.get(rule.id)!.slice(0, 5)).toEqual([]);
    });
  }

  test("soft rule: under 5% 'Ativo' with no step for two years", () => {
    expect(flagged.get('long-silence')!.length / cases.length).toBeLessThan(0.05);
  });

  test("most lawsuits have a lawyer from the court's state", () => {
    expect(flagged.get('no-local-lawyer')!.length / cases.length).toBeLessThan(0.1);
  });
});
