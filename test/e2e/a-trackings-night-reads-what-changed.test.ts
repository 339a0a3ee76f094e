import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDocuments } from '../../src/input/documents.js';
import { query, scratch } from '../support/pipeline.js';
import { apiEnv, runCli, runFiles, sandboxProcess, type SandboxProcess } from '../support/cli.js';
import { boughtBy, smallPortfolio } from '../support/trackings.js';

// A trackings night (`run --source trackings`, issue 23) end to end on the sandbox, whose clock is moved, never
// slept through, in two levels (issue 32): the first night tracks every listed document and searches each once,
// reads the lawsuits found whole and gives each its own tracking; three sandbox days later (and two hours, so that
// the trackings' runs of that day have finished), the second night buys no search, reads what the runs of both
// kinds sent since (the documents' the lawsuits born, the lawsuits' those that moved, whole), buys a lawsuit-level
// read only for a lawsuit born, and its warehouse is the one a full searches night on the same day makes. Each
// scenario has a key of its own on one sandbox, so that they share its clock and universe but not its trackings:
// - `ka` shares its key with another client's trackings: their runs' responses are in the same listing, skipped;
// - `kb` and `kc` are killed during the second night's reading of the runs (after a page read, after a page
//   committed), then run again: the same warehouse, nothing loaded twice, nothing bought;
// - `kref` is the full searches night.

const KEYS = ['ka', 'kb', 'kc', 'kref'];
/** Each table's rows as text: what a lawsuit's flattening gives, not when or by which request it was loaded. */
const ROWS: Record<string, string> = {
  lawsuits: `code || '#' || instance || '#' || coalesce(status, '') || '#' || coalesce(phase, '') || '#' || coalesce(amount::VARCHAR, '') || '#' || coalesce(name, '')`,
  parties: `code || '#' || instance || '#' || party_index || '#' || coalesce(name, '') || '#' || coalesce(side, '')`,
  lawyers: `code || '#' || instance || '#' || party_index || '#' || lawyer_index || '#' || coalesce(name, '')`,
  steps: `code || '#' || instance || '#' || step_id || '#' || coalesce(step_date::VARCHAR, '') || '#' || coalesce(content, '')`,
  subjects: `code || '#' || instance || '#' || item_code`,
};

/**
 * What two warehouses must agree on here: every lawsuit and its rows (not which request found them: runs are not
 * searches), but the lawsuits in `left` (changed after the last runs, see changedBetween).
 */
async function contents(path: string, left: ReadonlySet<string> = new Set()): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, value] of Object.entries(ROWS)) {
    const rows = await query<{ k: string; v: string }>(path, `SELECT code || '#' || instance AS k, ${value} AS v FROM ${table} ORDER BY 2`);
    out[table] = rows.filter((r) => !left.has(r.k)).map((r) => r.v);
  }
  return out;
}

/**
 * The lawsuits whose content a search sees changed between two instants of the sandbox's clock: a searches night
 * two hours after the trackings' runs sees them, and a run only at the next recurrence.
 */
async function changedBetween(url: string, from: number, to: number): Promise<Set<string>> {
  const q = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(to).toISOString(), limit: '10000' });
  const body = await (await fetch(`${url}/_sandbox/changes?${q}`)).json() as { lawsuits: Array<{ code: string; instance: number }> };
  return new Set(body.lawsuits.map((l) => `${l.code}#${l.instance}`));
}

const clockOf = async (url: string): Promise<number> => Date.parse((await (await fetch(`${url}/_sandbox/clock`)).json() as { now: string }).now);

async function post(url: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
  return res.json();
}

const counts = (stdout: string, stage: string): string => stdout.split('\n').find((l) => l.trim().startsWith(stage)) ?? '';

describe('a trackings night', () => {
  let sb: SandboxProcess;
  const tmp = scratch();
  const documents = join(tmp.dir, 'documents.csv');
  const env = (key: string, extra: Record<string, string> = {}) => apiEnv(sb.url, {
    LAWSUIT_DOCUMENTS: documents, LAWSUIT_API_KEY: key, LAWSUIT_SOURCE: key === 'kref' ? 'searches' : 'trackings',
    // pages of 20: a second night here is about 200 responses (every lawsuit's header and whole on the trackings'
    // first runs), so the kill points meet several pages
    LAWSUIT_PAGE_SIZE: '20', LAWSUIT_SKIP_TRANSFER: '1', ...runFiles(tmp.dir, key), ...extra,
  });
  /** A night's lawsuit-level reads bought, by number. */
  const readsOf = async (key: string, run: 'first' | 'last'): Promise<string[]> => (await query<{ k: string }>(env(key).LAWSUIT_WAREHOUSE, `
    SELECT search_key AS k FROM requests WHERE basis IS NOT NULL
      AND run_id = (SELECT ${run === 'first' ? 'min' : 'max'}(run_id) FROM runs WHERE command = 'run') ORDER BY 1`)).map((r) => r.k);
  beforeAll(async () => {
    sb = await sandboxProcess(['--rate-limit', '100000', ...KEYS.flatMap((k) => ['--api-key', k])]);
    writeFileSync(documents, (await smallPortfolio(sb.url, 20, { max: 10 })).join('\n'));
  });
  afterAll(async () => { await sb.stop(); tmp.cleanup(); });

  it('searches each new document once, then reads the runs instead of buying searches, and ends with a searches night\'s warehouse', async () => {
    const docs = (await readDocuments(documents)).documents.length;
    for (const key of ['ka', 'kb', 'kc']) {
      const first = runCli(['run'], env(key));
      expect(first.status, first.stderr).toBe(0);
      expect(counts(first.stdout, 'trackings'), key).toContain(`${docs} trackings created`);
      expect(counts(first.stdout, 'search'), key).toMatch(new RegExp(`^\\s*search\\s+ok\\s+${docs} submitted`));
      // the searches' headers read whole, each number once, then each number tracked on its own
      const reads = await readsOf(key, 'first');
      expect(reads.length, key).toBeGreaterThan(0);
      expect(await boughtBy(sb.url, key), key).toBe(docs + reads.length);
      expect(counts(first.stdout, 'lawsuit-trackings'), key).toContain(`${reads.length} lawsuit trackings created`);
    }
    const boughtFirst = await boughtBy(sb.url, 'ka');
    // another client on key ka tracks documents of its own: its runs are in ka's listing from their first on
    const foreign = await post(sb.url, '/_sandbox/foreign/trackings', { count: 5, recurrence: 1, api_key: 'ka' });
    const foreignIds: string[] = foreign.trackings.map((t: { tracking_id: string }) => t.tracking_id);
    await post(sb.url, '/_sandbox/clock', { advance_days: 3 + 2 / 24 });
    // the day's runs came two hours ago (and the first nights' minutes before that)
    const runsAt = (await clockOf(sb.url)) - 2.5 * 3_600_000;

    const second = runCli(['run'], env('ka'));
    expect(second.status, second.stderr).toBe(0);
    expect(counts(second.stdout, 'search')).toMatch(/^\s*search\s+ok\s+0 submitted/);
    // no search; a lawsuit-level read only for a lawsuit born, never for one its own tracking's run carried
    const bornRead = await readsOf('ka', 'last');
    expect(await boughtBy(sb.url, 'ka')).toBe(boughtFirst + bornRead.length);
    const carried = (await query<{ k: string }>(env('ka').LAWSUIT_WAREHOUSE, `SELECT DISTINCT h.code AS k FROM tracking_runs t
      JOIN search_hits h USING (request_id) WHERE t.search_type = 'lawsuit_cnj'`)).map((r) => r.k);
    expect(carried.length, 'the lawsuits\' trackings\' first runs sent each whole').toBeGreaterThan(0);
    expect(bornRead.filter((c) => carried.includes(c))).toEqual([]);
    const [ledger] = await query<{ runs: number; loaded: number; raw: number; foreign: number; strays: number }>(env('ka').LAWSUIT_WAREHOUSE, `SELECT
        (SELECT count(*) FROM tracking_runs) AS runs, (SELECT sum(responses_loaded) FROM tracking_runs) AS loaded,
        (SELECT count(*) FROM responses_raw WHERE request_id IN (SELECT request_id FROM tracking_runs)) AS raw,
        (SELECT count(*) FROM tracking_runs WHERE tracking_id IN (${foreignIds.map((id) => `'${id.replace(/'/g, '')}'`).join(', ')})) AS foreign,
        (SELECT count(*) FROM responses_raw WHERE request_id NOT IN (SELECT request_id FROM requests UNION ALL SELECT request_id FROM tracking_runs)) AS strays`);
    expect(Number(ledger.runs)).toBeGreaterThanOrEqual(docs);
    expect(Number(ledger.loaded)).toBe(Number(ledger.raw));
    // the other client's runs were in the listing, and not one of their responses was loaded
    expect(Number(ledger.foreign)).toBe(0);
    expect(Number(ledger.strays)).toBe(0);
    const [stage] = await query<{ counts: string }>(env('ka').LAWSUIT_WAREHOUSE,
      `SELECT counts::VARCHAR AS counts FROM run_stages WHERE stage = 'trackings' ORDER BY started_at DESC LIMIT 1`);
    const c = JSON.parse(stage.counts) as Record<string, number>;
    expect(c.tracking_skipped).toBeGreaterThan(0);
    expect(c.tracking_responses).toBe(Number(ledger.loaded));
    const [run] = await query<Record<string, unknown>>(env('ka').LAWSUIT_WAREHOUSE,
      `SELECT source, trackings_created, tracking_runs_read, tracking_responses, requests_submitted FROM runs ORDER BY started_at DESC LIMIT 1`);
    expect(run).toMatchObject({ source: 'trackings', trackings_created: 0, tracking_runs_read: Number(ledger.runs), tracking_responses: Number(ledger.loaded), requests_submitted: 0 });
    // the lawsuits' trackings made on night 1 were kept, and those of the lawsuits born made after their reads
    const [made] = await query<{ n: number }>(env('ka').LAWSUIT_WAREHOUSE,
      `SELECT count(*)::INTEGER AS n FROM tracking_checks WHERE kind = 'lawsuit' AND outcome = 'created' AND run_id = (SELECT min(run_id) FROM runs)`);
    expect(c.lawsuit_trackings_kept).toBe(made.n);
    expect(made.n).toBeGreaterThan(0);

    // the night's report says where its lawsuits came from and what it cost
    const reports = env('ka').LAWSUIT_REPORTS_DIR;
    const markdown = readdirSync(reports).filter((f) => f.endsWith('.md')).sort().pop()!;
    const report = readFileSync(join(reports, markdown), 'utf8');
    expect(report).toContain('## Night');
    expect(report).toMatch(/\| source \| trackings \|/);
    expect(report).toContain(`| tracking runs read | ${Number(ledger.runs)} |`);
    expect(report).toMatch(/\| searches bought \| 0 \|/);

    const reference = runCli(['run'], env('kref'));
    expect(reference.status, reference.stderr).toBe(0);
    const left = await changedBetween(sb.url, runsAt, await clockOf(sb.url));
    expect(await contents(env('ka').LAWSUIT_WAREHOUSE, left)).toEqual(await contents(env('kref').LAWSUIT_WAREHOUSE, left));

    // a document's lawsuits are what its search and its runs found: the same as the searches night's answer (the
    // lawsuit-level reads, which follow a lawsuit rather than find it, aside)
    const perDoc = (key: string) => query<{ k: string; n: number }>(env(key).LAWSUIT_WAREHOUSE,
      `SELECT search_type || ':' || search_key AS k, lawsuits_found AS n FROM v_active_lawsuits_per_document
       WHERE (search_type, search_key) NOT IN (SELECT search_type, search_key FROM requests WHERE basis IS NOT NULL) ORDER BY 1`);
    expect((await perDoc('ka')).map((r) => `${r.k}=${r.n}`)).toEqual((await perDoc('kref')).map((r) => `${r.k}=${r.n}`));

    // the runs' responses are kept in responses_raw like any other: rebuild derives the same tables from them
    const hits = async () => (await query<{ h: string }>(env('ka').LAWSUIT_WAREHOUSE,
      `SELECT md5(string_agg(request_id || '#' || code || '#' || instance, ',' ORDER BY request_id, code, instance)) AS h FROM search_hits`))[0].h;
    const before = { contents: await contents(env('ka').LAWSUIT_WAREHOUSE), hits: await hits() };
    const rebuilt = runCli(['rebuild'], env('ka'));
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    expect({ contents: await contents(env('ka').LAWSUIT_WAREHOUSE), hits: await hits() }).toEqual(before);

    // killed while reading the runs, after a page read and after a page committed: the run again ends the same.
    // The commit is the first: it holds the first page alone (a commit starts when the sink is idle), where pages
    // read during a commit go together in the next, and on a loaded machine the third commit held the last of
    // the five pages, so the reading was done before the kill and the check below met a new night's reading.
    for (const [key, point] of [['kb', 'tracking.after-read=3'], ['kc', 'collect.after-commit=1']]) {
      const killed = runCli(['run'], env(key, { LAWSUIT_FAILPOINTS: point }));
      expect(killed.signal, `${point} should have killed the run: ${killed.stderr}`).toBe('SIGKILL');
      // killed after a commit mid-reading, as the point means to be: a page of the night's reading in the night's
      // work copy (published at the night's end), not its end
      if (point.startsWith('collect.')) {
        expect(await query<{ pages: number; status: string }>(`${env(key).LAWSUIT_WAREHOUSE}.work`,
          `SELECT pages::INTEGER AS pages, status FROM tracking_reads ORDER BY started_at`), point).toEqual([
          { pages: 1, status: 'done' }, expect.objectContaining({ status: expect.not.stringMatching(/^done$/) })]);
      }
      const resumed = runCli(['run'], env(key));
      expect(resumed.status, `${point}: ${resumed.stderr}`).toBe(0);
      expect(await contents(env(key).LAWSUIT_WAREHOUSE), point).toEqual(await contents(env('ka').LAWSUIT_WAREHOUSE));
      const [l] = await query<{ loaded: number; raw: number; reads: number; done: number }>(env(key).LAWSUIT_WAREHOUSE, `SELECT
          (SELECT sum(responses_loaded) FROM tracking_runs) AS loaded,
          (SELECT count(*) FROM responses_raw WHERE request_id IN (SELECT request_id FROM tracking_runs)) AS raw,
          (SELECT count(*) FROM tracking_reads) AS reads, (SELECT count(*) FROM tracking_reads WHERE status = 'done') AS done`);
      // nothing loaded twice: the runs' counts are the responses held; the killed night's reading was carried on
      expect(Number(l.loaded), point).toBe(Number(l.raw));
      expect(Number(l.raw), point).toBe(Number(ledger.raw));
      expect({ reads: Number(l.reads), done: Number(l.done) }, point).toEqual({ reads: 2, done: 2 });
    }
    // kb and kc bought on their second nights what ka did: nothing but the reads of the lawsuits born
    for (const key of ['kb', 'kc']) expect(await readsOf(key, 'last'), key).toEqual(bornRead);
  }, 400_000);
});
