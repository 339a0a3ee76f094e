import type { Config } from '../shared/config.js';
import type { CommandStatus } from './command-end.js';
import { sourceOf } from './commands.js';
import { moneyOf, unitsOf } from './cost.js';
import type { Outcome } from './outcome.js';
import type { RunPlan } from './plan.js';
import type { NightData, StageResult } from './stage.js';
import { apiSummary, stageSummary, type RunSummary } from './summary.js';

// A run's summary from its stage results and their outcome (computed once by the caller): what is printed, stored
// in `runs.summary`, written to the reports and handed to the scheduler.

/** What a run knows of itself besides its stage results. */
export interface RunFacts {
  command: string;
  cfg: Pick<Config, 'dryRun' | 'source' | 'prices'>;
  runId: string;
  started: Date;
  night: NightData;
  /** The searches the night plans to buy (commands.ts), for a dry run's summary; undefined for a command that buys none. */
  searches?: () => RunPlan | undefined;
  /** The API client's figures; undefined when the command sends nothing. */
  apiStats?: () => Parameters<typeof apiSummary>[0];
  /** The exit code of an end: the CLI's decision (src/cli/exit-codes.ts), recorded in the summary. */
  exitCodeOf(status: CommandStatus): number;
}

export function summarise(run: RunFacts, results: readonly StageResult[], outcome: Outcome, warehouse?: RunSummary['warehouse']): RunSummary {
  const finished = new Date();
  const status = run.cfg.dryRun ? 'dry-run' : outcome.status;
  const s: RunSummary = {
    runId: run.runId, command: run.command, status, exitCode: run.exitCodeOf(status),
    startedAt: run.started.toISOString(), finishedAt: finished.toISOString(), durationMs: finished.getTime() - run.started.getTime(),
    stages: stageSummary(results), warehouse, api: apiSummary(run.apiStats?.()), failures: outcome.failures,
  };
  if (run.command === 'run') {
    s.source = sourceOf(run.cfg);
    const units = unitsOf(s.stages, run.cfg.dryRun);
    const money = moneyOf(units, run.cfg.prices);
    s.cost = money ? { units, money } : { units };
  }
  const { night } = run;
  if (night.changes) s.changes = night.changes;
  const notes = [...(night.list?.warnings ?? []), ...(night.notes ?? [])];
  if (notes.length) s.notes = notes;
  if (night.exportDir) s.exportDir = night.exportDir;
  const plan = run.searches?.();
  if (run.cfg.dryRun && plan && night.list) {
    const byType: Record<string, number> = {};
    for (const p of plan.submit) byType[p.search.search_type] = (byType[p.search.search_type] ?? 0) + 1;
    s.plan = { byType, rejected: night.list.rejected.map((r) => ({ line: r.line, reason: r.reason })) };
  }
  return s;
}
