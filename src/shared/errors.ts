import { isTransient } from './failure-policy.js';

// Every error the tool throws on purpose carries a constant machine-readable `code` and the facts of the failure.
// Whether a retry can help, and how far a failure reaches, is not decided here but by the failure policy
// (failure-policy.ts) from the code; which exit code a command ends with is decided by the CLI alone
// (src/cli/exit-codes.ts), from the error's code and whether it is a usage error.

interface EtlErrorOptions {
  cause?: unknown;
  /**
   * The command was used or configured wrongly (a bad flag, a list that is no list, a run that does not exist):
   * nothing a retry or a later run could fix, only the person who started it.
   */
  usage?: boolean;
  details?: Record<string, unknown>;
}

export class EtlError extends Error {
  readonly code: string;
  readonly usage: boolean;
  readonly details: Record<string, unknown>;
  constructor(code: string, message: string, opts: EtlErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'EtlError';
    this.code = code;
    this.usage = opts.usage ?? false;
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

/** Bad usage or configuration: every problem found, reported at once. */
export class ConfigError extends EtlError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super('ETL_CONFIG', configurationProblems(problems), { usage: true });
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export function isEtlError(e: unknown): e is EtlError {
  return e instanceof EtlError;
}
