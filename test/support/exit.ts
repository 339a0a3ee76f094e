import { exitCodeOf, troubleOf } from '../../src/cli/exit-codes.js';

/** The exit code the CLI ends with when a command throws `e` (src/cli/exit-codes.ts decides it, alone). */
export function exitCodeOfError(e: unknown): number {
  return exitCodeOf(troubleOf(e));
}
