// Every error the tool throws on purpose carries a constant machine-readable `code`, says whether a retry
// can help (`transient`), and maps to one of the contract's exit codes. The CLI entry only reads these.

export const EXIT = { ok: 0, unexpected: 1, usage: 2, auth: 3, partial: 4 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface EtlErrorOptions { cause?: unknown; transient?: boolean; exitCode?: ExitCode; details?: Record<string, unknown> }

export class EtlError extends Error {
  readonly code: string;
  readonly transient: boolean;
  readonly exitCode: ExitCode;
  readonly details: Record<string, unknown>;
  constructor(code: string, message: string, opts: EtlErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'EtlError';
    this.code = code;
    this.transient = opts.transient ?? false;
    this.exitCode = opts.exitCode ?? EXIT.unexpected;
    this.details = opts.details ?? {};
  }
}

/** Bad usage or configuration: every problem found, reported at once (exit 2). */
export class ConfigError extends EtlError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super('ETL_CONFIG', `configuration has ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`, { exitCode: EXIT.usage });
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export function isEtlError(e: unknown): e is EtlError {
  return e instanceof EtlError;
}
