// What a run sends: by default the lawsuits that changed since the tracking's previous run (new to its search, or
// with new steps as the database shows them), every lawsuit the search finds when switched (`trackingRuns:
// 'every'`, POST /_sandbox/tracking-runs); the first run sends every lawsuit either way. Checked against a brute
// force over the universe's lawsuit objects and the sandbox's truth, day after day, for documents whose lawsuits
// change in the window and for others.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';
import { changedDocuments, DAY, expectedChanged, HOUR, lawsuitKeys, responsesOf, runsOf, track, truthKeys, type Search } from './tracking-helpers.js';

const DAYS = 12;

describe('what a run sends', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  /** Tracks the documents (daily), moves the clock DAYS days on, and gives every run's lawsuits with its instant. */
  async function runAll(s: Sandbox, docs: Search[]): Promise<Array<{ search: Search; runs: Array<{ at: number; keys: string[] }> }>> {
    const ids = [];
    for (const d of docs) ids.push((await track(s, d, 1)).tracking_id);
    // Two hours past the last run: its request has left the queue and answered.
    s.advanceDays(DAYS + 2 / 24);
    const out = [];
    for (const [k, id] of ids.entries()) {
      const runs = [];
      for (const r of await runsOf(s, id)) runs.push({ at: Date.parse(r.created_at), keys: lawsuitKeys(await responsesOf(s, r.request_id)) });
      out.push({ search: docs[k], runs });
    }
    return out;
  }

  test('by default, the first run sends every lawsuit and each later one what changed since the one before', async () => {
    sb = await sandbox({ dialect: 'documented' });
    const changing = await changedDocuments(sb, 0, DAYS, 12);
    expect(changing.length).toBeGreaterThanOrEqual(8);
    const quiet = sb.sampleDocuments(20).filter((d) => d.search_type === 'cpf').slice(0, 4).map((d) => ({ search_type: d.search_type, search_key: d.search_key }));
    const results = await runAll(sb, [...changing, ...quiet]);
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

  test('switched to every lawsuit, each run sends the whole truth at its instant', async () => {
    sb = await sandbox({ dialect: 'documented', trackingRuns: 'every' });
    expect((await call(sb, 'GET', '/_sandbox/tracking-runs', undefined, null)).body).toEqual({ content: 'every' });
    const docs = (await changedDocuments(sb, 0, DAYS, 4));
    for (const { search, runs } of await runAll(sb, docs)) {
      for (const run of runs) expect(run.keys).toEqual(truthKeys(sb, search, run.at));
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
    // The second run was made before the switch: changes only. The third and fourth after it: everything.
    expect(keys[1]).toEqual(expectedChanged(sb, search, ats[0], ats[1]));
    expect(keys[2]).toEqual(truthKeys(sb, search, ats[2]));
    expect(keys[3]).toEqual(truthKeys(sb, search, ats[3]));
    expect((await call(sb, 'POST', '/_sandbox/tracking-runs', { content: 'some' }, null)).status).toBe(400);
  });
});
