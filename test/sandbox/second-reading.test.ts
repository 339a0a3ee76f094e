// The analyst's second reading (second-reading-checklist.ts) as a property: universes of any seed and size (drawn by
// fast-check; SANDBOX_PROPERTY_SEED replays a draw, SANDBOX_PROPERTY_RUNS draws more than 6), 100 lawsuits read from
// each with the lawsuits they name, plus the cases each rule is about (appeals, agravos, executions and embargos with
// their origins; drug trafficking, domestic violence, incapacity, maternity, default, elections, companies on both
// sides), so that every rule meets what it checks. Each rule flags none.
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Plan } from '../../src/sandbox/plan.js';
import { Universe } from '../../src/sandbox/universe.js';
import type { Lawsuit } from './analyst-checklist.js';
import { readAgain, REAL_CNPJS, RULES, type Case } from './second-reading-checklist.js';

const AT = Date.parse('2026-06-15T12:00:00.000Z');
const VIEW = { onDemand: true, shape: 'full', privileged: true } as const;
const UNIVERSES = Number(process.env.SANDBOX_PROPERTY_RUNS ?? 6);
const PER_UNIVERSE = 100;
/** Each kind of case a rule is about, read this many times from each universe (when it has them). */
const TARGETED = 4;
const DRAW_SEED = process.env.SANDBOX_PROPERTY_SEED === undefined ? undefined : Number(process.env.SANDBOX_PROPERTY_SEED);
const universes = fc.sample(fc.record({ seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }), size: fc.integer({ min: 5_000, max: 10_000_000 }) }), {
  numRuns: UNIVERSES, ...(DRAW_SEED === undefined ? {} : { seed: DRAW_SEED }),
});

/** Lawsuit i with the lawsuits its related_lawsuits name, each found by its number and instance. */
function read(u: Universe, i: number): Case | undefined {
  const l = u.lawsuit(i, AT, VIEW) as Lawsuit | undefined;
  if (!l) return undefined;
  const related: Lawsuit[] = [];
  const missing: string[] = [];
  for (const item of l.related_lawsuits) {
    const found = u.lawsuitsOfCnj(item.code).map((j) => u.lawsuit(j, AT, VIEW) as Lawsuit | undefined).find((x) => x?.instance === item.instance);
    if (!found) missing.push(`${item.relation} ${item.code}#${item.instance}`);
    related.push(found ?? {});
  }
  return { l, related, missing };
}

/** What each targeted kind of case is, read off its plan: the sample is chosen by it, the rules read only payloads. */
const TARGETS: Record<string, (p: Plan, u: Universe) => boolean> = {
  appeal: (p) => p.appeal === 'appeal', superior: (p) => p.appeal === 'superior', agravo: (p) => p.appeal === 'interlocutory',
  execution: (p) => p.appeal === 'execution', embargos: (p) => p.appeal === 'dependency',
  drugs: (p) => p.appeal === 'none' && p.classCode === '300', domesticViolence: (p) => p.appeal === 'none' && p.subjectCodes.includes('10949'),
  incapacity: (p) => p.appeal === 'none' && p.kind.procedure === 'socialSecurity' && p.topic?.medical === true,
  maternity: (p) => p.appeal === 'none' && p.subjectCodes.includes('6103'), default: (p) => p.appeal === 'none' && p.defendantUnrepresented,
  electoral: (p) => p.kind.procedure === 'electoral',
  companiesOnBothSides: (p, u) => p.appeal === 'none' && u.parties(p.index).filter((q) => q.kind === 'company' && (q.side === 'Active' || q.side === 'Passive')).length === 2,
};

function sample(seed: number, size: number): { u: Universe; cases: Case[]; targeted: Record<string, number> } {
  const u = new Universe({ seed, lawsuits: size });
  const cases: Case[] = [];
  for (let k = 0; cases.length < PER_UNIVERSE && k < size; k++) {
    const c = read(u, (7919 * k + 104_729 * (seed % 97)) % size);
    if (c) cases.push(c);
  }
  const targeted: Record<string, number> = Object.fromEntries(Object.keys(TARGETS).map((t) => [t, 0]));
  for (let i = 1 + (seed % 1000); i < size && i < 400_000 && Object.values(targeted).some((n) => n < TARGETED); i += 2) {
    for (const j of [i - 1, i]) {
      const p = u.plan(j);
      const kind = Object.keys(TARGETS).find((t) => targeted[t] < TARGETED && TARGETS[t](p, u));
      if (!kind || p.distributionMs > AT) continue;
      const c = read(u, j);
      if (!c) continue;
      targeted[kind]++;
      cases.push(c);
      // A child is read with its origin, and the origin with it.
      for (const item of c.l.related_lawsuits) {
        const other = u.lawsuitsOfCnj(item.code).find((x) => u.plan(x).instance === item.instance);
        const r = other === undefined ? undefined : read(u, other);
        if (r) cases.push(r);
      }
    }
  }
  return { u, cases, targeted };
}

describe('an analyst reading again: universes of any seed and size', () => {
  let cases: Case[];
  /** The lawsuits read first from each universe, with it. */
  const read100: Array<{ u: Universe; cases: Case[] }> = [];
  let flagged: ReturnType<typeof readAgain>;
  const targetedTotal: Record<string, number> = {};
  beforeAll(() => {
    cases = [];
    for (const { seed, size } of universes) {
      const s = sample(seed, size);
      read100.push({ u: s.u, cases: s.cases.slice(0, PER_UNIVERSE) });
      cases.push(...s.cases);
      for (const [k, n] of Object.entries(s.targeted)) targetedTotal[k] = (targetedTotal[k] ?? 0) + n;
    }
    flagged = readAgain(cases);
    const rows = RULES.map((r) => `${String(flagged.get(r.id)!.length).padStart(4)}  ${r.what}${flagged.get(r.id)!.length ? `  e.g. ${flagged.get(r.id)![0].code}#${flagged.get(r.id)![0].instance}: ${flagged.get(r.id)![0].reason}` : ''}`);
    console.log(`second reading over ${cases.length} lawsuits of ${universes.map((x) => `seed ${x.seed} (${x.size})`).join(', ')}; targeted ${JSON.stringify(targetedTotal)}:\n${rows.join('\n')}`);
  }, 120_000);

  test('the sample holds at least 500 lawsuits, and every kind of case a rule is about', () => {
    expect(cases.length).toBeGreaterThanOrEqual(UNIVERSES * PER_UNIVERSE);
    for (const [kind, n] of Object.entries(targetedTotal)) expect(n, kind).toBeGreaterThanOrEqual(TARGETED);
    const steps = cases.flatMap((c) => c.l.steps ?? []);
    expect(steps.filter((s: Lawsuit) => ['970', '237', '238', '239', '92'].includes(s.step_type)).length).toBeGreaterThan(200);
    expect(new Set(cases.flatMap((c) => c.l.related_lawsuits.map((x: Lawsuit) => x.relation)))).toEqual(new Set(['origin', 'appeal', 'interlocutory_appeal', 'execution', 'dependency']));
  });

  for (const rule of RULES) {
    test(`${rule.what}: none flagged`, () => {
      expect(flagged.get(rule.id)!.slice(0, 5)).toEqual([]);
    });
  }

  test('a number is one case: searched, it finds that case\'s instances and no other', () => {
    const ids = (x: Lawsuit) => (x.parties ?? []).filter((p: Lawsuit) => p.person_type !== 'Advogado' && p.document).map((p: Lawsuit) => p.document).sort().join();
    let checked = 0;
    for (const { u, cases: first } of read100) {
      for (const { l } of first) {
        const found = u.lawsuitsOfCnj(l.code).map((i) => u.lawsuit(i, AT, VIEW) as Lawsuit | undefined).filter((x): x is Lawsuit => x !== undefined);
        expect(found.map((x) => x.instance), l.code).toContain(l.instance);
        for (const x of found) expect(ids(x), l.code).toBe(ids(l));
        checked++;
      }
    }
    expect(checked).toBe(UNIVERSES * PER_UNIVERSE);
  });

  test("a unit's number names one place: the same J.TR.OOOO is always the same city and state", () => {
    const place = new Map<string, string>();
    for (const { l } of cases) {
      const unit = String(l.code).slice(16);
      const where = `${l.city}/${l.state}`;
      expect(place.get(unit) ?? where, `${l.code}`).toBe(where);
      place.set(unit, where);
    }
    expect(place.size).toBeGreaterThan(50);
  });

  test('free legal aid: most people who ask, a company rarely, a public body never', () => {
    const claimant = (l: Lawsuit) => (l.parties ?? []).find((p: Lawsuit) => p.side === 'Active');
    const isCompany = (l: Lawsuit) => claimant(l)?.document_type === 'CNPJ' && !/^(Município|Estado|Distrito|Ministério|União|Instituto|Caixa)/.test(claimant(l).name);
    // The companies' rate is a few in a hundred: the sample's 60 or so companies put it over 5% in about one run of
    // seven (CI, 2026-11-28: 5 of 64), so each universe adds its own first 100 company claimants besides.
    const more = read100.flatMap(({ u }) => {
      const out: Lawsuit[] = [];
      for (let j = 0; j < Math.min(u.count, 50_000) && out.length < 100; j += 7) {
        const l = u.lawsuit(j, AT, VIEW) as Lawsuit | undefined;
        if (l && l.instance === 1 && 'free_justice' in l && isCompany(l)) out.push(l);
      }
      return out;
    });
    const first = [...cases.map((c) => c.l), ...more].filter((l) => l.instance === 1 && 'free_justice' in l);
    const companies = first.filter(isCompany);
    const people = first.filter((l) => claimant(l)?.document_type === 'CPF');
    expect(companies.length).toBeGreaterThan(20);
    expect(companies.filter((l) => l.free_justice === true).length / companies.length).toBeLessThan(0.05);
    expect(people.filter((l) => l.free_justice === true).length / people.length).toBeGreaterThan(0.3);
  });
});

/** The lawyers a party retains in each state, over up to `n` of its first-instance lawsuits (one lawyer, written SP123456 by the state courts and 123456/SP by the others). */
function counselByState(u: Universe, doc: string, n: number): { read: number; byState: Map<string, Set<string>> } {
  const byState = new Map<string, Set<string>>();
  let read = 0;
  for (const i of u.lawsuitsOfDocument(doc).slice(0, n)) {
    const l = u.lawsuit(i, AT, VIEW) as Lawsuit | undefined;
    const party = l?.parties.find((p: Lawsuit) => p.document === doc);
    if (!l || !party || l.instance !== 1) continue;
    read++;
    const set = byState.get(l.state) ?? new Set<string>();
    for (const lawyer of party.lawyers) set.add(`${/\d+/.exec(lawyer.oab)![0]}${/[A-Z]{2}/.exec(lawyer.oab)![0]}`);
    byState.set(l.state, set);
  }
  return { read, byState };
}

describe('a big litigant is represented by the handful of firms it retains, not by hundreds of lawyers', () => {
  // Two of the drawn seeds, at a size where the big litigants have thousands of lawsuits.
  const twoUniverses = universes.slice(0, 2).map(({ seed }) => new Universe({ seed, lawsuits: 400_000 }));
  const clients = ['Banco do Brasil S.A.', 'Itaú Unibanco S.A.', 'Banco Bradesco S.A.', 'Município de São Paulo', 'Instituto Nacional do Seguro Social - INSS'];
  for (const name of clients) {
    test(`${name}: at most 12 lawyers a state (4 firms of 3), over its lawsuits in two universes`, () => {
      let read = 0;
      for (const u of twoUniverses) {
        const counsel = counselByState(u, REAL_CNPJS[name], 200);
        read += counsel.read;
        for (const [state, lawyers] of counsel.byState) expect(lawyers.size, state).toBeLessThanOrEqual(12);
      }
      expect(read).toBeGreaterThan(100);
    });
  }
});
