import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import type { ApiError } from '../../src/api/errors.js';
import { KEY, closedAfterEach } from './stub.js';
import { startTrickleServer, type Trickler } from '../support/trickle.js';

// Nothing waits on the network without a deadline. An answer whose headers come at once and whose body then
// trickles a byte every 20 s (undici's bodyTimeout, a gap between chunks, never fires) is cut off at the whole
// body's deadline and fails as a time-out, retried as any; retrying stops with the stage's wait budget, after
// which nothing more is sent; SIGTERM cuts a call off at once. A download has the same. Deadlines here are
// a fraction of a second: the tests wait on the calls' own ends, never on a fixed sleep.

const urlsOf = (url: string) => ({ requests: url, tracking: url, lawsuits: url, transfer: url });
const caught = (p: Promise<unknown>): Promise<ApiError> => p.then(() => { throw new Error('the call should have failed'); }, (e: ApiError) => e);

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'api-deadline-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const keep = closedAfterEach();

async function trickler(): Promise<Trickler> {
  return keep(await startTrickleServer());
}

/** A server that takes calls and never answers them, not even with headers. */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(() => undefined);
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return keep({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => { for (const x of sockets) x.destroy(); server.close(() => r()); }),
  });
}

describe('a deadline on every call', () => {
  it('a trickled body is cut off at its whole-body deadline, each attempt, and fails as a time-out after the retries', async () => {
    const t = await trickler();
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(t.url), deadlines: { bodyMs: 200 }, retries: 2, baseDelayMs: 5, maxDelayMs: 10 }));
    const t0 = Date.now();
    const e = await caught(api.responses.list({ request_id: 'r1', page: 1, page_size: 100 }));
    const ms = Date.now() - t0;
    expect(e.code).toBe('API_TIMEOUT');
    expect(e.message).toMatch(/body deadline of 0.2 s/);
    expect(e.attempts).toBe(3);
    expect(t.trickled()).toBe(3);
    expect(ms).toBeGreaterThanOrEqual(3 * 200);
    expect(ms).toBeLessThan(3 * 200 + 2_000);
    const stats = api.stats();
    expect(stats.retries).toBe(2);
    // headers came, the answer never did: the upstream was not reached
    expect(stats.answered).toBe(0);
  }, 15_000);

  it('an answer whose headers never come fails at the headers deadline', async () => {
    const s = await silentServer();
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(s.url), deadlines: { headersMs: 300 }, retries: 0 }));
    const e = await caught(api.requests.get('r1'));
    expect(e.code).toBe('API_TIMEOUT');
    expect(e.message).toMatch(/headers deadline of 0.3 s/);
    // the call was sent: a creation cut off here may have been made, and is looked up before it is sent again
    expect(e.notProcessed).toBe(false);
  }, 15_000);

  it('past the stage\'s wait budget nothing is retried, the first failure ends sending, and a new budget sends again', async () => {
    const t = await trickler();
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(t.url), deadlines: { bodyMs: 200 }, retries: 50, baseDelayMs: 5, maxDelayMs: 10 }));
    const t0 = Date.now();
    api.budgetUntil(t0 + 700);
    const e = await caught(api.responses.list({ request_id: 'r1', page: 1, page_size: 100 }));
    const ms = Date.now() - t0;
    expect(e.code).toBe('API_TIMEOUT');
    // within the budget and one deadline, however many retries were allowed
    expect(ms).toBeGreaterThanOrEqual(700);
    expect(ms).toBeLessThan(700 + 200 + 1_000);
    const sent = t.trickled();
    expect(sent).toBeLessThan(8);
    const unsent = await caught(api.requests.get('r2'));
    expect(unsent.code).toBe('API_OUT_OF_TIME');
    expect(unsent.notProcessed).toBe(true);
    expect(t.trickled()).toBe(sent);
    expect(api.spentBudget()?.message).toMatch(/LAWSUIT_MAX_WAIT_MINUTES/);

    api.budgetUntil(undefined);
    const next = t.whenTrickled(sent + 1);
    const again = caught(api.requests.get('r3'));
    await next;
    await api.close();
    expect((await again).code).toBe('API_CLOSED');
  }, 15_000);

  it('SIGTERM cuts a call in flight off at once (API_CLOSED), whatever its deadline', async () => {
    const t = await trickler();
    const stop = new AbortController();
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(t.url), deadlines: { bodyMs: 600_000 }, signal: stop.signal }));
    const call = caught(api.responses.list({ request_id: 'r1', page: 1, page_size: 100 }));
    await t.whenTrickled(1);
    const t0 = Date.now();
    stop.abort();
    const e = await call;
    expect(e.code).toBe('API_CLOSED');
    expect(e.message).toMatch(/cut off/);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(t.trickled()).toBe(1);
  }, 15_000);

  it('a trickled download is cut off at the download deadline and leaves no partial file; SIGTERM cuts one off too', async () => {
    const t = await trickler();
    const stop = new AbortController();
    const api = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(t.url), deadlines: { downloadMs: 250 }, signal: stop.signal, baseDelayMs: 5, maxDelayMs: 10 }));
    const dest = join(dir, 'slow.csv');
    const e = await caught(api.transfer.download(`${t.url}/_files/f1/slow.csv?sig=abc`, dest, { retries: 1 }));
    expect(e.code).toBe('API_TIMEOUT');
    expect(e.message).not.toContain('sig=abc');
    expect(t.trickled()).toBe(2);
    expect(existsSync(dest)).toBe(false);
    expect((await readdir(dir)).filter((f) => f.startsWith('slow'))).toEqual([]);

    const slower = keep(new LawsuitApi({ apiKey: KEY, urls: urlsOf(t.url), deadlines: { downloadMs: 600_000 }, signal: stop.signal }));
    const cut = caught(slower.transfer.download(`${t.url}/_files/f2/slower.csv?sig=abc`, join(dir, 'slower.csv')));
    await t.whenTrickled(3);
    stop.abort();
    expect((await cut).code).toBe('API_CLOSED');
    expect(existsSync(join(dir, 'slower.csv.part'))).toBe(false);
  }, 15_000);
});
