import { isTransient } from './failure-policy.js';

// Every error the tool throws on purpose carries a constant machine-readable `code` and maps to one of the
// contract's exit codes. Whether a retry can help, and how far a failure reaches, is not decided here but by
// the failure policy (failure-policy.ts) from the code: one table, asked by every caller.

/**
 * The contract's exit codes. `tryLater` is sysexits' EX_TEMPFAIL: another run holds the lock, or nothing reached
 * the upstream all night; nothing was done that a later run would not do.
 */
export const EXIT = { ok: 0, unexpected: 1, usage: 2, auth: 3, partial: 4, tryLater: 75 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

interface EtlErrorOptions { cause?: unknown; exitCode?: ExitCode; details?: Record<string, unknown> }

export class EtlError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly details: Record<string, unknown>;
  constructor(code: string, message: string, opts: EtlErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'EtlError';
    this.code = code;
    this.exitCode = opts.exitCode ?? EXIT.unexpected;
    this.details = opts.details ?? {};
  }

  /** Whether a retry can help: the failure policy's answer for this code. */
  get transient(): boolean {
    return isTransient(this);
  }
}

/** The text of a ConfigError: a line, then one problem a line. */
export function configurationProblems(problems: readonly string[]): string {
  return `configuration has ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`;
}

/** Bad usage or configuration: every problem found, reported at once (exit 2). */
export class ConfigError extends EtlError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super('ETL_CONFIG', configurationProblems(problems), { exitCode: EXIT.usage });
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export function isEtlError(e: unknown): e is EtlError {
  return e instanceof EtlError;
}
