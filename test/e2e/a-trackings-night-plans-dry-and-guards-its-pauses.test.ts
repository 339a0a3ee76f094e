import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDocuments } from '../../src/input/documents.js';
import { query, scratch } from '../support/pipeline.js';
import { apiEnv, counters, runCli, runFiles, sandboxProcess, warehouseFingerprint, type SandboxProcess } from '../support/cli.js';
import { apiOf, boughtBy, smallPortfolio } from '../support/trackings.js';

// `run --source trackings --dry-run` and the pause guard, end to end on a sandbox child (issues 23 and 32). A first
// night tracks 20 documents, reads their lawsuits whole and tracks each lawsuit on its own. Then the list loses 3
// documents and gains 2, and behind our back one lawsuit's tracking is deleted and another's paused: a dry run lists
// the key's trackings (reads only), says what it would create, pause and resume of each kind, what it would search
// and read and what that costs, and that the pause guard would stop the night (3 pauses of 20 documents' trackings,
// more than a tenth); it changes nothing at the provider and writes nothing. The real night on that list stops with
// exit 2 before changing anything; with --allow-pause it carries the plan out, as planned. Then the dropped documents
// are listed again (resumed, not searched) while another hand pauses a kept tracking (resumed, and its document
// searched that night: its runs were missed).

/** The sandbox's first 25 small documents: the first night lists 20 (1..20), the second drops 3 and adds 2. */
let HEADER = '';
let FIRST: string[] = [];
let SECOND: string[] = [];

/** Calls the sandbox counted that change or buy something: anything but a read. */
function writes(c: Awaited<ReturnType<typeof counters>>): number {
  let n = 0;
  for (const [endpoint, byStatus] of Object.entries(c.by_endpoint)) {
    if (!endpoint.startsWith('GET ')) n += Object.values(byStatus).reduce((a, b) => a + b, 0);
  }
  return n;
}

type Summary = { status: string; exitCode: number; api: { calls: number }; stages: Array<{ name: string; counts: Record<string, number> }> };

describe('a trackings night\'s dry run and pause guard', () => {
  let sb: SandboxProcess;
  const tmp = scratch();
  const documents = join(tmp.dir, 'documents.csv');
  const summaryFile = join(tmp.dir, 'summary.json');
  const env = (extra: Record<string, string> = {}) => apiEnv(sb.url, {
    LAWSUIT_DOCUMENTS: documents, LAWSUIT_API_KEY: 'kd', LAWSUIT_SOURCE: 'trackings', LAWSUIT_SKIP_TRANSFER: '1',
    LAWSUIT_SUMMARY_FILE: summaryFile, ...runFiles(tmp.dir, 'kd'), ...extra,
  });
  const summary = (): Summary => JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
  const trackingsCounts = (s: Summary) => s.stages.find((x) => x.name === 'trackings')!.counts;

  beforeAll(async () => {
    sb = await sandboxProcess(['--rate-limit', '100000', '--api-key', 'kd']);
    const lines = await smallPortfolio(sb.url, 22, { max: 6 });
    [HEADER, FIRST, SECOND] = [lines[0], lines.slice(1, 21), [...lines.slice(4, 21), ...lines.slice(21, 23)]];
    writeFileSync(documents, [HEADER, ...FIRST].join('\n'));
  });
  const warehouse = (): string => env().LAWSUIT_WAREHOUSE;
  /** The lawsuit numbers the searches of these documents found. */
  const foundBy = async (lines: readonly string[]): Promise<Set<string>> => {
    writeFileSync(join(tmp.dir, 'some.csv'), [HEADER, ...lines].join('\n'));
    const keys = (await readDocuments(join(tmp.dir, 'some.csv'))).documents.map((d) => `'${d.searchKey}'`).join(', ');
    return new Set((await query<{ c: string }>(warehouse(), `SELECT DISTINCT h.code AS c FROM search_hits h JOIN requests r USING (request_id)
      WHERE r.basis IS NULL AND r.search_key IN (${keys})`)).map((r) => r.c));
  };
  const lawsuitTrackingOf = async (code: string): Promise<string> =>
    (await query<{ id: string }>(warehouse(), `SELECT tracking_id AS id FROM trackings WHERE search_type = 'lawsuit_cnj' AND search_key = '${code}'`))[0].id;
  const behind = async (id: string, action: 'pause' | 'delete'): Promise<void> => {
    expect((await fetch(`${sb.url}/_sandbox/tracking/${id}/${action}`, { method: 'POST' })).status).toBe(200);
  };
  afterAll(async () => { await sb.stop(); tmp.cleanup(); });

  it('plans with reads only, then the guard stops the night until --allow-pause, which does what was planned', async () => {
    // before the first night: everything to create and search once, and the reading of what the new trackings run
    const planFirst = runCli(['run', '--dry-run'], env());
    expect(planFirst.status, planFirst.stderr).toBe(0);
    expect(trackingsCounts(summary())).toMatchObject({ trackings_created: 20, trackings_kept: 0, searches_new: 20, planned_calls: 21, read_calls: 1, lawsuit_trackings_created: 0 });
    expect(writes(await counters(sb.url))).toBe(0);

    const first = runCli(['run'], env());
    expect(first.status, first.stderr).toBe(0);
    expect(trackingsCounts(summary())).toMatchObject({ trackings_created: 20, searches_new: 20 });
    const numbers = await foundBy(FIRST);
    const boughtFirst = await boughtBy(sb.url, 'kd');
    // 20 searches, then each number they found read whole once; each then tracked on its own
    expect(boughtFirst).toBe(20 + numbers.size);
    expect(summary().stages.find((x) => x.name === 'lawsuit-trackings')?.counts.lawsuit_trackings_created).toBe(numbers.size);

    writeFileSync(documents, [HEADER, ...SECOND].join('\n'));
    // the numbers found only by the 3 dropped documents lose their trackings; behind our back, of two numbers a
    // kept document finds, one's tracking is deleted (made again: its first run sends it whole, nothing to read)
    // and the other's paused (resumed, and the lawsuit read tonight: its runs were missed)
    const kept = await foundBy(SECOND.slice(0, 17));
    const dropped = [...await foundBy(FIRST.slice(0, 3))].filter((c) => !kept.has(c));
    expect(dropped.length, 'numbers found only by the dropped documents').toBeGreaterThan(0);
    const [deleted, paused] = [...kept].sort();
    await behind(await lawsuitTrackingOf(deleted), 'delete');
    await behind(await lawsuitTrackingOf(paused), 'pause');
    const before = { calls: await counters(sb.url), warehouse: await warehouseFingerprint(warehouse()) };
    const dry = runCli(['run', '--dry-run'], env());
    expect(dry.status, dry.stderr).toBe(0);
    const plan = summary();
    expect(plan.status).toBe('dry-run');
    expect(plan.stages.map((s) => s.name)).toEqual(['documents', 'trackings', 'lawsuits', 'lawsuit-trackings']);
    expect(trackingsCounts(plan)).toMatchObject({
      trackings_created: 2, trackings_paused: 3, trackings_resumed: 0, trackings_kept: 17,
      searches_tonight: 2, searches_new: 2, searches_fallback: 0,
      pause_guard_pauses: 3, pause_guard_trackings: 20, pause_guard_limit: 2, pause_guard_refuses: 1,
      lawsuit_trackings_created: 1, lawsuit_trackings_paused: dropped.length, lawsuit_trackings_resumed: 1,
      lawsuit_trackings_kept: numbers.size - dropped.length - 2, lawsuits_read_tonight: 1,
      lawsuit_pause_guard_pauses: dropped.length, lawsuit_pause_guard_trackings: numbers.size - 1,
      // one listing page; 2 creations and 3 pauses of documents', 1 creation, the pauses and 1 resume of lawsuits'; a page of runs
      planned_calls: 1 + 2 + 3 + 1 + dropped.length + 1, read_calls: 1,
    });
    // 2 submissions, a poll and a page for their searches; the paused lawsuit's read
    expect(trackingsCounts(plan).search_calls).toBeGreaterThanOrEqual(2 + 1);
    expect(plan.stages.find((x) => x.name === 'lawsuits')?.counts).toMatchObject({ read_tracking: 1, to_read: 1 });
    // and the bill: 2 documents' trackings and 1 lawsuit's made, 1 lawsuit read (at least: tonight's searches find more)
    expect((plan as Summary & { cost: { units: Record<string, number> } }).cost.units).toMatchObject({ trackingMonths: 3, lawsuitSearches: 1 });
    // it listed, and only listed: not a creation, a pause or a search, and the warehouse is as it was
    const after = await counters(sb.url);
    expect(after.total - before.calls.total).toBe(plan.api.calls);
    expect(plan.api.calls).toBeGreaterThan(0);
    expect(writes(after)).toBe(writes(before.calls));
    expect(await warehouseFingerprint(warehouse())).toEqual(before.warehouse);

    // the night itself stops at the guard (exit 2) before changing anything
    const refused = runCli(['run'], env());
    expect(refused.status, refused.stdout).toBe(2);
    const stopped = summary() as Summary & { stages: Array<{ name: string; status: string; error?: { code: string } }> };
    expect(stopped.stages.find((s) => s.name === 'trackings')).toMatchObject({ status: 'failed', error: { code: 'TRACKING_PAUSE_GUARD' } });
    expect(stopped.stages.find((s) => s.name === 'search')).toMatchObject({ status: 'skipped' });
    expect(writes(await counters(sb.url))).toBe(writes(before.calls));

    // allowed, it does what the dry run planned
    const allowed = runCli(['run', '--allow-pause'], env());
    expect(allowed.status, allowed.stderr).toBe(0);
    const night = summary();
    const planned = trackingsCounts(plan);
    const pick = (c: Record<string, number>) => Object.fromEntries(['trackings_created', 'trackings_paused', 'trackings_resumed', 'trackings_kept', 'searches_tonight',
      'lawsuit_trackings_created', 'lawsuit_trackings_paused', 'lawsuit_trackings_resumed', 'lawsuit_trackings_kept', 'lawsuits_read_tonight'].map((k) => [k, c[k]]));
    expect(pick(trackingsCounts(night))).toEqual(pick(planned));
    // the searches planned, the paused lawsuit's read, and a read of each number the new documents found anew
    const byNew = await foundBy(SECOND.slice(17));
    const found = [...byNew].filter((c) => !numbers.has(c));
    expect(await boughtBy(sb.url, 'kd') - boughtFirst).toBe(planned.searches_tonight + 1 + found.length);
    expect(night.stages.find((x) => x.name === 'lawsuit-trackings')?.counts.lawsuit_trackings_created).toBe(found.length);
    // a number the dropped documents alone found before and a new document finds tonight is followed again at once
    const refound = dropped.filter((c) => byNew.has(c));
    expect(night.stages.find((x) => x.name === 'lawsuit-trackings')?.counts.lawsuit_trackings_resumed ?? 0).toBe(refound.length);

    // the dropped documents listed again, and one kept tracking paused behind our back: the first three are resumed
    // and read from their trackings; the fourth is resumed too and searched tonight, since its runs were missed
    writeFileSync(documents, [HEADER, ...FIRST, ...SECOND.slice(17)].join('\n'));
    const api = apiOf(sb.url, 'kd');
    const running = (await api.tracking.all()).filter((t) => t.status !== 'paused' && t.search?.search_type !== 'lawsuit_cnj');
    await api.tracking.pause(running[0].tracking_id);
    const boughtBefore = await boughtBy(sb.url, 'kd');
    const third = runCli(['run'], env());
    expect(third.status, third.stderr).toBe(0);
    // its document was searched on the first night, minutes ago: within LAWSUIT_FRESHNESS_DAYS, not searched again
    expect(trackingsCounts(summary())).toMatchObject({ trackings_created: 0, trackings_paused: 0, trackings_resumed: 4, searches_tonight: 0, searches_fresh: 1 });
    // the lawsuits the dropped documents alone found are followed again: their trackings resumed, nothing read
    expect(trackingsCounts(summary())).toMatchObject({ lawsuit_trackings_resumed: dropped.length - refound.length, lawsuit_trackings_paused: 0, lawsuits_read_tonight: 0 });
    expect(await boughtBy(sb.url, 'kd')).toBe(boughtBefore);
    // another paused behind our back, and no freshness window: resumed and searched that night
    await api.tracking.pause(running[1].tracking_id);
    const fourth = runCli(['run'], env({ LAWSUIT_FRESHNESS_DAYS: '0' }));
    expect(fourth.status, fourth.stderr).toBe(0);
    expect(trackingsCounts(summary())).toMatchObject({ trackings_resumed: 1, searches_new: 0, searches_fallback: 1, searches_fresh: 0 });
    expect(await boughtBy(sb.url, 'kd') - boughtBefore).toBe(1);
    const states = await api.tracking.all();
    await api.close();
    expect(states.filter((t) => t.status === 'paused')).toEqual([]);
    // 22 documents', and each number any of them found (the deleted one's made again: a record of it stays, deleted)
    const all = new Set([...numbers, ...await foundBy(SECOND.slice(17))]);
    expect(states.filter((t) => t.status !== 'deleted')).toHaveLength(22 + all.size);
  }, 240_000);
});
