import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LawsuitApi } from '../../src/api/client.js';
import { scratch } from '../support/pipeline.js';
import { apiEnv, bought, counters, runCli, runFiles, sandboxProcess, warehouseFingerprint, type SandboxProcess } from '../support/cli.js';

// `run --source trackings --dry-run` and the pause guard, end to end on a sandbox child (issue 23). A first night
// tracks 20 documents. Then the list loses 3 of them and gains 2: a dry run lists the key's trackings (reads
// only), says what it would create, pause and search and what that costs, and that the pause guard would stop the
// night (3 pauses of 20, more than a tenth); it changes nothing at the provider and writes nothing. The real night
// on that list stops with exit 2 before changing anything; with --allow-pause it carries the plan out, as planned.
// Then the dropped documents are listed again (resumed, not searched) while another hand pauses a kept tracking
// (resumed, and its document searched that night: its runs were missed).

const LINES = readFileSync('config/documents.example.csv', 'utf8').split('\n');
const HEADER = LINES[0];
/** The example list's first 25 documents: the first night lists 20 (1..20), the second drops 3 and adds 2. */
const FIRST = LINES.slice(1, 21);
const SECOND = [...FIRST.slice(3), ...LINES.slice(21, 23)];

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
    // One level (LAWSUIT_DETAIL=header): the document trackings' own reading is the subject here; what a
    // trackings night reads at the lawsuit level is docs/two-levels.md's (issue 32, its trackings part).
    LAWSUIT_DOCUMENTS: documents, LAWSUIT_API_KEY: 'kd', LAWSUIT_SOURCE: 'trackings', LAWSUIT_SKIP_TRANSFER: '1', LAWSUIT_DETAIL: 'header',
    LAWSUIT_SUMMARY_FILE: summaryFile, ...runFiles(tmp.dir, 'kd'), ...extra,
  });
  const summary = (): Summary => JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
  const trackingsCounts = (s: Summary) => s.stages.find((x) => x.name === 'trackings')!.counts;

  beforeAll(async () => {
    sb = await sandboxProcess(['--rate-limit', '100000', '--api-key', 'kd']);
    writeFileSync(documents, [HEADER, ...FIRST].join('\n'));
  });
  afterAll(async () => { await sb.stop(); tmp.cleanup(); });

  it('plans with reads only, then the guard stops the night until --allow-pause, which does what was planned', async () => {
    // before the first night: everything to create and search once, and the reading of what the new trackings run
    const planFirst = runCli(['run', '--dry-run'], env());
    expect(planFirst.status, planFirst.stderr).toBe(0);
    expect(trackingsCounts(summary())).toMatchObject({ trackings_created: 20, trackings_kept: 0, searches_new: 20, planned_calls: 21, read_calls: 1 });
    expect(writes(await counters(sb.url))).toBe(0);

    const first = runCli(['run'], env());
    expect(first.status, first.stderr).toBe(0);
    expect(trackingsCounts(summary())).toMatchObject({ trackings_created: 20, searches_new: 20 });
    const boughtFirst = await bought(sb.url);
    expect(boughtFirst).toBe(20);

    writeFileSync(documents, [HEADER, ...SECOND].join('\n'));
    const warehouse = env().LAWSUIT_WAREHOUSE;
    const before = { calls: await counters(sb.url), warehouse: await warehouseFingerprint(warehouse) };
    const dry = runCli(['run', '--dry-run'], env());
    expect(dry.status, dry.stderr).toBe(0);
    const plan = summary();
    expect(plan.status).toBe('dry-run');
    // (the lawsuit level is skipped here: LAWSUIT_DETAIL=header)
    expect(plan.stages.filter((s) => (s as { status?: string }).status !== 'skipped').map((s) => s.name)).toEqual(['documents', 'trackings']);
    expect(trackingsCounts(plan)).toMatchObject({
      trackings_created: 2, trackings_paused: 3, trackings_resumed: 0, trackings_kept: 17,
      searches_tonight: 2, searches_new: 2, searches_fallback: 0,
      pause_guard_pauses: 3, pause_guard_trackings: 20, pause_guard_limit: 2, pause_guard_refuses: 1,
      // one listing page, 2 creations and 3 pauses; 2 submissions, a poll and a page for their searches; a page of runs
      planned_calls: 6, read_calls: 1,
    });
    expect(trackingsCounts(plan).search_calls).toBeGreaterThanOrEqual(2 + 1);
    // it listed, and only listed: not a creation, a pause or a search, and the warehouse is as it was
    const after = await counters(sb.url);
    expect(after.total - before.calls.total).toBe(plan.api.calls);
    expect(plan.api.calls).toBeGreaterThan(0);
    expect(writes(after)).toBe(writes(before.calls));
    expect(await warehouseFingerprint(warehouse)).toEqual(before.warehouse);

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
    expect(trackingsCounts(night)).toMatchObject({
      trackings_created: planned.trackings_created, trackings_paused: planned.trackings_paused, trackings_resumed: planned.trackings_resumed,
      trackings_kept: planned.trackings_kept, searches_tonight: planned.searches_tonight,
    });
    expect(await bought(sb.url) - boughtFirst).toBe(planned.searches_tonight);

    // the dropped documents listed again, and one kept tracking paused behind our back: the first three are resumed
    // and read from their trackings; the fourth is resumed too and searched tonight, since its runs were missed
    writeFileSync(documents, [HEADER, ...FIRST, ...LINES.slice(21, 23)].join('\n'));
    const api = new LawsuitApi({ apiKey: 'kd', urls: { requests: sb.url, tracking: sb.url, lawsuits: sb.url, transfer: sb.url }, retries: 0 });
    const running = (await api.tracking.all()).filter((t) => t.status !== 'paused');
    await api.tracking.pause(running[0].tracking_id);
    const boughtBefore = await bought(sb.url);
    const third = runCli(['run'], env());
    expect(third.status, third.stderr).toBe(0);
    // its document was searched on the first night, minutes ago: within LAWSUIT_FRESHNESS_DAYS, not searched again
    expect(trackingsCounts(summary())).toMatchObject({ trackings_created: 0, trackings_paused: 0, trackings_resumed: 4, searches_tonight: 0, searches_fresh: 1 });
    expect(await bought(sb.url)).toBe(boughtBefore);
    // another paused behind our back, and no freshness window: resumed and searched that night
    await api.tracking.pause(running[1].tracking_id);
    const fourth = runCli(['run'], env({ LAWSUIT_FRESHNESS_DAYS: '0' }));
    expect(fourth.status, fourth.stderr).toBe(0);
    expect(trackingsCounts(summary())).toMatchObject({ trackings_resumed: 1, searches_new: 0, searches_fallback: 1, searches_fresh: 0 });
    expect(await bought(sb.url) - boughtBefore).toBe(1);
    const states = await api.tracking.all();
    await api.close();
    expect(states.filter((t) => t.status === 'paused')).toEqual([]);
    expect(states).toHaveLength(22);
  }, 240_000);
});
