// The sandbox pushes: a request or tracking made with a callback_url has each response POSTed there as it is made,
// in the documented envelope, retried with a doubling wait while not answered 2xx and given up after the last
// attempt; the callback_* fault switches repeat, reorder, drop and delay deliveries.
import { afterEach, describe, expect, test } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/server.js';
import { callbackReceiver, type CallbackReceiver } from '../support/callback-receiver.js';
import { call, sandbox, waitFinished } from './helpers.js';
import { HOUR, responsesOf } from './tracking-helpers.js';

let sb: Sandbox | undefined;
let rx: CallbackReceiver | undefined;
afterEach(async () => {
  await sb?.close();
  await rx?.close();
  sb = undefined;
  rx = undefined;
});

/** A search of the sample documents that finds several lawsuits. */
async function searchWithResponses(s: Sandbox): Promise<{ search_type: string; search_key: string }> {
  for (const d of s.sampleDocuments(20)) {
    if (s.truth({ search_type: d.search_type, search_key: d.search_key }).length >= 3) return { search_type: d.search_type, search_key: d.search_key };
  }
  throw new Error('no sample document finds three lawsuits');
}

async function requestWithCallback(opts: SandboxOptions, answer?: CallbackReceiver['answer']): Promise<{ id: string; listed: any[] }> {
  rx = await callbackReceiver(answer);
  sb = await sandbox({ courtDelayMs: 5, callbackRetryMs: 5, ...opts });
  const post = await call(sb, 'POST', '/requests', { search: await searchWithResponses(sb), callback_url: rx.url });
  expect(post.status).toBe(200);
  await waitFinished(sb, post.body.request_id);
  await sb.callbacksSettled();
  return { id: post.body.request_id, listed: await responsesOf(sb, post.body.request_id) };
}

describe('deliveries to a callback_url', () => {
  test('carry each response once, in the documented envelope, its payload the item the listing shows', async () => {
    const { id, listed } = await requestWithCallback({});
    const bodies = rx!.received.map((r) => r.body);
    expect(bodies.map((b) => b.payload.response_id).sort()).toEqual(listed.map((i) => i.response_id).sort());
    for (const b of bodies) {
      expect(Object.keys(b).sort()).toEqual(['callback_id', 'event_type', 'payload', 'reference_id', 'reference_type', 'user_id']);
      expect(b).toMatchObject({ event_type: 'response_created', reference_type: 'request', reference_id: id, user_id: listed[0].user_id });
      const item = listed.find((i) => i.response_id === b.payload.response_id);
      const { request_status: _a, ...pushed } = b.payload;
      const { request_status: _b, ...shown } = item;
      expect(pushed).toEqual(shown);
    }
    expect(new Set(bodies.map((b) => b.callback_id)).size).toBe(bodies.length);
    expect(sb!.callbacks()).toMatchObject({ deliveries: listed.length, delivered: listed.length, failedAttempts: 0, dropped: 0 });
  });

  test('are tried again while not answered 2xx, and arrive', async () => {
    const { listed } = await requestWithCallback({}, (_body, seen) => (seen < 2 ? 503 : 200));
    expect(rx!.received.map((r) => r.body.payload.response_id).sort()).toEqual(listed.map((i) => i.response_id).sort());
    expect(sb!.callbacks()).toMatchObject({ delivered: listed.length, failedAttempts: 2 * listed.length, attempts: 3 * listed.length, dropped: 0 });
  });

  test('are given up after the last attempt, each named', async () => {
    const { listed } = await requestWithCallback({ callbackAttempts: 3 }, () => 500);
    expect(rx!.received).toEqual([]);
    const stats = sb!.callbacks();
    expect(stats).toMatchObject({ deliveries: listed.length, delivered: 0, attempts: 3 * listed.length, dropped: listed.length });
    expect(stats.droppedIds.sort()).toEqual(listed.map((i) => i.response_id).sort());
  });

  test('a callback_url that is not an http address is refused with the search', async () => {
    sb = await sandbox();
    const r = await call(sb, 'POST', '/requests', { search: { search_type: 'name', search_key: 'Ana Silva Santos' }, callback_url: 'ftp://x/y' });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(/callback_url/);
  });
});

describe('the callback fault switches', () => {
  test('parse with the other switches', () => {
    expect(parseFaults('callback_twice=0.5,callback_disorder=0.2:100,callback_drop=0.1,callback_slow=1:50')).toEqual({
      callbackTwice: 0.5, callbackDisorder: 0.2, callbackDisorderMs: 100, callbackDrop: 0.1, callbackSlow: 1, callbackSlowMs: 50,
    });
  });

  test('callback_twice sends each delivery again once it was answered 2xx', async () => {
    const { listed } = await requestWithCallback({ faults: 'callback_twice=1' });
    const ids = rx!.received.map((r) => r.body.payload.response_id);
    expect(ids).toHaveLength(2 * listed.length);
    expect(new Set(ids).size).toBe(listed.length);
    expect(sb!.callbacks()).toMatchObject({ delivered: listed.length, repeated: listed.length });
  });

  test('callback_drop gives deliveries up without sending them', async () => {
    const { listed } = await requestWithCallback({ faults: 'callback_drop=1' });
    expect(rx!.received).toEqual([]);
    expect(sb!.callbacks()).toMatchObject({ attempts: 0, dropped: listed.length });
  });

  test('callback_disorder lets later deliveries overtake held ones', async () => {
    const { listed } = await requestWithCallback({ faults: 'callback_disorder=0.5:300' });
    const order = listed.map((i) => i.response_id);
    const arrived = rx!.received.map((r) => r.body.payload.response_id);
    expect([...arrived].sort()).toEqual([...order].sort());
    expect(arrived).not.toEqual(order);
  });

  test('callback_slow holds every delivery back', async () => {
    const t0 = Date.now();
    await requestWithCallback({ faults: 'callback_slow=1:300' });
    expect(rx!.received.length).toBeGreaterThan(0);
    expect(Math.min(...rx!.received.map((r) => r.at)) - t0).toBeGreaterThanOrEqual(290);
  });
});

describe('a tracking made with a callback_url', () => {
  test('has its runs\' responses pushed, named by the tracking', async () => {
    rx = await callbackReceiver();
    sb = await sandbox({ courtDelayMs: 5, dialect: 'documented' });
    const search = await searchWithResponses(sb);
    const t = await call(sb, 'POST', '/tracking', { recurrence: 1, search, callback_url: rx.url });
    expect(t.status).toBe(200);
    // the first run comes an hour after creation, and waits half an hour in the queue
    sb.setNow(new Date(sb.state.clock.now() + 2 * HOUR));
    await sb.callbacksSettled();
    const runs = (await call(sb, 'GET', `/requests?origin=tracking&origin_id=${t.body.tracking_id}&page_size=100`)).body.page_data as any[];
    expect(runs).toHaveLength(1);
    const listed = await responsesOf(sb, runs[0].request_id);
    expect(listed.length).toBeGreaterThan(0);
    const bodies = rx.received.map((r) => r.body);
    expect(bodies.map((b) => b.payload.response_id).sort()).toEqual(listed.map((i) => i.response_id).sort());
    for (const b of bodies) expect(b).toMatchObject({ reference_type: 'tracking', reference_id: t.body.tracking_id, payload: { request_id: runs[0].request_id } });
  });
});
