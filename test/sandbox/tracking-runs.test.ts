// A tracking runs its search an hour after its creation, then every `recurrence` days of the sandbox clock; each
// run is a request of origin `tracking` and origin_id the tracking's id, listed by GET /requests (the documented
// dialect's origin and origin_id filters), answered through GET /responses like any request, its items appended
// court by court; GET /tracking/<id> carries the latest run's request_id. The spec's dialect shows the same runs
// without those filters. The clock is moved, never slept through.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, KEY, NOW, sandbox } from './helpers.js';
import { DAY, HOUR, lawsuitKeys, responsesOf, runsOf, track, truthKeys, type Search } from './tracking-helpers.js';

const T0 = Date.parse(NOW);
const at = (ms: number) => new Date(T0 + ms);

/** A document whose search finds lawsuits in at least `courts` tribunals at day 0. */
function documentWithLawsuits(sb: Sandbox, courts = 1): Search {
  for (const d of sb.sampleDocuments(200)) {
    if (d.search_type !== 'cpf' && d.search_type !== 'cnpj') continue;
    const search = { search_type: d.search_type, search_key: d.search_key };
    if (new Set(sb.truth(search, { day: 0 }).map((l) => l.code.slice(16, 20))).size >= courts) return search;
  }
  throw new Error(`no document with lawsuits in ${courts} courts`);
}

describe('tracking runs', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  test('the first run an hour after creation, then one every recurrence days, each a request of origin tracking', async () => {
    sb = await sandbox({ dialect: 'documented', trackingRuns: 'every' });
    const search = documentWithLawsuits(sb);
    sb.setNow(at(0));
    const created = await track(sb, search, 2);
    expect(created).toMatchObject({ status: 'created', recurrence: 2, request_id: null, paused_at: null });
    const id = created.tracking_id;
    const createdMs = Date.parse(created.created_at);
    expect(await runsOf(sb, id)).toEqual([]);

    sb.setNow(new Date(createdMs + HOUR - 60_000));
    expect((await call(sb, 'GET', `/tracking/${id}`)).body.status).toBe('created');
    expect(await runsOf(sb, id)).toEqual([]);

    sb.setNow(new Date(createdMs + HOUR + 60_000));
    const [first] = await runsOf(sb, id);
    expect(first).toMatchObject({ origin: 'tracking', origin_id: id, created_at: new Date(createdMs + HOUR).toISOString() });
    expect(first.search).toMatchObject(search);
    // Queued (pending) at first: the tracking is updating, and names the run.
    expect((await call(sb, 'GET', `/tracking/${id}`)).body).toMatchObject({ status: 'updating', request_id: first.request_id });

    sb.setNow(new Date(createdMs + 2 * HOUR));
    expect((await call(sb, 'GET', `/tracking/${id}`)).body).toMatchObject({ status: 'updated', request_id: first.request_id });
    const items = await responsesOf(sb, first.request_id);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item).toMatchObject({ request_id: first.request_id, origin: 'tracking', origin_id: id, request_status: 'completed' });
    expect(lawsuitKeys(items)).toEqual(truthKeys(sb, search, createdMs + HOUR));

    // Every two days at the creation's time of day: runs at 2, 4 and 6 days, none in between.
    sb.setNow(new Date(createdMs + 2 * DAY - 60_000));
    expect(await runsOf(sb, id)).toHaveLength(1);
    sb.setNow(new Date(createdMs + 6 * DAY + 2 * HOUR));
    const runs = await runsOf(sb, id);
    expect(runs.map((r) => Date.parse(r.created_at) - createdMs)).toEqual([HOUR, 2 * DAY, 4 * DAY, 6 * DAY]);
    expect(new Set(runs.map((r) => r.request_id)).size).toBe(4);
    const latest = (await call(sb, 'GET', `/tracking/${id}`)).body;
    expect(latest).toMatchObject({ status: 'updated', request_id: runs[3].request_id });
    // The runs are also among all the key's requests, and not among those of origin api.
    expect((await call(sb, 'GET', '/requests?origin=api&page_size=1000')).body.all_count).toBe(0);
    expect((await call(sb, 'GET', '/requests?page_size=1000')).body.all_count).toBe(4);
    // The lawsuits of a run are derived from the universe at the run's instant, kept as indexes only.
    const held = sb.state.store.get(runs[3].request_id, KEY)!;
    expect(held.fresh.length).toBe((await responsesOf(sb, runs[3].request_id)).length);
    expect(typeof held.fresh[0]).toBe('number');
  });

  test('a run\'s responses are appended court by court after its queue, like any request\'s', async () => {
    const COURT = 60_000;
    sb = await sandbox({ dialect: 'documented', courtDelayMs: COURT });
    const search = documentWithLawsuits(sb, 2);
    sb.setNow(at(0));
    const { tracking_id: id, created_at } = await track(sb, search, 1);
    const runMs = Date.parse(created_at) + HOUR;
    sb.setNow(new Date(runMs + 10 * 60_000));
    const [run] = await runsOf(sb, id);
    expect(run.status).toBe('pending');
    expect((await call(sb, 'GET', `/responses?request_id=${run.request_id}`)).body.all_count).toBe(0);
    const courts = new Set(truthKeys(sb, search, runMs).map((k) => k.slice(16, 20))).size;
    const seen: number[] = [];
    // After the 30-minute queue, one court's items a minute.
    for (let c = 0; c <= courts; c++) {
      sb.setNow(new Date(runMs + 30 * 60_000 + c * COURT + 30_000));
      seen.push((await call(sb, 'GET', `/responses?request_id=${run.request_id}`)).body.all_count);
    }
    expect(seen[0]).toBe(0);
    for (let c = 1; c < seen.length; c++) expect(seen[c]).toBeGreaterThan(seen[c - 1]);
    expect(seen[courts]).toBe(truthKeys(sb, search, runMs).length);
    expect((await call(sb, 'GET', `/requests/${run.request_id}`)).body.status).toBe('completed');
    expect((await call(sb, 'GET', `/tracking/${id}`)).body.status).toBe('updated');
  });

  test('in the spec\'s dialect the runs are found among the requests and responses by their origin fields', async () => {
    sb = await sandbox({ dialect: 'spec', trackingRuns: 'every' });
    const search = documentWithLawsuits(sb);
    sb.setNow(at(0));
    const { tracking_id: id, created_at } = await track(sb, search, 1);
    const createdMs = Date.parse(created_at);
    // An API search of our own beside the tracking.
    const own = (await call(sb, 'POST', '/requests', { search })).body;
    sb.setNow(new Date(createdMs + DAY + 2 * HOUR));
    expect((await call(sb, 'GET', '/requests?origin=tracking')).status).toBe(400);
    const listed = (await call(sb, 'GET', '/requests?page_size=100')).body.page_data;
    const runs = listed.filter((r: any) => r.origin === 'tracking');
    expect(runs.map((r: any) => r.origin_id)).toEqual([id, id]);
    expect(listed.find((r: any) => r.request_id === own.request_id).origin).toBe('api');
    const tracking = (await call(sb, 'GET', `/tracking/${id}`)).body;
    // Newest first in the spec's reading: the latest run is listed first.
    expect(tracking).toMatchObject({ status: 'updated', request_id: runs[0].request_id });
    const items = (await call(sb, 'GET', '/responses?page_size=100')).body.page_data;
    const byOrigin = items.filter((i: any) => i.origin === 'tracking');
    expect(byOrigin.length).toBe(truthKeys(sb, search, createdMs + HOUR).length + truthKeys(sb, search, createdMs + DAY).length);
    expect(new Set(byOrigin.map((i: any) => i.origin_id))).toEqual(new Set([id]));
    expect(items.filter((i: any) => i.origin === 'api').every((i: any) => i.request_id === own.request_id)).toBe(true);
  });

  test('the statuses a client meets: created, updating, then active after the first run in the spec\'s dialect, updated in the documented one', async () => {
    for (const dialect of ['spec', 'documented'] as const) {
      const s = await sandbox({ dialect });
      try {
        const search = documentWithLawsuits(s);
        s.setNow(at(0));
        const { tracking_id: id, created_at } = await track(s, search, 1);
        const createdMs = Date.parse(created_at);
        const statusAt = async (ms: number) => { s.setNow(new Date(createdMs + ms)); return (await call(s, 'GET', `/tracking/${id}`)).body.status; };
        const seen = [await statusAt(0), await statusAt(HOUR + 60_000), await statusAt(2 * HOUR), await statusAt(DAY + 60_000), await statusAt(DAY + 2 * HOUR)];
        expect(seen).toEqual(dialect === 'spec'
          ? ['created', 'updating', 'active', 'updating', 'updated']
          : ['created', 'updating', 'updated', 'updating', 'updated']);
      } finally {
        await s.close();
      }
    }
  });
});
