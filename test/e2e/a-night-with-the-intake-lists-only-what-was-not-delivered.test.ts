// A night whose requests carry the callback URL, with the intake taking the sandbox's deliveries, against the same
// night polled: it lists at most a tenth of the responses pages and ends with the same warehouse. Deliveries the
// sandbox gives up on (past its last retry) are found by listing; deliveries sent twice, and a lawsuit delivered
// cached then fresh, leave one row each.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openIntake, type RunningIntake } from '../../src/intake/serve.js';
import { listSegments, readLines } from '../../src/intake/spool-files.js';
import { responseIdOf } from '../../src/intake/spool-format.js';
import { parseDocuments } from '../../src/input/documents.js';
import { searchFor } from '../../src/input/search-body.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { Config } from '../../src/shared/config.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';

const SECRET = 'e2e0123456789abcdef0123456789abcdef';
/**
 * Both pinned, so that neither night spends a call learning the dialect: the calls compared are the night's own.
 * Pages of 10 let a list of some 250 lawsuits take a polled night over 20 pages, so that the night with the intake
 * may spend a second counting call (its first asked while deliveries were still arriving, on a loaded machine).
 */
const PINNED = { LAWSUIT_PAGE_SIZE: '10', LAWSUIT_SWEEP_PARAMS: 'order_by=orderField:created_at,order=orderDirection:asc', LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' };
/** Each table's rows as text: what a lawsuit's flattening gives, not when or by which request it was loaded. */
const ROWS: Record<string, string> = {
  lawsuits: `code || '#' || instance || '#' || coalesce(status, '') || '#' || coalesce(phase, '') || '#' || coalesce(amount::VARCHAR, '') || '#' || coalesce(name, '')`,
  parties: `code || '#' || instance || '#' || party_index || '#' || coalesce(name, '') || '#' || coalesce(side, '')`,
  steps: `code || '#' || instance || '#' || step_id || '#' || coalesce(step_date::VARCHAR, '') || '#' || coalesce(content, '')`,
  subjects: `code || '#' || instance || '#' || item_code`,
};

/** The example list keeps at most this many lawsuits: its largest litigants are left out, down to it. */
const LAWSUITS = 260;

/**
 * The example list without its lines bad on purpose, and without its largest litigants, the largest first, until
 * what is left finds at most LAWSUITS lawsuits (the sandbox's ground truth counts them).
 */
function smallerList(text: string): string {
  const lines = text.trim().split('\n');
  const found = parseDocuments(text).documents.map((d) => ({ line: d.line, lawsuits: sb.truth(searchFor(d)).map((l) => `${l.code}#${l.instance}`) }));
  found.sort((a, b) => b.lawsuits.length - a.lawsuits.length);
  let dropped = 0;
  while (new Set(found.slice(dropped).flatMap((f) => f.lawsuits)).size > LAWSUITS) dropped++;
  expect(dropped).toBeLessThan(found.length / 4);
  const left = new Set(found.slice(0, dropped).map((f) => f.line));
  return `${lines.filter((l, k) => !left.has(k + 1) && !l.includes('on purpose')).join('\n')}\n`;
}

let sb: Sandbox;
let list: string;
const dirs: Array<{ dir: string; cleanup(): void }> = [];

beforeAll(async () => {
  sb = await startSandbox({ seed: 1, lawsuits: 20_000, rateLimit: 1_000_000, courtDelayMs: 0, callbackRetryMs: 20, callbackAttempts: 3 });
  const s = scratch();
  dirs.push(s);
  list = join(s.dir, 'documents.csv');
  writeFileSync(list, smallerList(readFileSync('config/documents.example.csv', 'utf8')));
});
afterAll(async () => {
  await sb.close();
  for (const d of dirs) d.cleanup();
});

async function contents(path: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, value] of Object.entries(ROWS)) out[table] = (await query<{ v: string }>(path, `SELECT ${value} AS v FROM ${table} ORDER BY 1`)).map((r) => r.v);
  return out;
}

function setUp(env: Record<string, string> = {}): { cfg: Config; dir: string } {
  const s = scratch();
  dirs.push(s);
  return { dir: s.dir, cfg: configFor(sb.url, s.dir, { ...PINNED, LAWSUIT_DOCUMENTS: list, ...env }) };
}

/** A night polled, into a warehouse of its own: its GET /responses calls, its warehouse. */
async function polledNight(env: Record<string, string> = {}): Promise<{ listing: number; warehouse: string }> {
  const { cfg } = setUp(env);
  sb.resetCounters();
  const s = await nightly(cfg);
  expect(s.exitCode).toBe(0);
  return { listing: listingCalls(), warehouse: cfg.warehouse };
}

/** A night with the intake on: the sandbox pushes to it while the night runs. */
async function intakeNight(env: Record<string, string> = {}): Promise<{ listing: number; warehouse: string; cfg: Config; intake: RunningIntake; summary: Awaited<ReturnType<typeof nightly>> }> {
  const { cfg: base } = setUp({ LAWSUIT_CALLBACK_SECRET: SECRET, LAWSUIT_CALLBACK_WAIT_SECONDS: '2', ...env });
  const intake = await openIntake({ ...base.callback, port: 0 }, pino({ level: 'silent' }));
  const cfg = { ...base, callback: { ...base.callback, url: intake.url } };
  sb.resetCounters();
  const summary = await nightly(cfg);
  expect(summary.exitCode).toBe(0);
  return { listing: listingCalls(), warehouse: cfg.warehouse, cfg, intake, summary };
}

const listingCalls = (): number => Object.values(sb.counters().by_endpoint['GET /responses'] ?? {}).reduce((a, b) => a + b, 0);

async function spooledIds(dir: string): Promise<string[]> {
  const ids: string[] = [];
  for (const s of await listSegments(dir)) for await (const l of readLines(s.path)) ids.push(responseIdOf(l.text)!);
  return ids;
}

let reference: { listing: number; warehouse: string };
let headerNight: Promise<{ listing: number; warehouse: string }> | undefined;
/** The polled night of headers only (LAWSUIT_DETAIL=header), made once: what a night without the lawsuit level ends with. */
const headers = (): Promise<{ listing: number; warehouse: string }> => (headerNight ??= polledNight({ LAWSUIT_DETAIL: 'header' }));

describe('a night with the intake', () => {
  test('lists at most a tenth of the responses pages a polled night lists, and ends with the same warehouse', async () => {
    reference = await polledNight();
    const before = sb.callbacks().deliveries;
    const pushed = await intakeNight();
    await pushed.intake.stop();
    expect(reference.listing).toBeGreaterThanOrEqual(20);
    expect(pushed.listing).toBeLessThanOrEqual(reference.listing / 10);
    expect(countOf(pushed.summary, 'search', 'delivered')).toBe(countOf(pushed.summary, 'search', 'completed'));
    expect(await contents(pushed.warehouse)).toEqual(await contents(reference.warehouse));
    const [a] = await query<{ n: bigint; loaded: bigint }>(reference.warehouse, 'SELECT count(*) AS n, count(loaded_at) AS loaded FROM requests');
    const [b] = await query<{ n: bigint; loaded: bigint; raw: bigint }>(pushed.warehouse, 'SELECT count(*) AS n, count(loaded_at) AS loaded, (SELECT count(*) FROM responses_raw) AS raw FROM requests');
    expect([b.n, b.loaded]).toEqual([a.n, a.loaded]);
    // every response the sandbox pushed for tonight's requests is loaded, as received (searches of the list that
    // name cache_ttl_in_days answer the reference night's lawsuits cached, then fresh: more responses than it had)
    expect(Number(b.raw)).toBe(sb.callbacks().deliveries - before);
  });

  test('finds by listing the deliveries dropped past the last retry', async () => {
    sb.setFaults('callback_drop=0.05');
    const before = sb.callbacks().droppedIds.length;
    // headers only (LAWSUIT_DETAIL=header): the documents' wave alone, each dropped delivery's request listed
    const pushed = await intakeNight({ LAWSUIT_DETAIL: 'header' });
    await pushed.intake.stop();
    sb.setFaults('');
    const dropped = sb.callbacks().droppedIds.slice(before);
    expect(dropped.length).toBeGreaterThan(0);
    const spooled = new Set(await spooledIds(pushed.cfg.callback.spool));
    expect(dropped.filter((id) => spooled.has(id))).toEqual([]);
    const raw = new Set((await query<{ id: string }>(pushed.warehouse, 'SELECT response_id AS id FROM responses_raw')).map((r) => r.id));
    expect(dropped.filter((id) => !raw.has(id))).toEqual([]);
    expect(countOf(pushed.summary, 'search', 'listed_after_delivery')).toBeGreaterThan(0);
    expect(await contents(pushed.warehouse)).toEqual(await contents((await headers()).warehouse));
  });

  test('keeps one row of a response delivered twice, and of a lawsuit delivered cached then fresh', async () => {
    const cached = setUp();
    const cachedList = join(cached.dir, 'cached.csv');
    const lines = readFileSync(list, 'utf8').trim().split('\n');
    // every search may answer from the reference night's (cache_ttl_in_days, the list's fifth column)
    writeFileSync(cachedList, `${[lines[0], ...lines.slice(1).map((l) => l.split(',').map((v, i) => (i === 4 ? '5' : v)).join(','))].join('\n')}\n`);
    sb.setFaults('callback_twice=1');
    const pushed = await intakeNight({ LAWSUIT_DOCUMENTS: cachedList, LAWSUIT_DETAIL: 'header' });
    await pushed.intake.stop();
    sb.setFaults('');
    const ids = await spooledIds(pushed.cfg.callback.spool);
    expect(ids.length).toBe(new Set(ids).size);
    const [r] = await query<{ raw: bigint; ids: bigint; cached: bigint }>(pushed.warehouse, `SELECT count(*) AS raw, count(DISTINCT response_id) AS ids,
      count(*) FILTER (WHERE item->'tags'->>'cached_response' = 'true') AS cached FROM responses_raw`);
    expect(r.raw).toBe(r.ids);
    expect(Number(r.cached)).toBeGreaterThan(0);
    expect(Number(r.raw)).toBe(ids.length);
    expect(await contents(pushed.warehouse)).toEqual(await contents((await headers()).warehouse));
  });
});
