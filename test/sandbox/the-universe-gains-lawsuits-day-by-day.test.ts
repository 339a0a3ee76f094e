// The changing universe gains lawsuits day by day, as the two levels need it to: a document's tracking has births
// to announce and a lawsuit's tracking movements to carry. Lawsuits are distributed evenly over the years up to the
// end of 2027 (plan.ts), so after any starting instant before then, births come at a steady daily rate, from the
// seed alone and without memory: the biggest litigants of the bench's universe get new lawsuits most days,
// individuals now and then. Advancing the sandbox's clock by a day makes both births and movements visible to the
// API: a number not found yesterday is read whole today, a lawsuit read yesterday has more steps.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { Universe } from '../../src/sandbox/universe.js';
import { call, NOW, sandbox } from './helpers.js';
import { DAY, responsesOf } from './tracking-helpers.js';

/** Days of `days` after `start` on which lawsuits of these indexes first show in the database view. */
function birthDays(u: Universe, indexes: readonly number[], start: number, days: number): Set<number> {
  const out = new Set<number>();
  for (const i of indexes) {
    const shown = u.visibleFrom(u.plan(i), false);
    if (shown > start && shown <= start + days * DAY) out.add(Math.floor((shown - start) / DAY));
  }
  return out;
}

describe('the universe gains lawsuits day by day', () => {
  test('the bench\'s universe: its biggest litigants get new lawsuits most days, individuals now and then', () => {
    const u = new Universe({ seed: 7, lawsuits: 1_000_000 });
    // The public entities found in the most lawsuits (the bench's "companies" include them): thousands each.
    const biggest = u.entities.list.map((e) => ({ e, n: u.planner.lawsuitsOfEntity(e.index).length })).sort((a, b) => b.n - a.n).slice(0, 3)
      .map(({ e }) => ({ e, lawsuits: u.lawsuitsOfDocument(e.document) }));
    // Enough individuals that a month shows a few births: about 1.5 a month come among 300 (seed 7 has none among
    // its first 300 in December 2026), 6 or 7 among 1,000.
    const individuals: number[][] = [];
    for (let p = 0; individuals.length < 1000; p++) {
      const lawsuits = u.lawsuitsOfDocument(u.cast.individuals.document(p * 97));
      if (lawsuits.length > 0) individuals.push(lawsuits);
    }
    for (const start of [Date.parse(NOW), Date.parse('2026-12-01T03:00:00Z')]) {
      for (const { e, lawsuits } of biggest) {
        expect(lawsuits.length, e.name).toBeGreaterThan(5000);
        expect(birthDays(u, lawsuits, start, 30).size, `${e.name} from ${new Date(start).toISOString()}`).toBeGreaterThanOrEqual(18);
      }
      // Individuals with lawsuits: a birth in a month for a few of them, not for most.
      const withBirth = individuals.filter((lawsuits) => birthDays(u, lawsuits, start, 30).size > 0).length;
      expect(withBirth).toBeGreaterThan(0);
      expect(withBirth).toBeLessThan(individuals.length / 10);
    }
  });

  describe('over the API', () => {
    let sb: Sandbox;
    beforeAll(async () => { sb = await sandbox({ dialect: 'documented', lawsuits: 20_000 }); });
    afterAll(async () => sb.close());

    const readNumber = async (code: string) => {
      const post = await call(sb, 'POST', '/requests', { search: { search_type: 'lawsuit_cnj', search_key: code } });
      for (let k = 0; k < 500 && (await call(sb, 'GET', `/requests/${post.body.request_id}`)).body.status !== 'completed'; k++) await new Promise((r) => setTimeout(r, 5));
      return (await responsesOf(sb, post.body.request_id)).map((i) => i.response_data);
    };

    test('POST /_sandbox/clock a day on makes births and movements visible: a number not found becomes whole, a lawsuit gains steps', async () => {
      const changes = (await call(sb, 'GET', '/_sandbox/changes?from_day=0&to_day=1&limit=10000', undefined, null)).body.lawsuits.filter((l: any) => l.secrecy_level < 3);
      const born = changes.filter((l: any) => l.change === 'new');
      const moved = changes.filter((l: any) => l.change === 'steps');
      expect(born.length).toBeGreaterThan(0);
      expect(moved.length).toBeGreaterThan(20);
      const baby = born.find((l: any) => sb.universe.lawsuitsOfCnj(l.code).length === 1) ?? born[0];
      const mover = moved[0];
      const babyBefore = await readNumber(baby.code);
      expect(babyBefore.some((l) => l.instance === baby.instance && l.steps)).toBe(false);
      const moverBefore = (await readNumber(mover.code)).find((l) => l.instance === mover.instance);
      expect(moverBefore.last_step.steps_count).toBe(mover.steps_before);

      expect((await call(sb, 'POST', '/_sandbox/clock', { advance_days: 1 }, null)).body.day).toBe(1);
      const babyAfter = (await readNumber(baby.code)).find((l) => l.instance === baby.instance);
      expect(babyAfter.steps.length).toBe(babyAfter.last_step.steps_count);
      const moverAfter = (await readNumber(mover.code)).find((l) => l.instance === mover.instance);
      expect(moverAfter.last_step.steps_count).toBe(mover.steps);
      expect(moverAfter.last_step.steps_count).toBeGreaterThan(moverBefore.last_step.steps_count);
      expect(moverAfter.last_step.step_id).not.toBe(moverBefore.last_step.step_id);

      // A search by one of the newborn's parties now finds it, as a header.
      const party = baby.documents.find((d: any) => d.document_type === 'CPF' || d.document_type === 'CNPJ');
      const truth = await call(sb, 'POST', '/_sandbox/truth', { documents: [{ search_type: party.document_type.toLowerCase(), search_key: party.document }] }, null);
      expect(truth.body.documents[0].lawsuits).toContainEqual({ code: baby.code, instance: baby.instance });
      const yesterday = await call(sb, 'POST', '/_sandbox/truth?day=0', { documents: [{ search_type: party.document_type.toLowerCase(), search_key: party.document }] }, null);
      expect(yesterday.body.documents[0].lawsuits).not.toContainEqual({ code: baby.code, instance: baby.instance });
    });
  });
});
