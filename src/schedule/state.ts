import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

// The scheduler's memory across restarts: without it a container restarted at 02:05 would not know that the
// 02:00 run never happened. Written atomically (temporary file + rename) so a kill mid-write leaves the old state.

export interface JobState {
  /** ISO instant the last successful run started; staleness is measured from here (the data are as fresh as the start). */
  last_success_started_at?: string;
  /** ISO instant the last successful run ended. */
  last_success_ended_at?: string;
  /** ISO instant the last attempt (any outcome) ended. */
  last_ended_at?: string;
  /** Exit code of the last command the job started (an occurrence skipped before starting one leaves it). */
  last_exit_code?: number;
  /** Outcome of the last attempt. */
  last_outcome?: JobOutcome;
  /**
   * Runs that failed since the last success (0 after one). A run skipped because another held the lock
   * changes nothing. Kept across restarts, so a restarted container does not look healthy for having restarted.
   */
  consecutive_failures?: number;
}

export const JOB_OUTCOMES = ['ok', 'partial', 'failed', 'skipped-locked'] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

/** When the job's last successful run started, in epoch ms; undefined if it never succeeded (or the file says nonsense). */
export function lastSuccessMs(state: JobState | undefined): number | undefined {
  const ms = Date.parse(state?.last_success_started_at ?? '');
  return Number.isNaN(ms) ? undefined : ms;
}

export interface ScheduleState {
  version: 1;
  jobs: Record<string, JobState>;
}

function emptyState(): ScheduleState {
  return { version: 1, jobs: {} };
}

/** Read the state; a missing file is an empty state; an unreadable one is reported to `onProblem` and treated as empty. */
export async function readState(path: string, onProblem: (msg: string) => void = () => undefined): Promise<ScheduleState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') onProblem(`cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    return emptyState();
  }
  try {
    const v = JSON.parse(text) as Partial<ScheduleState>;
    if (v && typeof v === 'object' && v.jobs && typeof v.jobs === 'object') return { version: 1, jobs: v.jobs };
  } catch { /* fall through */ }
  onProblem(`${path} is not a schedule state file; every job is treated as never run`);
  return emptyState();
}

export async function writeState(path: string, state: ScheduleState): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(state, null, 2) + '\n');
  await rename(tmp, path);
}
