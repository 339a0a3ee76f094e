/**
 * A command-line flag as the CLI declares it (commander): its form, its help (with its variable and default),
 * and the values it allows. The sandbox and the scheduler declare theirs beside the code that reads them.
 */
export interface FlagSpec {
  /** e.g. `--port <n>`, `--sandbox`. */
  flag: string;
  /** What it does, with its environment variable and its default. */
  help: string;
  /** The only values it takes. */
  choices?: readonly string[];
  /** It must be given. */
  required?: boolean;
}
