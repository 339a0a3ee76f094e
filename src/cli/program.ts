import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { QUERY_KIND_ALIASES, QUERY_KINDS } from '../pipeline/sync.js';
import { SANDBOX_FLAGS } from '../sandbox/cli.js';
import { SCHEDULE_FLAGS } from '../schedule/command.js';
import { COMMAND_NEEDS, RUN_SOURCES, type ConfiguredCommand } from '../shared/config.js';
import { EtlError } from '../shared/errors.js';
import type { FlagSpec } from '../shared/flag-spec.js';

// The command line, declared once with commander: each command, the flags it accepts (with their variable and
// default), its help. Parsing only: what a command does is the pipeline's (commands.ts dispatches). A mistyped
// command or flag gets commander's suggestion ("Did you mean --documents?") and exit 2.

export const COMMAND_NAMES = ['run', 'schedule', 'sandbox', 'export', 'transfer', 'query', 'track', 'doctor', 'report', 'rebuild'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** A parsed command line: the command, its flags by long name (`export-dir`), and the raw arguments after it. */
export interface Parsed {
  command: CommandName;
  flags: Record<string, string | boolean | undefined>;
  /** The arguments after the command name, as given (the sandbox and schedule parse their own). */
  rest: string[];
}

/** What `--help` / `--version` printed, or a usage error already reported: nothing more to do. */
export class CliExit extends EtlError {
  constructor(readonly printed: string, exitCode: 0 | 2) {
    super(exitCode === 0 ? 'CLI_PRINTED' : 'CLI_USAGE', printed.trim(), { exitCode });
  }
}

/** The flags of the pipeline's commands: long name -> how it reads in the help. One declaration for all. */
const FLAGS: Record<string, FlagSpec> = {
  documents: { flag: '--documents <file>', help: 'the documents list (CSV); env LAWSUIT_DOCUMENTS; no default, except with --sandbox: config/documents.example.csv' },
  warehouse: { flag: '--warehouse <file>', help: 'the DuckDB warehouse; env LAWSUIT_WAREHOUSE; default data/warehouse.duckdb' },
  'export-dir': { flag: '--export-dir <dir>', help: 'where the Parquet exports go; env LAWSUIT_EXPORT_DIR; default data/exports' },
  sandbox: { flag: '--sandbox', help: 'start the embedded emulator of the service and point every base address at it (no key needed); env LAWSUIT_SANDBOX' },
  seed: { flag: '--seed <n>', help: 'with --sandbox: the sandbox seed; env LAWSUIT_SANDBOX_SEED; default 1' },
  faults: { flag: '--faults <spec>', help: 'with --sandbox: fault switches, e.g. 5xx=0.05,reset=0.02; env LAWSUIT_SANDBOX_FAULTS; default none' },
  'dry-run': { flag: '--dry-run', help: 'plan and print what would be sent and what it costs in calls; send nothing, write nothing (no key needed)' },
  source: { flag: '--source <source>', help: 'where the night\'s lawsuits come from: a search per document, or the runs of each document\'s tracking; env LAWSUIT_SOURCE; default searches', choices: RUN_SOURCES },
  'allow-pause': { flag: '--allow-pause', help: 'with --source trackings: let the night pause more than a tenth of the trackings (documents dropped from the list); env LAWSUIT_ALLOW_PAUSE' },
  force: { flag: '--force', help: 'search documents even if searched within LAWSUIT_FRESHNESS_DAYS (default 1 day)' },
  'skip-transfer': { flag: '--skip-transfer', help: 'leave out the transfer stage; env LAWSUIT_SKIP_TRANSFER' },
  'skip-export': { flag: '--skip-export', help: 'leave out the exports stage; env LAWSUIT_SKIP_EXPORT' },
  kind: { flag: '--kind <kind>', help: 'which synchronous query (true-false is exists: one endpoint)', choices: [...QUERY_KINDS, ...Object.keys(QUERY_KIND_ALIASES)], required: true },
  run: { flag: '--run <id>', help: 'the run to report on (runs.run_id); default the last run' },
};

interface CommandSpec { summary: string; flags: readonly string[] | readonly FlagSpec[] }

const COMMANDS: Record<CommandName, CommandSpec> = {
  run: {
    summary: 'one nightly run: documents -> searches -> warehouse -> transfer files -> changes -> exports -> publish',
    flags: ['documents', 'warehouse', 'export-dir', 'sandbox', 'seed', 'faults', 'dry-run', 'source', 'allow-pause', 'force', 'skip-transfer', 'skip-export'],
  },
  schedule: { summary: 'long-running: the cron jobs under jobs/ (node-cron), one run at a time, with health and metrics', flags: SCHEDULE_FLAGS },
  sandbox: { summary: 'serve the emulator of the service (all four base addresses on one port) until SIGTERM', flags: SANDBOX_FLAGS },
  export: { summary: 'write the Parquet exports from the published warehouse (read-only: works beside analysts)', flags: ['warehouse', 'export-dir'] },
  transfer: { summary: 'list, download, load and mark the provider\'s transfer files', flags: ['warehouse', 'sandbox', 'seed', 'faults', 'dry-run'] },
  query: { summary: 'a synchronous query for every document of the list, stored per run', flags: ['kind', 'documents', 'warehouse', 'sandbox', 'seed', 'faults', 'dry-run'] },
  track: { summary: 'make sure every document of the list has exactly one tracking', flags: ['documents', 'warehouse', 'sandbox', 'seed', 'faults', 'dry-run'] },
  doctor: {
    summary: 'probe the key and its base addresses (at most 9 calls): page size, sort names, envelope, rate headers and resources refused; prints them and remembers them in the warehouse',
    flags: ['warehouse', 'sandbox', 'seed', 'faults'],
  },
  report: { summary: 'write the run report (Markdown and HTML) again for a run', flags: ['warehouse', 'run'] },
  rebuild: { summary: 'derive every table that comes from response payloads again from responses_raw; calls no API', flags: ['warehouse'] },
};

const API_NEEDED = `
The API: LAWSUIT_API_KEY or LAWSUIT_API_KEY_FILE, and LAWSUIT_REQUESTS_URL, LAWSUIT_TRACKING_URL,
LAWSUIT_LAWSUITS_URL, LAWSUIT_TRANSFER_URL (not needed with --sandbox or --dry-run). Every variable: README.md.`;
const EXIT_CODES = `
Exit codes: 0 all done; 1 unexpected failure; 2 bad usage or configuration; 3 the API key was refused;
4 finished, but some documents, files or stages failed or were refused, the wait budget ran out, or the run
was stopped by SIGTERM (what it loaded is published; a second signal, or the end of the grace period
LAWSUIT_SHUTDOWN_GRACE_SECONDS, exits 4 at once); 75 try later: another run holds the lock, or nothing reached
the upstream all night (nothing new published). Every call has deadlines (LAWSUIT_*_TIMEOUT_SECONDS).`;

const SCHEDULE_RULES = `
Runs the jobs until SIGTERM or SIGINT, one run at a time. On start, and after an occurrence missed while the
process was paused, a job whose last success is older than its period_hours runs at once; a run still going
after its period_hours is stopped with SIGTERM. On SIGTERM the running command gets SIGTERM and is waited for
(SIGKILL 5 s after its grace period, LAWSUIT_SHUTDOWN_GRACE_SECONDS, default 10; a second SIGTERM is passed on
at once); the scheduler then exits 0. A command's exit 75 is skipped-locked while another run holds the lock,
a failure otherwise.
/healthz answers 503 once a job failed LAWSUIT_HEALTH_MAX_FAILURES times in a row (default 3) or has not
succeeded for twice its period.
The jobs it starts need what their commands need (lawsuit-etl <command> --help). Every variable: README.md.`;

/** The help's closing text: what the command needs of the API (COMMAND_NEEDS says), and the exit codes. */
function footer(command?: CommandName): string {
  const sends = command === undefined || (command in COMMAND_NEEDS && COMMAND_NEEDS[command as ConfiguredCommand].api);
  if (command === 'schedule') return `${SCHEDULE_RULES}\n${EXIT_CODES}`;
  if (command === 'sandbox') return '\nIt is the API: it needs no key or address of its own.';
  return sends ? `${API_NEEDED}\n${EXIT_CODES}` : `\nIt sends nothing to the API: no key or address is needed. Every variable: README.md.\n${EXIT_CODES}`;
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** The flags a command accepts, resolved to their declarations, for its help and for the tests. */
export function flagsOf(command: CommandName): FlagSpec[] {
  return COMMANDS[command].flags.map((f) => (typeof f === 'string' ? FLAGS[f] : f));
}

function optionOf(spec: FlagSpec): Option {
  const o = new Option(spec.flag, spec.help);
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
    const cmd = program.command(name).description(COMMANDS[name].summary).addHelpText('after', footer(name));
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
