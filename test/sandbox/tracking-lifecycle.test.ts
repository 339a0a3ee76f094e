// Pause, resume and delete, through the API (POST /tracking/<id>/pause, /resume, DELETE /tracking/<id>) and behind
// the client's back (/_sandbox/tracking/<id>/pause...): a paused or deleted tracking makes no run; a resumed one
// runs again on its schedule, its next run sending what changed since its last one; a deleted one is shown
// `deleted` and frees its search for a new tracking; another key's tracking is unknown (404).
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';
import { changedDocuments, DAY, expectedChanged, HOUR, lawsuitKeys, movedNumbers, responsesOf, runsOf, track } from './tracking-helpers.js';

describe('tracking lifecycle', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  test('paused through the API it makes no run; resumed, its next run sends what changed since its last', async () => {
    sb = await sandbox({ dialect: 'documented' });
    // A lawsuit's tracking: in two levels its runs carry its movements (a document's would announce births only).
    const [search] = await movedNumbers(sb, 2, 8, 1);
    const { tracking_id: id, created_at } = await track(sb, search, 1);
    const createdMs = Date.parse(created_at);
    sb.setNow(new Date(createdMs + DAY + 2 * HOUR));
    expect(await runsOf(sb, id)).toHaveLength(2);
    const paused = await call(sb, 'POST', `/tracking/${id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe('paused');
    // Paused when asked: the sandbox clock flows on by the milliseconds the calls take.
    const pausedAfter = Date.parse(paused.body.paused_at) - (createdMs + DAY + 2 * HOUR);
    expect(pausedAfter).toBeGreaterThanOrEqual(0);
    expect(pausedAfter).toBeLessThan(60_000);
    // Pausing again changes nothing.
    expect((await call(sb, 'POST', `/tracking/${id}/pause`)).body.paused_at).toBe(paused.body.paused_at);
    sb.setNow(new Date(createdMs + 8 * DAY + 12 * HOUR));
    expect(await runsOf(sb, id)).toHaveLength(2);
    expect((await call(sb, 'GET', '/tracking?status=paused')).body.page_data.map((t: any) => t.tracking_id)).toEqual([id]);
    const resumed = await call(sb, 'POST', `/tracking/${id}/resume`);
    expect(resumed.body).toMatchObject({ status: 'updated', paused_at: null });
    sb.setNow(new Date(createdMs + 9 * DAY + 2 * HOUR));
    const runs = await runsOf(sb, id);
    // On its schedule again: the run of day 9, none for the days it was paused.
    expect(runs.map((r) => (Date.parse(r.created_at) - createdMs) / DAY)).toEqual([HOUR / DAY, 1, 9]);
    const last = lawsuitKeys(await responsesOf(sb, runs[2].request_id));
    expect(last).toEqual(expectedChanged(sb, search, Date.parse(runs[1].created_at), Date.parse(runs[2].created_at)));
    expect(last.length).toBeGreaterThan(0);
    expect((await call(sb, 'GET', `/tracking/${id}`)).body).toMatchObject({ status: 'updated', request_id: runs[2].request_id });
  });

  test('paused behind the client\'s back through /_sandbox/: the client sees it paused and gets no run', async () => {
    sb = await sandbox({ dialect: 'documented' });
    const [search] = await changedDocuments(sb, 0, 5, 1);
    const { tracking_id: id, created_at } = await track(sb, search, 1);
    const createdMs = Date.parse(created_at);
    sb.setNow(new Date(createdMs + 2 * HOUR));
    const inside = await call(sb, 'POST', `/_sandbox/tracking/${id}/pause`, undefined, null);
    expect(inside.body).toMatchObject({ status: 'paused', runs_made: 1, next_run_at: null, foreign: false });
    sb.setNow(new Date(createdMs + 5 * DAY));
    expect((await call(sb, 'GET', `/tracking/${id}`)).body).toMatchObject({ status: 'paused', request_id: inside.body.request_id });
    expect(await runsOf(sb, id)).toHaveLength(1);
    expect((await call(sb, 'POST', `/_sandbox/tracking/${id}/resume`, undefined, null)).body).toMatchObject({ status: 'updated', next_run_at: new Date(createdMs + 6 * DAY).toISOString() });
    expect((await call(sb, 'POST', '/_sandbox/tracking/nope/pause', undefined, null)).status).toBe(404);
  });

  test('deleted, it makes no run, shows `deleted`, refuses pause and resume, and frees its search', async () => {
    sb = await sandbox({ dialect: 'documented' });
    const [search] = await changedDocuments(sb, 0, 5, 1);
    const { tracking_id: id, created_at } = await track(sb, search, 1);
    const createdMs = Date.parse(created_at);
    const dup = await call(sb, 'POST', '/tracking', { recurrence: 1, search });
    expect(dup.status).toBe(409);
    expect(dup.body.error.data).toEqual([id]);
    sb.setNow(new Date(createdMs + 2 * HOUR));
    const deleted = await call(sb, 'DELETE', `/tracking/${id}`);
    expect(deleted.body.status).toBe('deleted');
    expect((await call(sb, 'DELETE', `/tracking/${id}`)).status).toBe(200);
    for (const act of ['pause', 'resume']) {
      const r = await call(sb, 'POST', `/tracking/${id}/${act}`);
      expect(r.status).toBe(409);
      expect(r.body.error.name).toBe('HttpConflictError');
    }
    sb.setNow(new Date(createdMs + 4 * DAY));
    expect(await runsOf(sb, id)).toHaveLength(1);
    expect((await call(sb, 'GET', `/tracking/${id}`)).body.status).toBe('deleted');
    expect((await call(sb, 'GET', '/tracking?status=deleted')).body.all_count).toBe(1);
    const again = await track(sb, search, 3);
    expect(again.tracking_id).not.toBe(id);
    expect((await call(sb, 'GET', '/tracking')).body.all_count).toBe(2);
  });

  test('another key\'s tracking is unknown; a plan without tracking refuses the new routes', async () => {
    sb = await sandbox({ dialect: 'documented', apiKeys: ['sandbox-key', 'other-key'] });
    const [search] = await changedDocuments(sb, 0, 5, 1);
    const { tracking_id: id } = await track(sb, search, 1);
    for (const [method, path] of [['GET', `/tracking/${id}`], ['POST', `/tracking/${id}/pause`], ['POST', `/tracking/${id}/resume`], ['DELETE', `/tracking/${id}`]]) {
      expect((await call(sb, method, path, undefined, 'other-key')).status).toBe(404);
    }
    // The other key may track the same document: trackings are per key.
    expect((await call(sb, 'POST', '/tracking', { recurrence: 1, search }, 'other-key')).status).toBe(200);
    sb.setForbidden(['tracking']);
    for (const [method, path] of [['GET', `/tracking/${id}`], ['POST', `/tracking/${id}/pause`], ['DELETE', `/tracking/${id}`]]) {
      const r = await call(sb, method, path);
      expect(r.status).toBe(403);
    }
  });
});
