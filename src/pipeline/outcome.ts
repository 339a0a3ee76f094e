import type { ItemFailure, StageResult } from './stage.js';

// What a run was, derived from its stage results alone: the `runs` row, the summary, the report and (through
// the CLI's one table, src/cli/exit-codes.ts) the exit code all come from here, so they can never disagree.

/**
 * `ok`: every stage ran (or was left out on purpose) and nothing failed. `partial`: the night was done and
 * published, but some documents, files, requests or stages failed or were refused, or requests were still
 * running at the end of the wait budget. `refused`: the key was refused (401, or 403 on every search).
 * `interrupted`: stopped by SIGTERM; what was loaded is published. `unreachable`: nothing reached the upstream
 * all night (every call unreachable or answered 5xx): nothing new is published, try later.
 * `usage-error`: a usage or configuration error stopped it (exit 2); a warehouse made before migration 140 said `failed`.
 */
export type RunStatus = 'ok' | 'partial' | 'refused' | 'interrupted' | 'unreachable' | 'usage-error';

/** A line of the summary's failure list: an item that failed, or a stage that failed or was refused. */
export interface RunFailure extends ItemFailure {
  stage: string;
}

export interface Outcome {
  status: RunStatus;
  /** Stage-level failures first, then every item that failed, in stage order. */
  failures: RunFailure[];
  /** The stages that failed, were refused or were interrupted, for the one-line verdict. */
  troubled: string[];
}

/**
 * Whether the night's stages called the API and not one call reached it: every call unreachable, cut off, or
 * answered 5xx. A night that called nothing (nothing to do) did reach whatever it needed.
 */
export function nothingReached(stages: readonly Pick<StageResult, 'api'>[]): boolean {
  const called = stages.filter((s) => s.api !== undefined && s.api.calls > 0);
  return called.length > 0 && called.every((s) => s.api!.answered === 0);
}

export function outcomeOf(stages: readonly StageResult[]): Outcome {
  const failures: RunFailure[] = [];
  for (const s of stages) {
    if ((s.status === 'failed' || s.status === 'refused') && s.error) {
      failures.push({ stage: s.name, what: 'stage', where: `${s.name} (${s.status})`, code: s.error.code, reason: s.error.message });
    }
  }
  for (const s of stages) for (const f of s.failures) failures.push({ stage: s.name, ...f });
  const troubled = stages.filter((s) => s.status === 'failed' || s.status === 'refused' || s.status === 'interrupted').map((s) => `${s.name} ${s.status}`);

  return { status: statusOf(stages, failures, troubled), failures, troubled };
}

function statusOf(stages: readonly StageResult[], failures: readonly RunFailure[], troubled: readonly string[]): RunStatus {
  if (stages.some((s) => s.usageError)) return 'usage-error';
  if (stages.some((s) => s.runWide && s.status === 'refused')) return 'refused';
  if (stages.some((s) => s.status === 'interrupted')) return 'interrupted';
  if (nothingReached(stages)) return 'unreachable';
  if (troubled.length > 0 || failures.length > 0) return 'partial';
  return 'ok';
}
