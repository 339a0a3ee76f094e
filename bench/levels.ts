import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Warehouse } from '../src/warehouse/warehouse.js';
import { pageBytes } from './calls.js';
import { BenchClient } from './client.js';
import { measuredRun, ranToItsEnd, sandboxRunEnv } from './pipeline-run.js';
import { round } from './round.js';
import { sandboxChild } from './sandbox-child.js';

// The two levels over five nights (issue 32, docs/two-levels.md): a portfolio read night after night by one
// source, every lawsuit kept whole (LAWSUIT_DETAIL=whole), a sandbox day apart (and two hours, so that the
// trackings' runs of the day have finished). What a night must read at the lawsuit level is what moved or was born
// since the night before, by the sandbox's ground truth (POST /_sandbox/truth: each lawsuit's last step as a
// lawsuit-level read answers it at that instant); what it may spend besides is its listing floor (floorOf). A
// night's calls, by route, come from its `runs` row.

export interface LevelsNight {
  night: number;
  /** Calls the night made (runs.calls). */
  calls: number;
  /** Lawsuit-level reads it bought (lawsuit_cnj searches submitted that night). */
  reads: number;
  /** Lawsuits (numbers) born or moved since the night before, by the ground truth: what the night must read whole. */
  movedOrBorn: number;
  /** Searches by document bought, responses loaded, and the calls a night cannot do without besides its reads (floorOf). */
  searches: number; responses: number; listingFloor: number;
  /** The night's calls by route (`POST /requests`, `GET /responses`, ...). */
  byRoute: Record<string, number>;
  /** calls / (movedOrBorn + listingFloor); null on night 1 (every lawsuit is new). */
  callsVsFloor: number | null;
  ms: number; cpuS: number; exitCode: number | null;
}

export interface LevelsFigures {
  source: 'searches' | 'trackings';
  nights: LevelsNight[];
  /** Reads bought on nights 2 to 5 over the numbers born or moved in them (1 when both are 0). */
  readsPerMovedLawsuit: number;
  /** The most calls / (moved and born + listing floor) of nights 2 to 5. */
  laterCallsVsFloor: number;
}

interface TruthLawsuit { code: string; instance: number; last_step?: { step_id: string; steps_count: number } }

/** Each lawsuit's progress (last step and count) by code#instance, as the ground truth has the portfolio now. */
async function progress(client: BenchClient, searches: ReadonlyArray<{ search_type: string; search_key: string }>): Promise<Map<string, string>> {
  const body = await client.call<{ lawsuits: TruthLawsuit[] }>('POST', '/_sandbox/truth', { body: { documents: searches, cnj: [] } });
  return new Map(body.lawsuits.map((l) => [`${l.code}#${l.instance}`, `${l.last_step?.step_id}/${l.last_step?.steps_count}`]));
}

/** The numbers born or moved from one progress to the next. */
function movedOrBorn(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): number {
  const codes = new Set<string>();
  for (const [k, p] of after) if (before.get(k) !== p) codes.add(k.split('#')[0]);
  return codes.size;
}

/** A night's figures from its warehouse; responses and their bytes in all, and those of its lawsuit-level reads. */
type NightFigures = Listed & { calls: number; reads: number; byRoute: Record<string, number> };

async function nightOf(path: string): Promise<NightFigures> {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    const [r] = await wh.all<{ run_id: string; calls: number; summary: string }>(`SELECT run_id, calls, summary::VARCHAR AS summary FROM runs WHERE command = 'run' ORDER BY started_at DESC LIMIT 1`);
    const byRoute: Record<string, number> = {};
    for (const [k, v] of Object.entries((JSON.parse(r.summary) as { api: { byRouteStatus?: Record<string, number> } }).api.byRouteStatus ?? {})) {
      const route = k.replace(/ \S+$/, '');
      byRoute[route] = (byRoute[route] ?? 0) + v;
    }
    const [c] = await wh.all<{ reads: number; searches: number; responses: number; bytes: number; readResponses: number; readBytes: number; trackings: number }>(`SELECT
        (SELECT count(*) FROM requests WHERE run_id = $1 AND basis IS NOT NULL)::INTEGER AS reads,
        (SELECT count(*) FROM requests WHERE run_id = $1 AND basis IS NULL)::INTEGER AS searches,
        (SELECT count(*) FROM responses_raw WHERE run_id = $1)::INTEGER AS responses,
        (SELECT coalesce(sum(length(item::VARCHAR)), 0) FROM v_responses_raw WHERE run_id = $1)::DOUBLE AS bytes,
        (SELECT count(*) FROM responses_raw x JOIN requests q USING (request_id) WHERE x.run_id = $1 AND q.basis IS NOT NULL)::INTEGER AS "readResponses",
        (SELECT coalesce(sum(length(x.item::VARCHAR)), 0) FROM v_responses_raw x JOIN requests q USING (request_id) WHERE x.run_id = $1 AND q.basis IS NOT NULL)::DOUBLE AS "readBytes",
        (SELECT count(*) FROM trackings)::INTEGER AS trackings`, [r.run_id]);
    const [d] = await wh.all<{ dialect: string }>('SELECT dialect::VARCHAR AS dialect FROM upstream_dialects LIMIT 1');
    const pageSize = d ? (JSON.parse(d.dialect) as { pageSize: number }).pageSize : 100;
    return {
      calls: Number(r.calls), reads: c.reads, searches: c.searches, responses: c.responses, bytes: Number(c.bytes),
      readResponses: c.readResponses, readBytes: Number(c.readBytes), trackings: c.trackings, pageSize, byRoute,
    };
  } finally {
    await wh.close();
  }
}

/** What the floor reads off a night: responses loaded (all, and those of its lawsuit-level reads), their bytes. */
interface Listed { searches: number; responses: number; bytes: number; readResponses: number; readBytes: number; trackings: number; pageSize: number }

/**
 * What a night cannot do without besides its lawsuit-level reads (one POST each, counted apart): a POST per search
 * by document it bought; the pages of the responses each wave loaded, by items at the page size it learned or by
 * bytes at a page's byte budget, the larger, and one at least (a night must list to know there is nothing; the
 * lawsuit-level reads are bought after the searches' answers are read, so their answers are a listing of their
 * own); one completion listing (GET /requests) for each wave that bought something; on a trackings night the
 * pages of the key's trackings listing and the one listing that bounds the reading of their runs (what moved comes
 * with the runs of the lawsuits' trackings: no wave of reads).
 */
function floorOf(source: 'searches' | 'trackings', n: Listed, moved: number, bytesAPage: number): number {
  const pagesOf = (responses: number, bytes: number): number => Math.max(Math.ceil(responses / n.pageSize), Math.ceil(bytes / bytesAPage));
  // A searches night reads what moved at the lawsuit level, a wave of its own; a trackings night has it from the
  // lawsuits' trackings, in the one reading of the runs.
  const readWave = source === 'searches' && moved > 0;
  const pages = Math.max(1, pagesOf(n.responses - n.readResponses, n.bytes - n.readBytes)) + (readWave ? Math.max(1, pagesOf(n.readResponses, n.readBytes)) : 0);
  const polls = (n.searches > 0 ? 1 : 0) + (readWave ? 1 : 0);
  const trackings = source === 'trackings' ? Math.max(1, Math.ceil(n.trackings / n.pageSize)) + 1 : 0;
  return n.searches + pages + polls + trackings;
}

/**
 * `nights` nights of the portfolio `csv` (its searches `searches`) read by `source` against a sandbox of its own
 * started with `sandboxArgs`, every lawsuit kept whole.
 */
export async function levelsNights(
  csv: string, searches: ReadonlyArray<{ search_type: string; search_key: string }>, source: 'searches' | 'trackings',
  sandboxArgs: string[], log: (n: LevelsNight) => void, nights = 5,
): Promise<LevelsFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-levels-'));
  const sb = await sandboxChild([...sandboxArgs, '--dialect', 'documented', '--api-key', 'levels']);
  const client = new BenchClient(sb.url);
  try {
    writeFileSync(join(dir, 'documents.csv'), csv);
    const env: NodeJS.ProcessEnv = {
      ...sandboxRunEnv(sb.url, dir), LAWSUIT_DOCUMENTS: join(dir, 'documents.csv'), LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_API_KEY: 'levels',
      LAWSUIT_SOURCE: source, LAWSUIT_TRACKING_RECURRENCE: '1', LAWSUIT_DETAIL: 'whole',
      // a searches night searches every document each night: what it costs is the measure
      LAWSUIT_FRESHNESS_DAYS: '0',
    };
    const done: LevelsNight[] = [];
    const bytesAPage = await pageBytes();
    let before = new Map<string, string>();
    for (let night = 1; night <= nights; night++) {
      if (night > 1) await client.advanceClock(night === 2 ? 1 + 2 / 24 : 1);
      const now = await progress(client, searches);
      const run = await measuredRun(["run"], env);
      // a night that did not end ok says why: its summary, beside the figures
      if (run.exitCode !== 0) process.stderr.write(`levels night ${night} (${source}) exited ${run.exitCode}:\n${run.stdout}\n`);
      if (!ranToItsEnd(run.exitCode)) throw new Error(`levels night ${night} (${source}) exited ${run.exitCode}`);
      const n = await nightOf(env.LAWSUIT_WAREHOUSE!);
      const moved = movedOrBorn(before, now);
      before = now;
      const listingFloor = floorOf(source, n, moved, bytesAPage);
      done.push({
        night, calls: n.calls, reads: n.reads, movedOrBorn: moved, searches: n.searches, responses: n.responses, listingFloor, byRoute: n.byRoute,
        callsVsFloor: night === 1 ? null : round(n.calls / Math.max(1, moved + listingFloor)), ms: run.ms, cpuS: run.cpuS, exitCode: run.exitCode,
      });
      log(done[done.length - 1]);
    }
    const later = done.slice(1);
    const reads = later.reduce((s, n) => s + n.reads, 0);
    const moved = later.reduce((s, n) => s + n.movedOrBorn, 0);
    return {
      source, nights: done, readsPerMovedLawsuit: reads === 0 && moved === 0 ? 1 : round(reads / Math.max(1, moved)),
      laterCallsVsFloor: Math.max(0, ...later.map((n) => n.callsVsFloor ?? 0)),
    };
  } finally {
    await client.close();
    sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
