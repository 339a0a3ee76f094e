// The analyst's checklist (analyst-checklist.ts) over 500 lawsuits sampled from five seeds' universes, each read
// with the lawsuit it appeals from or the appeal it has: the audit of issue 24 as assertions, so that no change to
// the universe brings back a case that does not read as a real one. The checklist's tables are the analyst's own,
// not the generator's.
import { beforeAll, describe, expect, test } from 'vitest';
import { Universe } from '../../src/sandbox/universe.js';
import { RULES, runChecklist, type Case, type Lawsuit } from './analyst-checklist.js';

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
    else if (i + 1 < LAWSUITS && u.planner.baseOf(i + 1) === i) {
      // Its appeal, when the case has one (an execution or embargos opened from it are first-instance cases).
      const child = u.lawsuit(i + 1, AT, VIEW) as Record<string, any> | undefined;
      if (child && child.instance > 1) c.appeal = child;
    }
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

describe('the branches an analyst expects to meet, at their share', () => {
  const SCANNED = 40_000;
  let found: Array<{ i: number; l: Lawsuit }>;
  let u: Universe;
  const branch = (l: Lawsuit) => l.code.slice(16, 20);
  beforeAll(() => {
    u = new Universe({ seed: 1, lawsuits: LAWSUITS });
    found = [];
    // The historical shape: numbers, classes and courts without writing every step.
    for (let i = 0; i < SCANNED; i++) {
      const l = u.lawsuit(i, AT, { onDemand: true, shape: 'historical', privileged: true }) as Lawsuit | undefined;
      if (l) found.push({ i, l });
    }
  }, 60_000);
  const share = (test: (l: Lawsuit) => boolean) => found.filter(({ l }) => test(l)).length / found.length;

  test('electoral (J 6), state military (J 9) and superior courts (STJ J 3, TST 5.00) exist, each a small share', () => {
    const electoral = share((l) => l.justice === '6');
    const military = share((l) => l.justice === '9');
    const superior = share((l) => branch(l) === '3.00' || branch(l) === '5.00');
    expect(electoral).toBeGreaterThan(0.001);
    expect(electoral).toBeLessThan(0.015);
    expect(military).toBeGreaterThan(0);
    expect(military).toBeLessThan(0.002);
    expect(superior).toBeGreaterThan(0.0005);
    expect(superior).toBeLessThan(0.02);
  });

  test('superior-court cases: TR 00, OOOO 0000, a Recurso Especial or de Revista, after the judgment they come from', () => {
    const superior = found.filter(({ l }) => branch(l) === '3.00' || branch(l) === '5.00');
    expect(superior.length).toBeGreaterThan(0);
    const cases: Case[] = [];
    for (const { i, l } of superior) {
      expect(l.code.endsWith('.0000'), l.code).toBe(true);
      expect(l.instance).toBe(3);
      expect(l.classifications[0].code).toBe(branch(l) === '3.00' ? '1032' : '1008');
      cases.push({ l: u.lawsuit(i, AT, VIEW) as Lawsuit, origin: u.lawsuit(u.planner.baseOf(i), AT, VIEW) as Lawsuit, at: AT });
    }
    const flagged = runChecklist(cases);
    for (const r of RULES.filter((x) => x.hard)) expect(flagged.get(r.id)!.slice(0, 3), r.what).toEqual([]);
  });

  test('electoral cases are filed in an election season (even years, August to early December), at an electoral zone', () => {
    const electoral = found.filter(({ l }) => l.justice === '6');
    expect(electoral.length).toBeGreaterThan(0);
    for (const { l } of electoral) {
      const d = new Date(l.distribution_date);
      expect(d.getUTCFullYear() % 2, l.code).toBe(0);
      expect(d.getUTCMonth()).toBeGreaterThanOrEqual(7);
      expect(l.courts[0].name).toMatch(/Zona Eleitoral/);
    }
    for (const { l } of found.filter((x) => x.l.justice === '9')) expect(l.courts[0]?.name ?? '', l.code).toMatch(/Auditoria|Câmara/);
  });
});
