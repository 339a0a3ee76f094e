// A trackings night whose trackings were made with the callback URL: their runs' responses are pushed to the intake
// as the runs make them (reference_type tracking), and the next night loads them from the spool and reads its range
// without listing a page, ending with the warehouse of the same night read by listing. Two keys on one sandbox, so
// that they share its clock and universe but not their trackings: `kp` lists, `kd` has its runs delivered.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openIntake, type RunningIntake } from '../../src/intake/serve.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { Config } from '../../src/shared/config.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';

const SECRET = 'trk0123456789abcdef0123456789abcdef';
const ROWS: Record<string, string> = {
  lawsuits: `code || '#' || instance || '#' || coalesce(status, '') || '#' || coalesce(phase, '') || '#' || coalesce(amount::VARCHAR, '') || '#' || coalesce(name, '')`,
  steps: `code || '#' || instance || '#' || step_id || '#' || coalesce(step_date::VARCHAR, '') || '#' || coalesce(content, '')`,
};

let sb: Sandbox;
let intake: RunningIntake;
const tmp = scratch();
const cfgs: Record<string, Config> = {};

beforeAll(async () => {
  sb = await startSandbox({ seed: 1, lawsuits: 20_000, rateLimit: 1_000_000, apiKeys: ['kp', 'kd'], callbackRetryMs: 20 });
  const documents = join(tmp.dir, 'documents.csv');
  writeFileSync(documents, readFileSync('config/documents.example.csv', 'utf8').split('\n').slice(0, 21).join('\n'));
  for (const key of ['kp', 'kd']) {
    const dir = join(tmp.dir, key);
    cfgs[key] = configFor(sb.url, dir, {
      LAWSUIT_API_KEY: key, LAWSUIT_SOURCE: 'trackings', LAWSUIT_DOCUMENTS: documents, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true',
      LAWSUIT_PAGE_SIZE: '100', LAWSUIT_SWEEP_PARAMS: 'order_by=orderField:created_at,order=orderDirection:asc', LAWSUIT_CALLBACK_WAIT_SECONDS: '2',
      ...(key === 'kd' ? { LAWSUIT_CALLBACK_SECRET: SECRET } : {}),
    });
  }
  intake = await openIntake({ ...cfgs.kd.callback, port: 0 }, pino({ level: 'silent' }));
  cfgs.kd = { ...cfgs.kd, callback: { ...cfgs.kd.callback, url: intake.url } };
});
afterAll(async () => {
  await intake.stop();
  await sb.close();
  tmp.cleanup();
});

async function contents(path: string, left: ReadonlySet<string>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, value] of Object.entries(ROWS)) {
    const rows = await query<{ k: string; v: string }>(path, `SELECT code || '#' || instance AS k, ${value} AS v FROM ${table} ORDER BY 2`);
    out[table] = rows.filter((r) => !left.has(r.k)).map((r) => r.v);
  }
  return out;
}

/** Lawsuits whose content changed between two instants: runs of the two keys' trackings, made seconds apart, may differ on them. */
async function changedBetween(from: number, to: number): Promise<Set<string>> {
  const q = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(to).toISOString(), limit: '10000' });
  const body = await (await fetch(`${sb.url}/_sandbox/changes?${q}`)).json() as { lawsuits: Array<{ code: string; instance: number }> };
  return new Set(body.lawsuits.map((l) => `${l.code}#${l.instance}`));
}

describe('a trackings night with the intake', () => {
  test('loads its trackings\' runs from their deliveries, lists no page of them, and ends with the listed night\'s warehouse', async () => {
    const firstAt = sb.state.clock.now();
    for (const key of ['kp', 'kd']) expect((await nightly(cfgs[key])).exitCode).toBe(0);
    const trackings = sb.state.trackings.records.listOf('kd');
    expect(trackings.length).toBeGreaterThan(0);
    expect(trackings.every((t) => t.callbackUrl === intake.url)).toBe(true);
    sb.advanceDays(3 + 2 / 24);
    await sb.callbacksSettled();
    const pushed = sb.callbacks();

    const listed = await nightly(cfgs.kp);
    const delivered = await nightly(cfgs.kd);
    expect([listed.exitCode, delivered.exitCode]).toEqual([0, 0]);
    expect(countOf(listed, 'trackings', 'tracking_pages')).toBeGreaterThan(0);
    expect(countOf(delivered, 'trackings', 'tracking_pages')).toBe(0);
    expect(countOf(delivered, 'trackings', 'tracking_runs_delivered')).toBeGreaterThan(0);
    expect(countOf(delivered, 'search', 'submitted')).toBe(0);

    const runs = async (key: string) => (await query<{ runs: bigint; responses: bigint; raw: bigint }>(cfgs[key].warehouse, `SELECT count(*) AS runs,
      sum(responses_loaded) AS responses, (SELECT count(*) FROM responses_raw WHERE request_id IN (SELECT request_id FROM tracking_runs)) AS raw FROM tracking_runs`))[0];
    const [p, d] = [await runs('kp'), await runs('kd')];
    expect(Number(d.runs)).toBe(Number(p.runs));
    expect(Number(d.raw)).toBe(Number(d.responses));
    expect(Number(d.raw)).toBeGreaterThan(0);
    expect(Number(d.raw)).toBeLessThanOrEqual(pushed.delivered);
    // the two keys' nights ran seconds apart, and so do their trackings' runs: what changed in between may differ
    const created = (key: string) => sb.state.trackings.records.listOf(key).map((t) => t.createdMs);
    const [from, to] = [Math.min(...created('kp')), Math.max(...created('kd'))];
    const left = new Set<string>();
    for (const offset of [0, 3_600_000, 86_400_000, 2 * 86_400_000, 3 * 86_400_000]) {
      for (const k of await changedBetween(Math.min(from, firstAt) + offset - 1_000, to + offset + 1_000)) left.add(k);
    }
    const kept = await contents(cfgs.kd.warehouse, left);
    expect(kept.lawsuits.length).toBeGreaterThan(100);
    expect(kept).toEqual(await contents(cfgs.kp.warehouse, left));
  });
});
