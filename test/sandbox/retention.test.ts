// Bounded memory: a finished request and its responses are forgotten once the retention window has passed
// (wall clock), after which the request is the spec's not-found; requests still running are kept.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';

// Retention is wall-clock time: Date alone is faked (sockets and timers stay real), and moved on instead of waited.
const wallClockPasses = (ms: number) => { vi.advanceTimersByTime(ms); };
const stats = async (sb: Sandbox) => (await call(sb, 'GET', '/_sandbox/stats', undefined, null)).body;
/** Waits for a request under the frozen Date: its items appear a millisecond apart, so the clock is moved on by one at a time. */
async function waitFinished(sb: Sandbox, id: string): Promise<void> {
  for (let k = 0; k < 5000; k++) {
    if ((await call(sb, 'GET', `/requests/${id}`)).body.status === 'completed') return;
    wallClockPasses(1);
  }
  throw new Error(`request ${id} never finished`);
}

describe('retention', () => {
  let sb: Sandbox | undefined;
  beforeEach(() => { vi.useFakeTimers({ toFake: ['Date'] }); });
  afterEach(async () => { vi.useRealTimers(); await sb?.close(); sb = undefined; });

  test('a request past retention answers 404 NotFound, its responses too, and the listing forgets it', async () => {
    sb = await sandbox({ retentionMs: 400 });
    const [d] = sb.sampleDocuments(10).filter((x) => x.search_type === 'cnpj' || x.search_type === 'cpf');
    const post = await call(sb, 'POST', '/requests', { search: { search_type: d.search_type, search_key: d.search_key } });
    const id = post.body.request_id;
    await waitFinished(sb, id);
    expect((await call(sb, 'GET', `/responses?request_id=${id}`)).status).toBe(200);
    expect((await stats(sb)).requests_held).toBe(1);
    wallClockPasses(1300);
    const gone = await call(sb, 'GET', `/requests/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { name: 'NotFound', message: 'request not found', data: [] } });
    expect((await call(sb, 'GET', `/responses?request_id=${id}`)).status).toBe(404);
    expect((await call(sb, 'GET', '/requests')).body.meta.all_count).toBe(0);
    expect((await call(sb, 'GET', '/responses')).body.all_count).toBe(0);
    expect((await stats(sb)).requests_held).toBe(0);
  });

  test('retention counts from the end of a request: one still running is kept', async () => {
    sb = await sandbox({ retentionMs: 300, faults: 'pending_long=1:5000' });
    const post = await call(sb, 'POST', '/requests', { search: { search_type: 'name', search_key: 'Ana Silva Santos' } });
    wallClockPasses(1200);
    expect((await call(sb, 'GET', `/requests/${post.body.request_id}`)).body.status).toBe('pending');
  });

  test('the default retention outlasts a night, and is reported with the boot id', async () => {
    sb = await startSandbox({ lawsuits: 500, bootId: 'night' });
    expect(await stats(sb)).toMatchObject({ boot_id: 'night', retention_ms: 12 * 3_600_000, requests_held: 0 });
  });

  test('many finished requests do not pile up: memory holds only those within the window', async () => {
    sb = await sandbox({ retentionMs: 0 });
    const docs = sb.sampleDocuments(40).filter((x) => x.search_type !== 'name');
    for (const d of docs) await call(sb, 'POST', '/requests', { search: { search_type: d.search_type, search_key: d.search_key } });
    wallClockPasses(1100);
    await call(sb, 'GET', '/requests');
    expect((await stats(sb)).requests_held).toBe(0);
  });
});
