import type { Kind } from './kinds.js';

// An option as the table declares it (table.ts): one declaration that the command line (commander, in src/cli),
// the configuration (config.ts), the help and the documentation's rows (docs/operating.md) are all made from.

/** Every command of `lawsuit-etl`. */
export const COMMAND_NAMES = ['run', 'schedule', 'receive', 'sandbox', 'export', 'transfer', 'query', 'track', 'doctor', 'report', 'rebuild'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/**
 * Who reads an option. `config`: loadConfig, into Config, for every command it configures. `command`: one
 * command's own argument (query's `--kind`, report's `--run`). `sandbox`: the emulator's server, from the
 * `sandbox` command's line (src/cli/sandbox-args.ts); it reads no variable and no config file, being a program of its own.
 */
type Reader = 'config' | 'command' | 'sandbox';

export interface Option<T = unknown> {
  /** What it means, one sentence or two; the help and the README say it in these words. */
  help: string;
  kind: Kind<T>;
  /** Default `config`. */
  readBy?: Reader;
  /** The command-line flag with its value's placeholder, e.g. `--warehouse <file>`; a switch has none. */
  flag?: string;
  /** The commands whose command line takes the flag. */
  flagOf?: readonly CommandName[];
  /** The environment variable. */
  env?: string;
  /** A variable naming a file that holds the value (a secret, which is better not in the environment). */
  envFile?: string;
  /** The key in the config file (snake case). A secret has none: the file refuses it. */
  file?: string;
  /** The value when none is given. */
  default?: T;
  /** The default as the help and the README say it, when it is not a plain value (none, learned, computed). */
  defaultText?: string;
  /** Read for these commands only (the scheduler's own settings, which the commands it starts inherit). */
  only?: readonly CommandName[];
  /** The flag must be given. */
  required?: boolean;
  /** Never in the config file, never printed, never logged. */
  secret?: boolean;
  /** A flag given more than once keeps every value (the sandbox's `--api-key`). */
  repeatable?: boolean;
}

/** `--warehouse` of `--warehouse <file>`. */
export function longName(opt: Pick<Option, 'flag'>): string | undefined {
  return opt.flag?.split(/[ ,=]/).find((p) => p.startsWith('--'))?.slice(2);
}

/** How the default reads in the help and the README, or undefined when there is nothing to say. */
export function defaultOf<T>(opt: Option<T>): string | undefined {
  if (opt.defaultText !== undefined) return opt.defaultText;
  if (opt.default === undefined) return undefined;
  return opt.kind.show ? opt.kind.show(opt.default) : String(opt.default);
}
