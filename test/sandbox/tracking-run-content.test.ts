// What a run sends. Two levels (the documented dialect): a document's tracking sends every lawsuit its search finds
// on its first run, then only the lawsuits born to its search since its previous run, as headers; a lawsuit's
// tracking (lawsuit_cnj) sends its lawsuit whole on its first run and whenever it moved. One level (the spec
// dialect): by default the lawsuits that changed since the tracking's previous run (new to its search, or with new
// steps as the database shows them). Every lawsuit the search finds when switched (`trackingRuns: 'every'`, POST
// /_sandbox/tracking-runs). Checked against a brute force over the universe's lawsuit objects and the sandbox's
// truth, day after day, for documents and numbers whose lawsuits change in the window and for others.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';
import {
  changedDocuments, DAY, expectedBorn, expectedChanged, HOUR, lawsuitKeys, movedNumbers, responsesOf, runsInside, runsOf, track, truthKeys,
  type Search,
} from './tracking-helpers.js';

const DAYS = 12;

type Run = { at: number; keys: string[]; items: any[] };

describe('what a run sends', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  /** Tracks the searches (daily), moves the clock DAYS days on, and gives every run's lawsuits with its instant. */
  async function runAll(s: Sandbox, searches: Search[]): Promise<Array<{ search: Search; runs: Run[] }>> {
    const ids = [];
    for (const d of searches) ids.push((await track(s, d, 1)).tracking_id);
    // Two hours past the last run: its request has left the queue and answered.
    s.advanceDays(DAYS + 2 / 24);
    const out = [];
    for (const [k, id] of ids.entries()) {
      const runs = [];
      for (const r of await runsInside(s, id)) {
        const items = await responsesOf(s, r.request_id);
        runs.push({ at: Date.parse(r.created_at), keys: lawsuitKeys(items), items });
      }
      out.push({ search: searches[k], runs });
    }
    return out;
  }

  const quietDocuments = (s: Sandbox): Search[] => s.sampleDocuments(20).filter((d) => d.search_type === 'cpf').slice(0, 4)
    .map((d) => ({ search_type: d.search_type, search_key: d.search_key }));

  test('two levels: a document\'s tracking sends every lawsuit first, then only those born to its search, as headers', async () => {
    sb = await sandbox({ dialect: 'documented', lawsuits: 12_000 });
    // Parties of a few lawsuits: a big litigant's brute force would cost seconds a run, to the same end.
    const few = (docs: Search[]) => docs.filter((d) => sb!.truth(d).length <= 40);
    const born = few(await changedDocuments(sb, 0, DAYS, 16, 'new')).slice(0, 8);
    const moved = few(await changedDocuments(sb, 0, DAYS, 12, 'steps')).slice(0, 6);
    expect(born.length).toBeGreaterThanOrEqual(6);
    let births = 0;
    let movedUnsent = 0;
    for (const { search, runs } of await runAll(sb, [...born, ...moved, ...quietDocuments(sb)])) {
      expect(runs).toHaveLength(DAYS + 1);
      expect(runs[0].keys).toEqual(truthKeys(sb, search, runs[0].at));
      for (let k = 1; k < runs.length; k++) {
        expect(runs[k].keys, `${search.search_key}, run ${k}`).toEqual(expectedBorn(sb, search, runs[k - 1].at, runs[k].at));
        births += runs[k].keys.length;
        movedUnsent += expectedChanged(sb, search, runs[k - 1].at, runs[k].at).length - runs[k].keys.length;
      }
      for (const { items } of runs) {
        for (const { response_data: h } of items) {
          expect(h).not.toHaveProperty('steps');
          expect(h.phase ?? null).toBeNull();
          expect(h.last_step).toBeDefined();
        }
      }
    }
    expect(births).toBeGreaterThanOrEqual(6);
    // Known lawsuits moved in the window, and their documents' runs did not send them again.
    expect(movedUnsent).toBeGreaterThanOrEqual(6);
  }, 120_000);

  test('two levels: a lawsuit\'s tracking sends its lawsuit whole on its first run and exactly on the runs where it moved', async () => {
    sb = await sandbox({ dialect: 'documented' });
    const moving = await movedNumbers(sb, 0, DAYS, 8);
    expect(moving.length).toBe(8);
    const quiet = sb.sampleDocuments(40).filter((d) => d.search_type === 'lawsuit_cnj').slice(0, 3).map((d) => ({ search_type: d.search_type, search_key: d.search_key }));
    let moves = 0;
    let still = 0;
    for (const { search, runs } of await runAll(sb, [...moving, ...quiet])) {
      expect(runs[0].keys).toEqual(truthKeys(sb, search, runs[0].at));
      for (let k = 1; k < runs.length; k++) {
        expect(runs[k].keys, `${search.search_key}, run ${k}`).toEqual(expectedChanged(sb, search, runs[k - 1].at, runs[k].at));
        if (runs[k].keys.length > 0) moves++; else still++;
      }
      // Each lawsuit sent is the whole lawsuit a read by number made at the run's instant answers.
      for (const run of runs.filter((r) => r.items.length > 0)) {
        const truth = await call(sb, 'POST', `/_sandbox/truth?at=${new Date(run.at).toISOString()}`, { cnj: [search.search_key] }, null);
        const whole = new Map(truth.body.lawsuits.map((l: any) => [`${l.code}#${l.instance}`, l]));
        for (const { response_data: l } of run.items) {
          expect(l.steps.length).toBe(l.last_step.steps_count);
          expect(l).toEqual(whole.get(`${l.code}#${l.instance}`));
        }
      }
    }
    expect(moves).toBeGreaterThanOrEqual(8);
    expect(still).toBeGreaterThan(moves);
  }, 120_000);

  test('one level: the first run sends every lawsuit and each later one what changed since the one before', async () => {
    sb = await sandbox({ dialect: 'spec' });
    const changing = await changedDocuments(sb, 0, DAYS, 12);
    expect(changing.length).toBeGreaterThanOrEqual(8);
    const results = await runAll(sb, [...changing, ...quietDocuments(sb)]);
    let changedRuns = 0;
    let emptyRuns = 0;
    for (const { search, runs } of results) {
      expect(runs).toHaveLength(DAYS + 1);
      expect(runs[0].keys).toEqual(truthKeys(sb, search, runs[0].at));
      for (let k = 1; k < runs.length; k++) {
        expect(runs[k].keys, `${search.search_key}, run ${k}`).toEqual(expectedChanged(sb, search, runs[k - 1].at, runs[k].at));
        if (runs[k].keys.length > 0) changedRuns++; else emptyRuns++;
      }
    }
    // The window holds both: runs that found changes, and runs (most) that found none.
    expect(changedRuns).toBeGreaterThanOrEqual(8);
    expect(emptyRuns).toBeGreaterThan(changedRuns);
  }, 60_000);

  test('switched to every lawsuit, each run sends the whole truth at its instant (headers for a document in two levels)', async () => {
    sb = await sandbox({ dialect: 'documented', trackingRuns: 'every' });
    expect((await call(sb, 'GET', '/_sandbox/tracking-runs', undefined, null)).body).toEqual({ content: 'every' });
    const docs = (await changedDocuments(sb, 0, DAYS, 4));
    for (const { search, runs } of await runAll(sb, docs)) {
      for (const run of runs) {
        expect(run.keys).toEqual(truthKeys(sb, search, run.at));
        for (const { response_data: h } of run.items) expect(h).not.toHaveProperty('steps');
      }
    }
  }, 60_000);

  test('the switch takes effect for the runs made after it, through /_sandbox/ at run time', async () => {
    sb = await sandbox({ dialect: 'documented' });
    const [search] = await changedDocuments(sb, 0, 3, 1);
    const { tracking_id: id, created_at } = await track(sb, search, 1);
    const createdMs = Date.parse(created_at);
    sb.setNow(new Date(createdMs + DAY + 2 * HOUR));
    expect((await call(sb, 'POST', '/_sandbox/tracking-runs', { content: 'every' }, null)).body).toEqual({ content: 'every' });
    sb.setNow(new Date(createdMs + 3 * DAY + 2 * HOUR));
    const runs = await runsOf(sb, id);
    expect(runs).toHaveLength(4);
    const keys = await Promise.all(runs.map(async (r) => lawsuitKeys(await responsesOf(sb!, r.request_id))));
    const ats = runs.map((r) => Date.parse(r.created_at));
    // The second run was made before the switch: births only. The third and fourth after it: everything.
    expect(keys[1]).toEqual(expectedBorn(sb, search, ats[0], ats[1]));
    expect(keys[2]).toEqual(truthKeys(sb, search, ats[2]));
    expect(keys[2].length).toBeGreaterThan(keys[1].length);
    expect(keys[3]).toEqual(truthKeys(sb, search, ats[3]));
    expect((await call(sb, 'POST', '/_sandbox/tracking-runs', { content: 'some' }, null)).status).toBe(400);
  });
});
