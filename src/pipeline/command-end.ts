import type { RunSummary } from './summary.js';

// How a command ended, as it tells the process that started it (Config.summaryFile: the scheduler hands each
// command a file). The exit code alone cannot say it: 75 is both "another run holds the lock" (nothing was tried)
// and "nothing reached the upstream" (a night that failed), and a scheduler that told them apart by looking at
// the lock afterwards raced the lock's next holder.

/** Why a command that ran no night ended as it did (the CLI's reading of what it threw, src/cli/exit-codes.ts). */
export type CommandTrouble = 'locked' | 'usage' | 'refused' | 'unexpected';

/** A run's status, or why there was no run. */
export type CommandStatus = RunSummary['status'] | CommandTrouble;

/** The run's summary when the command ran its stages; otherwise the command, how it ended and the error's code. */
export type CommandEnd = RunSummary | { command: string; status: CommandStatus; code?: string };

/**
 * What an end file says, read back leniently (a command of another version, a file cut short): how the command
 * ended, and its run summary when it wrote one (the metrics read what they can of it). Anything else says nothing.
 */
export function readCommandEnd(v: unknown): { status?: string; summary?: RunSummary } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  const o = v as Record<string, unknown>;
  return { status: typeof o.status === 'string' ? o.status : undefined, summary: 'stages' in o ? (o as unknown as RunSummary) : undefined };
}
