import type { CommandStatus, CommandTrouble } from '../pipeline/command-end.js';
import { isEtlError } from '../shared/errors.js';
import { codeOf, stageStatusFor } from '../shared/failure-policy.js';

// The exit codes of the contract (CONTRACT.md), and the one table that says which end gets which. Nothing outside
// src/cli chooses an exit code: a run ends in a status (src/pipeline/outcome.ts), a command that could not run
// throws a typed error, and this file maps either to the code.

export const EXIT = { ok: 0, unexpected: 1, usage: 2, auth: 3, partial: 4, tryLater: 75 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Each end and its code; "try later" (sysexits' EX_TEMPFAIL) is for ends where nothing was done a later run will not do. */
const CODE_OF: Readonly<Record<CommandStatus, ExitCode>> = {
  'ok': EXIT.ok,
  // A dry run sent nothing and says what it would have: done.
  'dry-run': EXIT.ok,
  'unexpected': EXIT.unexpected,
  // A stage met a usage error (a folder the configuration names cannot be written), or the command did.
  'usage-error': EXIT.usage,
  'usage': EXIT.usage,
  'refused': EXIT.auth,
  'partial': EXIT.partial,
  // Stopped by SIGTERM: what it loaded is published, the rest is the next run's.
  'interrupted': EXIT.partial,
  'unreachable': EXIT.tryLater,
  'locked': EXIT.tryLater,
};

export function exitCodeOf(status: CommandStatus): ExitCode {
  return CODE_OF[status];
}

/** Why a command that threw ended: a usage error, the run lock held by another run, the key refused, or else unexpected. */
export function troubleOf(e: unknown): CommandTrouble {
  if (isEtlError(e) && e.usage) return 'usage';
  if (codeOf(e) === 'RUN_LOCKED') return 'locked';
  if (isEtlError(e) && stageStatusFor(e) === 'refused') return 'refused';
  return 'unexpected';
}

/** The exit codes in words, for the help of every command that ends with one. */
export const EXIT_CODES_HELP = `
Exit codes: 0 all done; 1 unexpected failure; 2 bad usage or configuration; 3 the API key was refused;
4 finished, but some documents, files or stages failed or were refused, the wait budget ran out, or the run
was stopped by SIGTERM (what it loaded is published; a second signal, or the end of the grace period
LAWSUIT_SHUTDOWN_GRACE_SECONDS, exits 4 at once); 75 try later: another run holds the lock, or nothing reached
the upstream all night (nothing new published). Every call has deadlines (LAWSUIT_*_TIMEOUT_SECONDS).`;
