import { parseArgs } from 'node:util';
import { EtlError, EXIT } from '../shared/errors.js';

export const COMMANDS = ['run', 'schedule', 'sandbox', 'export', 'transfer', 'query', 'track'] as const;
export type Command = (typeof COMMANDS)[number];

export const HELP = `lawsuit-etl: nightly ETL from the Lawsuit Query Service into DuckDB and Parquet

usage: lawsuit-etl <command> [flags]

commands:
  run        one nightly run: documents -> requests -> responses -> warehouse -> transfer files -> exports
  schedule   long-running: the cron jobs under jobs/ (node-cron), never two runs at once
  sandbox    serve the emulator of the service: --port N (0: any), --seed N, --api-key K, --lawsuits N,
             --court-delay-ms N, --rate-limit N, --faults SPEC; prints its base address first
  export     write the Parquet exports from the warehouse
  transfer   list, download, load and mark transfer files
  query      synchronous queries for the documents list: --kind exists|count|grouped|historical
  track      make sure every document in the list has a tracking record

common flags:
  --documents FILE   documents list (CSV)               env LAWSUIT_DOCUMENTS, default config/documents.example.csv
  --warehouse FILE   DuckDB file                         env LAWSUIT_WAREHOUSE, default data/warehouse.duckdb
  --export-dir DIR   Parquet exports                     env LAWSUIT_EXPORT_DIR, default data/exports
  --sandbox          start the embedded emulator and point every base address at it (no key needed)
  --seed N           sandbox seed (with --sandbox)
  --faults SPEC      sandbox fault switches (with --sandbox), e.g. 5xx=0.05,reset=0.02
  --dry-run          plan and print what would be sent and what it costs in calls; send nothing
  --force            search documents even if searched within LAWSUIT_FRESHNESS_DAYS
  --skip-transfer    run: leave out the transfer-file step
  --skip-export      run: leave out the export step
  --help             this text

environment: LAWSUIT_API_KEY or LAWSUIT_API_KEY_FILE, LAWSUIT_REQUESTS_URL, LAWSUIT_TRACKING_URL,
  LAWSUIT_LAWSUITS_URL, LAWSUIT_TRANSFER_URL, LOG_LEVEL (see README.md for the rest)

exit codes: 0 all done; 1 unexpected failure; 2 bad usage or configuration; 3 authentication or
  permission refused by the API; 4 finished, but some documents or files failed`;

export interface ParsedArgs {
  command?: Command;
  help: boolean;
  flags: Record<string, string | boolean | undefined>;
  rest: string[];
}

const OPTIONS = {
  documents: { type: 'string' }, warehouse: { type: 'string' }, 'export-dir': { type: 'string' },
  sandbox: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  seed: { type: 'string' }, faults: { type: 'string' }, kind: { type: 'string' },
  'skip-transfer': { type: 'boolean' }, 'skip-export': { type: 'boolean' },
} as const;

/** argv (without node and script) -> command and flags. The sandbox and schedule commands parse their own flags. */
export function parseCli(argv: string[]): ParsedArgs {
  const [first, ...tail] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') return { help: true, flags: {}, rest: [] };
  if (!(COMMANDS as readonly string[]).includes(first)) {
    throw new EtlError('CLI_UNKNOWN_COMMAND', `unknown command ${JSON.stringify(first)} (allowed: ${COMMANDS.join(', ')}); see lawsuit-etl --help`, { exitCode: EXIT.usage });
  }
  const command = first as Command;
  if (command === 'sandbox' || command === 'schedule') {
    return { command, help: tail.includes('--help') || tail.includes('-h'), flags: {}, rest: tail };
  }
  try {
    const { values, positionals } = parseArgs({ args: tail, options: OPTIONS, allowPositionals: true, strict: true });
    if (positionals.length) throw new Error(`unexpected argument ${JSON.stringify(positionals[0])}`);
    return { command, help: values.help === true, flags: values as Record<string, string | boolean | undefined>, rest: [] };
  } catch (e) {
    throw new EtlError('CLI_BAD_FLAGS', `${command}: ${(e as Error).message}; see lawsuit-etl --help`, { exitCode: EXIT.usage });
  }
}
