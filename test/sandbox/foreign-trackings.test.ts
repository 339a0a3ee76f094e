// Another client sharing the key owns trackings (POST /_sandbox/foreign/trackings): one account, so they are
// listed by GET /tracking beside ours, their runs are requests of origin `tracking` on the key and their responses
// appear in GET /responses across requests; a client tells its own by the tracking ids it created. A document the
// other client already tracks is a 409 naming its tracking.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';
import { changedDocuments, DAY, HOUR, responsesOf, runsOf, track } from './tracking-helpers.js';

describe('another client\'s trackings on the key', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  test('are listed with ours, and their runs\' responses are among the key\'s, told apart by origin_id', async () => {
    sb = await sandbox({ dialect: 'documented' });
    const [search] = await changedDocuments(sb, 0, 3, 1);
    const ours = await track(sb, search, 1);
    const made = await call(sb, 'POST', '/_sandbox/foreign/trackings', { count: 3, recurrence: 1 }, null);
    expect(made.status).toBe(200);
    const theirs: string[] = made.body.trackings.map((t: any) => t.tracking_id);
    expect(theirs).toHaveLength(3);
    expect(made.body.trackings.every((t: any) => t.foreign === true)).toBe(true);
    const listed = (await call(sb, 'GET', '/tracking')).body.page_data;
    expect(listed.map((t: any) => t.tracking_id).sort()).toEqual([ours.tracking_id, ...theirs].sort());
    expect(new Set(listed.map((t: any) => t.user_id)).size).toBe(1);

    const since = new Date(Date.parse(ours.created_at)).toISOString();
    sb.setNow(new Date(Date.parse(ours.created_at) + 2 * DAY + 2 * HOUR));
    const runs = (await call(sb, 'GET', '/requests?origin=tracking&page_size=1000')).body.page_data;
    expect(new Set(runs.map((r: any) => r.origin_id))).toEqual(new Set([ours.tracking_id, ...theirs]));
    // The key's responses since the trackings were made: ours and theirs, interleaved in one listing.
    const all: any[] = [];
    for (let page = 1; ; page++) {
      const r = (await call(sb, 'GET', `/responses?created_at_gte=${since}&page=${page}&page_size=1000`)).body;
      all.push(...r.page_data);
      if (page >= r.all_pages_count) break;
    }
    expect(all.every((i) => i.origin === 'tracking')).toBe(true);
    const foreign = all.filter((i) => theirs.includes(i.origin_id));
    expect(foreign.length).toBeGreaterThan(0);
    // Keeping the items of our tracking's id gives exactly what our runs answer one by one.
    const mine = all.filter((i) => i.origin_id === ours.tracking_id).map((i) => i.response_id).sort();
    const byRun: string[] = [];
    for (const run of await runsOf(sb, ours.tracking_id)) byRun.push(...(await responsesOf(sb, run.request_id)).map((i) => i.response_id));
    expect(mine).toEqual(byRun.sort());
    expect(mine.length + foreign.length).toBe(all.length);
  });

  test('a document the other client tracks is a 409 naming its tracking; the listing shows it as any other', async () => {
    sb = await sandbox({ dialect: 'documented' });
    const [theirs] = sb.foreignTrackings(1, 7);
    const dup = await call(sb, 'POST', '/tracking', { recurrence: 1, search: JSON.parse(theirs.echoJson) });
    expect(dup.status).toBe(409);
    expect(dup.body.error.data).toEqual([theirs.id]);
    expect((await call(sb, 'GET', `/tracking/${theirs.id}`)).body).toMatchObject({ tracking_id: theirs.id, recurrence: 7, status: 'created' });
    const bad = await call(sb, 'POST', '/_sandbox/foreign/trackings', { count: 0, api_key: 'nobody' }, null);
    expect(bad.status).toBe(400);
    expect(bad.body.error.data).toHaveLength(2);
  });
});
