import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option as CommanderOption } from 'commander';
import { QUERY_KIND_ALIASES, QUERY_KINDS } from '../pipeline/sync.js';
import { COMMAND_NEEDS, type ConfiguredCommand } from '../shared/config.js';
import { EtlError } from '../shared/errors.js';
import { flagHelp, flagOptions } from '../shared/options/docs.js';
import type { Option } from '../shared/options/option.js';
import type { OptionName } from '../shared/options/table.js';
import { COMMAND_NAMES, COMMAND_SUMMARIES, type CommandName } from './command-specs.js';
import { EXIT_CODES_HELP } from './exit-codes.js';

// The command line, made with commander from the commands (command-specs.ts) and the option table
// (src/shared/options/table.ts): each command, the flags it accepts with their variable and default, its help.
// Parsing only: what a command does is the pipeline's (commands.ts dispatches). A mistyped command or flag gets
// commander's suggestion ("Did you mean --documents?") and exit 2.

/** A parsed command line: the command, its flags by long name (`export-dir`), and the raw arguments after it. */
export interface Parsed {
  command: CommandName;
  flags: Record<string, string | boolean | undefined>;
  /** The arguments after the command name, as given (the sandbox and schedule read their own). */
  rest: string[];
}

/** What `--help` / `--version` printed, or a usage error already reported: nothing more to do. */
export class CliExit extends EtlError {
  constructor(readonly printed: string, readonly exitCode: 0 | 2) {
    super(exitCode === 0 ? 'CLI_PRINTED' : 'CLI_USAGE', printed.trim(), { usage: exitCode !== 0 });
  }
}

/** A flag as a command's help shows it. */
interface FlagSpec {
  /** e.g. `--port <n>`, `--sandbox`. */
  flag: string;
  /** What it does, with its variable and its default. */
  help: string;
  /** The only values it takes. */
  choices?: readonly string[];
  required?: boolean;
}

/** Values a flag allows that the pipeline names (the table, in src/shared, cannot import them). */
const CHOICES: Partial<Record<OptionName, readonly string[]>> = {
  queryKind: [...QUERY_KINDS, ...Object.keys(QUERY_KIND_ALIASES)],
};

const API_NEEDED = `
The API: LAWSUIT_API_KEY or LAWSUIT_API_KEY_FILE, and LAWSUIT_REQUESTS_URL, LAWSUIT_TRACKING_URL,
LAWSUIT_LAWSUITS_URL, LAWSUIT_TRANSFER_URL (not needed with --sandbox, nor with --dry-run but for a trackings
night's, which lists the key's trackings). Every variable: docs/operating.md.`;
const SCHEDULE_RULES = `
Runs the jobs until SIGTERM or SIGINT, one run at a time. On start, and after an occurrence missed while the
process was paused, a job whose last success is older than its period_hours runs at once; a run still going
after its period_hours is stopped with SIGTERM. On SIGTERM the running command gets SIGTERM and is waited for
(SIGKILL 5 s after its grace period, LAWSUIT_SHUTDOWN_GRACE_SECONDS, default 10; a second SIGTERM is passed on
at once); the scheduler then exits 0. A command that found the run lock held (exit 75, as it tells the
scheduler) is skipped-locked; any other exit 75, a night where nothing reached the upstream, is a failure.
Each job's run lock is its own command's (<warehouse>.lock of its warehouse), unless --lock names one for all.
/healthz answers 503 once a job failed LAWSUIT_HEALTH_MAX_FAILURES times in a row (default 3) or has not
succeeded for twice its period.
The jobs it starts need what their commands need (lawsuit-etl <command> --help). Every variable: docs/operating.md.`;

const RECEIVE_RULES = `
Needs LAWSUIT_CALLBACK_SECRET_FILE (or LAWSUIT_CALLBACK_SECRET): at least 32 characters, part of the URL it prints.
Each delivery is on disk in the spool (<warehouse>.spool/, or LAWSUIT_CALLBACK_SPOOL) before it is answered 2xx;
a wrong secret, a body not JSON, an unknown envelope or one over LAWSUIT_CALLBACK_MAX_BYTES is answered 4xx and
writes nothing. /healthz and /metrics are served on the same port. SIGTERM or SIGINT: what was accepted is
answered, the spool closed, exit 0; 2 for a bad configuration or a port that cannot be had, 75 when another
intake writes this spool. How to expose it behind a TLS terminator: docs/operating.md, "The webhook intake".
It sends nothing to the API: no key or address is needed. Every variable: docs/operating.md.`;

/** The help's closing text: what the command needs of the API (COMMAND_NEEDS says), and the exit codes. */
function footer(command?: CommandName): string {
  const sends = command === undefined || (command in COMMAND_NEEDS && COMMAND_NEEDS[command as ConfiguredCommand].api);
  if (command === 'schedule') return `${SCHEDULE_RULES}\n${EXIT_CODES_HELP}`;
  if (command === 'receive') return `${RECEIVE_RULES}\n${EXIT_CODES_HELP}`;
  if (command === 'sandbox') return '\nIt is the API: it needs no key or address of its own.';
  return sends ? `${API_NEEDED}\n${EXIT_CODES_HELP}` : `\nIt sends nothing to the API: no key or address is needed. Every variable: docs/operating.md.\n${EXIT_CODES_HELP}`;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** The flags a command accepts, as its help shows them. */
function flagsOf(command: CommandName): FlagSpec[] {
  return flagOptions(command).map(([name, o]) => flagSpec(name, o));
}

function flagSpec(name: OptionName, o: Option): FlagSpec {
  const choices = CHOICES[name] ?? o.kind.choices;
  return { flag: o.flag!, help: flagHelp(o), ...(choices ? { choices } : {}), ...(o.required ? { required: true } : {}) };
}

function optionOf(spec: FlagSpec): CommanderOption {
  const o = new CommanderOption(spec.flag, spec.help);
  if (spec.choices) o.choices(spec.choices);
  if (spec.required) o.makeOptionMandatory();
  return o;
}

function buildProgram(onParsed: (p: Parsed) => void, out: { text: string }): Command {
  const program = new Command('lawsuit-etl')
    .description('Nightly ETL from the Lawsuit Query Service (Brazilian court lawsuits) into a DuckDB warehouse and Parquet exports.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show the help (of a command: lawsuit-etl <command> --help)')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(lawsuit-etl --help lists the commands; lawsuit-etl <command> --help the flags of one)')
    .addHelpText('after', footer())
    .exitOverride()
    .configureOutput({ writeOut: (s) => { out.text += s; }, writeErr: (s) => { out.text += s; } });
  for (const name of COMMAND_NAMES) {
    // command() copies the suggestions, the exit override and the output from the program (copyInheritedSettings)
    const cmd = program.command(name).description(COMMAND_SUMMARIES[name]).addHelpText('after', footer(name));
    for (const spec of flagsOf(name)) cmd.addOption(optionOf(spec));
    cmd.action((_opts, c: Command) => {
      const flags: Record<string, string | boolean | undefined> = {};
      for (const o of c.options) {
        const v = c.getOptionValue(o.attributeName()) as string | boolean | undefined;
        if (v !== undefined) flags[o.long!.replace(/^--/, '')] = v;
      }
      onParsed({ command: name, flags, rest: [] });
    });
  }
  return program;
}

/**
 * argv (without node and the script) -> the command and its flags. `--help`, `--version` and every usage error
 * end in a CliExit carrying what to print and the exit code (0 or 2).
 */
export function parseCommandLine(argv: string[]): Parsed {
  const out = { text: '' };
  let parsed: Parsed | undefined;
  const program = buildProgram((p) => { parsed = p; }, out);
  if (argv.length === 0) throw new CliExit(program.helpInformation(), 0);
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      const ok = e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help';
      throw new CliExit(out.text || e.message, ok ? 0 : 2);
    }
    throw e;
  }
  if (!parsed) throw new CliExit(program.helpInformation(), 2);
  const at = argv.indexOf(parsed.command);
  return { ...parsed, rest: argv.slice(at + 1) };
}
