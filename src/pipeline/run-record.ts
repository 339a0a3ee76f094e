import type { Logger } from 'pino';
import { readReportFacts } from '../report/facts.js';
import { asStored, type ReportInput } from '../report/run-reports.js';
import { finishRun } from '../warehouse/ledger.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { outcomeOf } from './outcome.js';
import type { StageResult } from './stage.js';
import { summarise, type RunFacts } from './summarise.js';
import type { RunSummary } from './summary.js';

// The run's own record: its `runs` row, and what its reports will be made of. It goes into the night it describes,
// so it is written before publish closes the warehouse, with publish counted as done (stage-runner.ts calls for it
// then); a run that dies while publishing is found out by the next one (resume.ts). A command that publishes
// nothing records itself after its last stage.

export interface RunRecord {
  /** The warehouse's totals as recorded. */
  totals: NonNullable<RunSummary['warehouse']>;
  /** The run as stored, and the report's facts read while the night was still open to it. */
  report: ReportInput;
}

export async function recordRun(run: RunFacts & { wh: Warehouse; log: Logger }, results: readonly StageResult[]): Promise<RunRecord> {
  const totals = await warehouseTotals(run.wh, run.runId);
  const draft = summarise(run, results, outcomeOf(results), totals);
  const search = results.find((r) => r.name === 'search')?.counts;
  const list = run.night.list;
  await finishRun(run.wh, run.runId, {
    status: draft.status, calls: draft.api.calls, callsByStatus: draft.api.byStatus, documents: list?.documents.length,
    rejected: list?.rejected.length, requestsSubmitted: search?.submitted, requestsCompleted: search?.completed,
    lawsuits: totals.lawsuitsThisRun, parties: totals.parties, steps: totals.steps, errors: draft.failures.length, summary: draft,
    finishedAt: new Date(draft.finishedAt),
  });
  // The facts are read now, while the night is still open to this run: a report written again later from the
  // published warehouse is then the same file.
  const facts = await readReportFacts(run.wh, run.runId).catch((e: unknown) => {
    run.log.error({ err: e }, 'the facts of the run report could not be read; the report goes without them');
    return undefined;
  });
  return { totals, report: { summary: asStored(draft), facts } };
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
