import type { Logger } from 'pino';
import { finishRun } from '../warehouse/ledger.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { sourceOf } from './commands.js';
import { outcomeOf } from './outcome.js';
import type { StageResult } from './stage.js';
import { summarise, type RunFacts } from './summarise.js';
import { lawsuitTrackingsOf, type RunSummary } from './summary.js';

// The run's own record: its `runs` row, and what its reports will be made of. It goes into the night it describes,
// so it is written before publish closes the warehouse, with publish counted as done (stage-runner.ts calls for it
// then); a run that dies while publishing is found out by the next one (resume.ts). A command that publishes
// nothing records itself after its last stage.

/**
 * Who writes the run's reports (src/report, handed in by the CLI: the pipeline does not import the reports, which
 * read its summary). The pipeline gives it the two moments it alone knows: the night still open to the run, and
 * the run's end.
 */
export interface RunReporter {
  /** What the reports need of the warehouse, read just before publish; opaque to the pipeline. */
  readFacts(wh: Warehouse, runId: string): Promise<unknown>;
  /** Both reports, from the run's summary as stored and those facts; where they were written. */
  write(summary: RunSummary, facts: unknown): Promise<WrittenReports>;
}

export interface WrittenReports { markdown: string; html: string }

export interface RunRecord {
  /** The warehouse's totals as recorded. */
  totals: NonNullable<RunSummary['warehouse']>;
  /** The summary as stored in `runs.summary` (what a report written again later reads). */
  stored: RunSummary;
  /** The reports' facts, read while the night was still open to the run. */
  facts: unknown;
}

/**
 * The summary exactly as `runs.summary` stores it (JSON: fields left undefined disappear), so that a report
 * rendered from the one in memory at the end of a run is byte for byte the one rendered from the warehouse.
 */
export const asStored = (s: RunSummary): RunSummary => JSON.parse(JSON.stringify(s)) as RunSummary;

export async function recordRun(run: RunFacts & { wh: Warehouse; log: Logger; reporter?: RunReporter }, results: readonly StageResult[]): Promise<RunRecord> {
  const totals = await warehouseTotals(run.wh, run.runId);
  const draft = summarise(run, results, outcomeOf(results), totals);
  const search = results.find((r) => r.name === 'search')?.counts;
  const list = run.night.list;
  await finishRun(run.wh, run.runId, {
    status: draft.status, calls: draft.api.calls, callsByStatus: draft.api.byStatus, documents: list?.documents.length,
    rejected: list?.rejected.length, requestsSubmitted: search?.submitted, requestsCompleted: search?.completed,
    lawsuits: totals.lawsuitsThisRun, parties: totals.parties, steps: totals.steps, errors: draft.failures.length, summary: draft,
    finishedAt: new Date(draft.finishedAt), tracking: trackingTotals(run, results),
  });
  // The facts are read now, while the night is still open to this run: a report written again later from the
  // published warehouse is then the same file.
  const facts = await run.reporter?.readFacts(run.wh, run.runId).catch((e: unknown) => {
    run.log.error({ err: e }, 'the facts of the run report could not be read; the report goes without them');
    return undefined;
  });
  return { totals, stored: asStored(draft), facts };
}

/** A night's source, and what its trackings stage did (the `runs` row's tracking figures); none for other commands. */
function trackingTotals(run: RunFacts, results: readonly StageResult[]) {
  if (run.command !== 'run') return undefined;
  const c = results.find((r) => r.name === 'trackings')?.counts;
  return {
    source: sourceOf(run.cfg), created: c?.trackings_created, paused: c?.trackings_paused, resumed: c?.trackings_resumed,
    runsRead: c?.tracking_runs_read, responses: c?.tracking_responses, lawsuits: c ? lawsuitTrackingsOf(results) : undefined,
  };
}

async function warehouseTotals(wh: Warehouse, runId: string): Promise<RunRecord['totals']> {
  const [w] = await wh.all<Record<string, number>>(`SELECT
      (SELECT count(*) FROM lawsuits WHERE last_seen_run = $1) AS lawsuits_this_run,
      (SELECT count(*) FROM lawsuits) AS lawsuits, (SELECT count(*) FROM parties) AS parties,
      (SELECT count(*) FROM lawyers) AS lawyers, (SELECT count(*) FROM steps) AS steps,
      (SELECT count(*) FROM responses_raw) AS responses`, [runId]);
  return {
    lawsuitsThisRun: Number(w.lawsuits_this_run), lawsuits: Number(w.lawsuits), parties: Number(w.parties),
    lawyers: Number(w.lawyers), steps: Number(w.steps), responses: Number(w.responses),
  };
}
