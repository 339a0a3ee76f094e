import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Warehouse } from '../src/warehouse/warehouse.js';
import { KEY_CALLS_PER_DAY } from './calls.js';
import { BenchClient } from './client.js';
import { measuredRun, ranToItsEnd, sandboxRunEnv } from './pipeline-run.js';
import { round } from './round.js';
import { sandboxChild } from './sandbox-child.js';

// A tracked portfolio over five sandbox days (issue 23): night 1 tracks every document and searches each once;
// nights 2 to 5, a sandbox day apart (and two hours after the trackings' runs of that day, so that they have
// finished), read what the runs sent instead of buying a search per document. Each night's calls come from its
// `runs` row; after night 5 a full searches night on another key of the same sandbox, the same day, is the
// reference the tracked warehouse must equal (lawsuits, parties, steps). The sandbox's clock is moved, never
// waited for; its default rate of change makes the universe's changes.

export interface TrackedNight {
  night: number; calls: number; searches: number; runsRead: number; responses: number; callsPerDocument: number; ms: number;
  /** CPU seconds of the night's process. */
  cpuS: number;
  exitCode: number | null;
}

export interface TrackedFigures {
  documents: number;
  nights: TrackedNight[];
  /** The reference searches night's time, ms. */
  referenceMs: number;
  /** The most calls per document of nights 2 to 5. */
  trackingCallsPerDocumentNight: number;
  /** Documents a key's day of calls (180 a minute) keeps tracked at that rate. */
  trackedDocumentsPerKeyDay: number;
  /** Searches bought on nights 2 to 5. */
  searchesAfterFirst: number;
  /** The tracked warehouse after night 5 equals a searches night's of the same day (but the lawsuits in `changedSinceLastRuns`). */
  equalsSearchesNight: boolean;
  /** Lawsuits the provider's database changed between the last runs and the searches night (left out of the comparison). */
  changedSinceLastRuns: number;
  /** The lawsuits (but those left out) whose lawsuit, party or step rows differ between the two warehouses: a few, and how many. */
  differing: { count: number; some: string[] };
}

async function nightOf(path: string): Promise<Omit<TrackedNight, 'night' | 'callsPerDocument' | 'ms' | 'cpuS' | 'exitCode'>> {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    const [r] = await wh.all<{ calls: number; searches: number; runs: number; responses: number }>(`SELECT calls, coalesce(requests_submitted, 0) AS searches,
      coalesce(tracking_runs_read, 0) AS runs, coalesce(tracking_responses, 0) AS responses FROM runs WHERE command = 'run' ORDER BY started_at DESC LIMIT 1`);
    return { calls: Number(r.calls), searches: Number(r.searches), runsRead: Number(r.runs), responses: Number(r.responses) };
  } finally {
    await wh.close();
  }
}

/**
 * What two warehouses must agree on: every lawsuit with its parties and steps, as a digest per lawsuit (`differing`
 * leaves out those the provider's database changed after the trackings' last runs and before the searches night,
 * which a search sees and a run will only send at its next recurrence).
 */
async function contents(path: string): Promise<Map<string, string>> {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    const rows = await wh.all<{ k: string; d: string }>(`SELECT l.code || '#' || l.instance AS k, md5(concat_ws('|',
        l.code || '#' || l.instance || '#' || coalesce(l.status, '') || '#' || coalesce(l.phase, '') || '#' || coalesce(l.amount::VARCHAR, ''),
        (SELECT string_agg(p.party_index || '#' || coalesce(p.name, ''), ',' ORDER BY p.party_index) FROM parties p WHERE p.code = l.code AND p.instance = l.instance),
        (SELECT string_agg(s.step_id || '#' || coalesce(s.content, ''), ',' ORDER BY s.step_id) FROM steps s WHERE s.code = l.code AND s.instance = l.instance))) AS d
      FROM lawsuits l`);
    return new Map(rows.map((r) => [r.k, r.d]));
  } finally {
    await wh.close();
  }
}

/** The lawsuits, but those in `left`, that one warehouse holds and the other does not, or holds otherwise. */
function differing(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>, left: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const k of new Set([...a.keys(), ...b.keys()])) if (!left.has(k) && a.get(k) !== b.get(k)) out.push(k);
  return out.sort();
}

/**
 * `nights` nights (five in the bench; the test's toy run fewer) of a tracked portfolio `csv` against a sandbox of
 * its own started with `sandboxArgs`.
 */
export async function trackedPortfolio(csv: string, documents: number, sandboxArgs: string[], log: (n: TrackedNight) => void, nights = 5): Promise<TrackedFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-tracked-'));
  const sb = await sandboxChild([...sandboxArgs, '--dialect', 'documented', '--api-key', 'tracked', '--api-key', 'searched']);
  const client = new BenchClient(sb.url);
  try {
    writeFileSync(join(dir, 'documents.csv'), csv);
    const env = (key: string, name: string) => ({
      ...sandboxRunEnv(sb.url, join(dir, name)), LAWSUIT_WAREHOUSE: join(dir, `${name}.duckdb`), LAWSUIT_DOCUMENTS: join(dir, 'documents.csv'),
      LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_API_KEY: key, LAWSUIT_SOURCE: key === 'tracked' ? 'trackings' : 'searches', LAWSUIT_TRACKING_RECURRENCE: '1',
    });
    const done: TrackedNight[] = [];
    // Every tracking is made after this instant, so each runs on day N-1 at this instant plus N-1 days or later.
    const firstNight = await client.clock();
    for (let night = 1; night <= nights; night++) {
      if (night > 1) await client.advanceClock(night === 2 ? 1 + 2 / 24 : 1);
      const run = await measuredRun(['run'], env('tracked', 'tracked'));
      if (!ranToItsEnd(run.exitCode)) throw new Error(`tracked night ${night} exited ${run.exitCode}`);
      const n = await nightOf(join(dir, 'tracked.duckdb'));
      done.push({ night, ...n, callsPerDocument: round(n.calls / documents), ms: run.ms, cpuS: run.cpuS, exitCode: run.exitCode });
      log(done[done.length - 1]);
    }
    // The day-4 runs send what changed up to their own instant, the earliest of them four days after night 1
    // began: a change after that is left out. (Counted back from night 5 instead, with a margin of half an hour for
    // night 1, the window missed the changes a run made early in a night 1 of 43 minutes had not seen.)
    const lastRuns = firstNight + (nights - 1) * 86_400_000;
    const reference = await measuredRun(['run'], env('searched', 'searched'));
    if (reference.exitCode !== 0) throw new Error(`the reference searches night ended with exit ${reference.exitCode}`);
    const left = await client.changedBetween(lastRuns, await client.clock());
    const diff = differing(await contents(join(dir, 'tracked.duckdb')), await contents(join(dir, 'searched.duckdb')), left);
    const later = done.slice(1);
    const worst = Math.max(...later.map((n) => n.calls / documents));
    return {
      documents, nights: done, referenceMs: reference.ms, trackingCallsPerDocumentNight: round(worst), trackedDocumentsPerKeyDay: Math.round(KEY_CALLS_PER_DAY / worst),
      searchesAfterFirst: later.reduce((s, n) => s + n.searches, 0),
      equalsSearchesNight: diff.length === 0, changedSinceLastRuns: left.size, differing: { count: diff.length, some: diff.slice(0, 5) },
    };
  } finally {
    await client.close();
    sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
