// The universe day by day. Day 0 (the sandbox's starting instant) is exactly the universe every other test compares
// with: its digest is pinned from the generator as it was before trackings ran. Later days add what the lawsuits'
// lives and the crawler bring (new steps, phases, statuses, now and then a new lawsuit for a document), the same for
// the same seed; the truth and the introspection answer "as of day d"; a shortened day makes the clock run faster.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { SandboxClock } from '../../src/sandbox/clock.js';
import { sampleDocuments } from '../../src/sandbox/samples.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, NOW, runSearch, sandbox } from './helpers.js';
import { DAY, HOUR, lawsuitKeys, responsesOf, runsOf, track } from './tracking-helpers.js';

/**
 * Digests of the helpers' sandbox (seed 7, 2,000 lawsuits) at NOW, computed with the generator of issue 38 (the
 * second reading: numbers by unit and year, the courts' calendar, related lawsuits, roles) and of issue 36 (a whole
 * lawsuit lists its attachments only when its read asks for them); trackings, since issue 23, leave day 0 as the
 * generator makes it.
 */
const DAY0_LAWSUITS = 'b53a6fe48a97f74174ed6e5c79c6cb904d4e9e0469f5940081c9e517995be7a7';
const DAY0_TRUTH = 'f81386d243da638c0a444acbd3e8f79ac6cada18bf6e25529feda637b390746f';

describe('the universe day by day', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; vi.useRealTimers(); });

  test('day 0 is the universe before trackings: every lawsuit and the truth of 20 documents, to the byte', async () => {
    sb = await sandbox();
    sb.advanceDays(30);
    const at = Date.parse(NOW);
    const h = createHash('sha256');
    for (let i = 0; i < sb.universe.count; i++) h.update(JSON.stringify(sb.universe.lawsuit(i, at, { onDemand: false, shape: 'full', privileged: true }) ?? null));
    expect(h.digest('hex'), 'the generator changed what day 0 holds: every test comparing with the truth moves').toBe(DAY0_LAWSUITS);
    const t = createHash('sha256');
    for (const d of sampleDocuments(sb.universe, at, 20)) {
      const truth = sb.truth({ search_type: d.search_type, search_key: d.search_key }, { day: 0 });
      t.update(JSON.stringify([d, truth.map((x) => `${x.code}#${x.instance}`)]));
    }
    expect(t.digest('hex')).toBe(DAY0_TRUTH);
  });

  test('the truth as of day d is what a search finds once the clock reaches day d; /_sandbox/ answers as of a day', async () => {
    sb = await sandbox();
    const docs = sb.sampleDocuments(40).filter((d) => d.search_type === 'cnpj').slice(0, 5).map((d) => ({ search_type: d.search_type, search_key: d.search_key }));
    const asOf20 = docs.map((d) => sb!.truth(d, { day: 20 }));
    const viaRoute = [];
    for (const d of docs) viaRoute.push((await call(sb, 'POST', '/_sandbox/truth?day=20', { search: d }, null)).body.lawsuits);
    expect(viaRoute).toEqual(asOf20);
    expect((await call(sb, 'POST', '/_sandbox/clock', { day: 20 }, null)).body).toMatchObject({ day: 20, started_at: NOW, day_ms: DAY });
    for (const [k, d] of docs.entries()) {
      const found = (await runSearch(sb, d)).items.map((i) => ({ code: i.response_data.code, instance: i.response_data.instance }));
      expect(found).toEqual(asOf20[k]);
    }
    expect((await call(sb, 'POST', '/_sandbox/truth?day=soon', { search: docs[0] }, null)).status).toBe(400);
  });

  test('changes accrue with the days, named by /_sandbox/changes and borne out by the lawsuits\' own payloads', async () => {
    sb = await sandbox();
    const r = (await call(sb, 'GET', '/_sandbox/changes?from_day=0&to_day=30&limit=10000', undefined, null)).body;
    const kinds = new Set(r.lawsuits.map((l: any) => l.change));
    expect(kinds).toEqual(new Set(['new', 'steps']));
    // Over a month, a small share of a universe mostly of finished cases.
    expect(r.lawsuits.length).toBeGreaterThan(20);
    expect(r.lawsuits.length).toBeLessThan(sb.universe.count / 10);
    const from = Date.parse(NOW);
    const to = from + 30 * DAY;
    for (const l of r.lawsuits.slice(0, 40)) {
      const [i] = sb.universe.lawsuitsOfCnj(l.code).filter((x) => sb!.universe.plan(x).instance === l.instance);
      const before = sb.universe.lawsuit(i, from, { onDemand: false }) as any;
      const after = sb.universe.lawsuit(i, to, { onDemand: false }) as any;
      if (l.change === 'new') expect(before).toBeUndefined();
      else {
        expect(after.last_step?.steps_count ?? after.steps?.length).toBeGreaterThan(before.last_step?.steps_count ?? before.steps?.length ?? -1);
        expect(l.steps).toBeGreaterThan(l.steps_before);
      }
    }
    // Phases and statuses move with the steps: some lawsuit changed either within the month.
    expect(r.lawsuits.some((l: any) => {
      const [i] = sb!.universe.lawsuitsOfCnj(l.code).filter((x) => sb!.universe.plan(x).instance === l.instance);
      const before = sb!.universe.lawsuit(i, from, { onDemand: false, shape: 'full' }) as any;
      return before !== undefined && (before.phase !== l.phase || before.status !== l.status);
    })).toBe(true);
  });

  test('the same seed gives the same changes and the same runs; another seed others', async () => {
    const runsFor = async (seed: number) => {
      const s = await sandbox({ seed, dialect: 'documented' });
      try {
        const changes = (await call(s, 'GET', '/_sandbox/changes?from_day=0&to_day=5&limit=10000', undefined, null)).body.lawsuits;
        const docs = changes.flatMap((l: any) => l.documents.filter((d: any) => d.document_type === 'CPF').slice(0, 1)).slice(0, 4);
        const ids = [];
        for (const d of docs) ids.push((await track(s, { search_type: 'cpf', search_key: d.document }, 1)).tracking_id);
        s.advanceDays(5 + 2 / 24);
        const runs = [];
        for (const id of ids) for (const run of await runsOf(s, id)) runs.push([run.request_id, run.created_at, lawsuitKeys(await responsesOf(s, run.request_id))]);
        return { changes, runs };
      } finally {
        await s.close();
      }
    };
    const a = await runsFor(7);
    expect(a.runs.length).toBeGreaterThan(0);
    const b = await runsFor(7);
    // The clock started at the same instant; calls take their own milliseconds, so instants are compared by the minute.
    const byMinute = (x: typeof a) => ({ changes: x.changes, runs: x.runs.map(([id, at, keys]) => [id, String(at).slice(0, 16), keys]) });
    expect(byMinute(b)).toEqual(byMinute(a));
    const c = await runsFor(8);
    expect(c.changes).not.toEqual(a.changes);
  }, 60_000);

  test('a shortened day: the sandbox clock runs that much faster, and days are counted from the start', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const clock = new SandboxClock(NOW, 60_000);
    expect(clock.dayOf(clock.now())).toBe(0);
    vi.setSystemTime(new Date(Date.now() + 30_000));
    expect(clock.now() - Date.parse(NOW)).toBe(12 * HOUR);
    vi.setSystemTime(new Date(Date.now() + 60_000));
    expect(clock.dayOf(clock.now())).toBe(1);
    clock.advanceDays(3);
    expect(clock.dayOf(clock.now())).toBe(4);
    expect(clock.dayStart(4)).toBe(Date.parse(NOW) + 4 * DAY);
    // The default day is a real one: the clock keeps real time.
    const real = new SandboxClock(NOW);
    vi.setSystemTime(new Date(Date.now() + 1234));
    expect(real.now() - Date.parse(NOW)).toBe(1234);
    expect(() => new SandboxClock(NOW, 0)).toThrow(RangeError);
  });
});
