// The intake answers a delivery 2xx only once it is in the spool; a wrong secret, a body that is not JSON, an
// envelope of an unknown kind or a body over the limit is answered 4xx and writes nothing; a spool that cannot be
// written is a 5xx; the same response twice is written once.
import { request } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startIntake, type Intake } from '../../src/intake/intake.js';
import { listSegments, readLines } from '../../src/intake/spool-files.js';
import { SpoolWriter } from '../../src/intake/spool-writer.js';
import { delivery } from './deliveries.js';

const SECRET = 'a'.repeat(20) + '0123456789ABCDEF';
const MAX = 4096;
let dir: string;
let spool: SpoolWriter;
let intake: Intake;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intake-'));
  spool = await SpoolWriter.open({ dir: join(dir, 'spool'), fsync: 'batch' });
  intake = await startIntake({ spool, secret: SECRET, maxBytes: MAX, port: 0, host: '127.0.0.1', log: pino({ level: 'silent' }) });
});
afterEach(async () => {
  await intake.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = async (body: string, url = intake.url): Promise<number> => (await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } })).status;

/** Every line of every segment of the spool. */
async function spooled(): Promise<string[]> {
  const lines: string[] = [];
  for (const s of await listSegments(join(dir, 'spool'))) for await (const l of readLines(s.path)) lines.push(l.text);
  return lines;
}

/** A body sent without a Content-Length (chunked), so that only counting its bytes can refuse it. */
function postChunked(url: string, chunks: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => { res.resume(); resolve(res.statusCode!); });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

async function refusedByReason(): Promise<Record<string, number>> {
  const m = await intake.metrics.registry.getSingleMetric('lawsuit_intake_refused_total')!.get();
  return Object.fromEntries(m.values.map((v) => [String(v.labels.reason), v.value]));
}

describe('a bad delivery', () => {
  test('is answered 4xx and writes nothing: wrong secret, not JSON, unknown envelope, too large', async () => {
    const good = delivery('r-1', 'q-1');
    expect(await post(good, intake.url.replace(SECRET, `${SECRET.slice(0, -1)}x`))).toBe(403);
    expect(await post(good, intake.url.replace(SECRET, SECRET.slice(0, 8)))).toBe(403);
    expect(await post(good, intake.url.replace(`/webhook/${SECRET}`, '/webhook/'))).toBe(403);
    expect(await post('{"event_type": "response_created", ')).toBe(400);
    expect(await post('not json at all')).toBe(400);
    expect(await post(delivery('r-2', 'q-1', { event_type: 'request_completed' }))).toBe(422);
    expect(await post(delivery('r-3', 'q-1', { reference_type: 'lawsuit' }))).toBe(422);
    expect(await post(JSON.stringify({ event_type: 'response_created', reference_type: 'request', reference_id: 'q-1', payload: { request_id: 'q-1' } }))).toBe(422);
    expect(await post('[1, 2, 3]')).toBe(422);
    expect(await post(delivery('r-4', 'q-1', { padding: 'x'.repeat(MAX) }))).toBe(413);
    expect(await postChunked(intake.url, [delivery('r-5', 'q-1', { padding: 'x'.repeat(MAX / 2) }).slice(0, MAX / 2 + 100), 'y'.repeat(MAX)])).toBe(413);
    expect((await fetch(intake.url)).status).toBe(405);
    expect(await spooled()).toEqual([]);
    expect(readdirSync(join(dir, 'spool')).filter((f) => f !== 'intake.lock')).toEqual([]);
    expect(await refusedByReason()).toEqual({ secret: 3, not_json: 2, unknown_envelope: 4, too_large: 2, spool: 0 });
  });

  test('a spool that cannot be written is answered 5xx, and /healthz says so', async () => {
    rmSync(join(dir, 'spool'), { recursive: true, force: true });
    expect(await post(delivery('r-1', 'q-1'))).toBe(503);
    const h = await fetch(intake.url.replace(`/webhook/${SECRET}`, '/healthz'));
    expect(h.status).toBe(503);
    expect(((await h.json()) as { status: string }).status).toBe('failing');
    expect((await refusedByReason()).spool).toBe(1);
  });
});

describe('a good delivery', () => {
  test('is in the spool when answered 2xx, and the same response again is answered 2xx and not written again', async () => {
    const body = delivery('r-1', 'q-1');
    expect(await post(body)).toBe(200);
    const lines = await spooled();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ response_id: 'r-1', request_id: 'q-1', reference_type: 'request', envelope: JSON.parse(body) });
    const again = await fetch(intake.url, { method: 'POST', body });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ok: true, duplicate: true });
    await Promise.all([1, 2, 3].map(() => post(delivery('r-2', 'q-1'))));
    expect((await spooled()).map((l) => JSON.parse(l).response_id)).toEqual(['r-1', 'r-2']);
    const h = await (await fetch(intake.url.replace(`/webhook/${SECRET}`, '/healthz'))).json();
    expect(h).toMatchObject({ status: 'ok', spool_deliveries: 2 });
    const metrics = await (await fetch(intake.url.replace(`/webhook/${SECRET}`, '/metrics'))).text();
    expect(metrics).toMatch(/lawsuit_intake_deliveries_total\{reference_type="request",outcome="written"\} 2/);
    expect(metrics).toMatch(/lawsuit_intake_deliveries_total\{reference_type="request",outcome="duplicate"\} 3/);
    expect(metrics).toMatch(/lawsuit_intake_spool_bytes [1-9]/);
    expect(metrics).toMatch(/lawsuit_intake_last_delivery_age_seconds \d/);
  });
});
