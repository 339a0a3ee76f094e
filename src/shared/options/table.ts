import { LOG_FORMATS } from '../logger.js';
import { CALLBACK_FSYNC_MODES, DEFAULT_DEADLINES_MS, EXPORT_PRIVACY_MODES, LAWSUIT_DETAILS, LOG_LEVELS, RESPONSES_STRATEGIES, RUN_SOURCES, type CallbackFsync, type LawsuitDetail, type ResponsesStrategy, type RunSource } from './values.js';
import { prices } from './prices.js';
import { baseAddress, callbackAddress } from './address.js';
import { bool, choice, decimal, int, listenAddress, nonNegative, seconds, size, text, type Kind } from './kinds.js';
import type { CommandName, Option } from './option.js';
import { sweepParams } from './sweep-params.js';

// Every option of every command, each declared once: its flag and the commands that take it, its variable, its
// config-file key, the kind of value with its limits, its default and what it means. The command line
// (src/cli/program.ts), the configuration (../config.ts), the sandbox's command line (src/cli/sandbox-args.ts), each
// command's --help and the documentation's tables (docs/operating.md) are made from this table; nothing else names a flag or a variable.
// Precedence: flag > variable > config file > default.

/** The commands that work on a warehouse. */
const ON_A_WAREHOUSE = ['run', 'export', 'transfer', 'query', 'track', 'doctor', 'report', 'rebuild'] as const satisfies readonly CommandName[];
/** The commands that call the API, and so can call an embedded sandbox instead. */
const CALLING = ['run', 'transfer', 'query', 'track', 'doctor'] as const satisfies readonly CommandName[];
const READING_A_LIST = ['run', 'query', 'track'] as const satisfies readonly CommandName[];
const DRY_RUNNABLE = ['run', 'transfer', 'query', 'track'] as const satisfies readonly CommandName[];
const REQUIRED_UNLESS_SANDBOX = 'none: required unless `--sandbox`';

const url = <E extends string>(resource: string, env: E, file: string) => ({
  help: `the base address of the ${resource} API`, kind: baseAddress(), env, file, defaultText: REQUIRED_UNLESS_SANDBOX,
});

export const OPTIONS = {
  // ---- read by loadConfig (../config.ts), into Config ----
  configFile: {
    help: 'a JSON file of defaults, keys in snake case (e.g. `{"freshness_days": 2}`); a flag or a variable wins over it, and a secret never belongs in it',
    kind: text(), env: 'LAWSUIT_CONFIG', defaultText: '`config/lawsuit-etl.json` when present',
  },
  logLevel: { help: 'pino level (`fatal` … `trace`, `silent`)', kind: choice(LOG_LEVELS, 'a level'), env: 'LOG_LEVEL', file: 'log_level', default: 'info' },
  logFormat: {
    help: '`json` (one JSON object per line) or `pretty` (plain lines)', kind: choice(LOG_FORMATS, 'a log format'), env: 'LOG_FORMAT',
    defaultText: '`pretty` on a terminal, `json` otherwise',
  },
  apiKey: {
    help: 'the `api-key` header value, or a file holding it (visible ASCII; a final newline in the file is dropped)', kind: text(),
    env: 'LAWSUIT_API_KEY', envFile: 'LAWSUIT_API_KEY_FILE', secret: true, defaultText: REQUIRED_UNLESS_SANDBOX,
  },
  requestsUrl: url('requests', 'LAWSUIT_REQUESTS_URL', 'requests_url'),
  trackingUrl: url('tracking', 'LAWSUIT_TRACKING_URL', 'tracking_url'),
  lawsuitsUrl: url('lawsuits', 'LAWSUIT_LAWSUITS_URL', 'lawsuits_url'),
  transferUrl: url('transfer-file', 'LAWSUIT_TRANSFER_URL', 'transfer_url'),
  warehouse: {
    help: 'the DuckDB warehouse', kind: text(), flag: '--warehouse <file>', flagOf: ON_A_WAREHOUSE, env: 'LAWSUIT_WAREHOUSE', file: 'warehouse',
    default: 'data/warehouse.duckdb',
  },
  lockFile: {
    help: 'the run lock, one run at a time on a warehouse across processes; `schedule` hands its own to the commands it starts',
    kind: text(), flag: '--lock <file>', flagOf: ['schedule'], env: 'LAWSUIT_LOCK_FILE', file: 'lock_file', defaultText: '`<warehouse>.lock`',
  },
  documents: {
    help: 'the documents list (CSV) of `run`, `query` and `track`', kind: text(), flag: '--documents <file>', flagOf: READING_A_LIST,
    env: 'LAWSUIT_DOCUMENTS', file: 'documents', defaultText: 'none: required unless `--sandbox` (then `config/documents.example.csv`)',
  },
  exportDir: {
    help: 'where the Parquet exports go', kind: text(), flag: '--export-dir <dir>', flagOf: ['run', 'export'], env: 'LAWSUIT_EXPORT_DIR',
    file: 'export_dir', default: 'data/exports',
  },
  stagingDir: { help: 'where transfer files are downloaded before loading', kind: text(), env: 'LAWSUIT_STAGING_DIR', file: 'staging_dir', default: 'data/staging' },
  reportsDir: { help: 'where the Markdown and HTML reports of each run go', kind: text(), env: 'LAWSUIT_REPORTS_DIR', file: 'reports_dir', default: 'data/reports' },
  sandbox: {
    help: 'start the embedded emulator of the service and point every base address at it (no key needed)', kind: bool(), flag: '--sandbox',
    flagOf: CALLING, env: 'LAWSUIT_SANDBOX', file: 'sandbox', default: false,
  },
  sandboxSeed: {
    help: 'with `--sandbox`: the seed of its synthetic data', kind: int(0, 2 ** 31 - 1), flag: '--seed <n>', flagOf: CALLING,
    env: 'LAWSUIT_SANDBOX_SEED', file: 'sandbox_seed', default: 1,
  },
  sandboxFaults: {
    help: 'with `--sandbox`: fault switches, e.g. `5xx=0.05,reset=0.02` (see "The sandbox")', kind: text(), flag: '--faults <spec>',
    flagOf: CALLING, env: 'LAWSUIT_SANDBOX_FAULTS', file: 'sandbox_faults', defaultText: 'none',
  },
  sandboxRateLimit: {
    help: 'with `--sandbox`: the calls a sliding minute the emulator allows the key (the provider documents 180; `npm start` raises it so that the tour ends in under a minute)',
    kind: int(1, 100_000_000), flag: '--sandbox-rate-limit <n>', flagOf: CALLING, env: 'LAWSUIT_SANDBOX_RATE_LIMIT', file: 'sandbox_rate_limit', default: 180,
  },
  sandboxCourtDelayMs: {
    help: 'with `--sandbox`: the time between two courts\' responses of a request, in ms', kind: int(0, 600_000),
    env: 'LAWSUIT_SANDBOX_COURT_DELAY_MS', file: 'sandbox_court_delay_ms', default: 0,
  },
  sandboxForbid: {
    help: 'with `--sandbox`: the resources its plan leaves out, answered 403 (`requests`, `responses`, `tracking`, `lawsuits`, `transfer`)',
    kind: text(), env: 'LAWSUIT_SANDBOX_FORBID', file: 'sandbox_forbid', defaultText: 'none',
  },
  sandboxDialect: {
    help: 'with `--sandbox`: the dialect it answers in, `documented` (the provider\'s documentation) or `spec` (the spec\'s literal reading)',
    kind: text(), env: 'LAWSUIT_SANDBOX_DIALECT', file: 'sandbox_dialect', defaultText: 'the emulator\'s, `documented`',
  },
  dryRun: {
    help: 'plan and print what would be sent and what it costs in calls; buy and change nothing, write nothing (no key needed, but `--source trackings` lists the key\'s trackings)', kind: bool(),
    flag: '--dry-run', flagOf: DRY_RUNNABLE, default: false,
  },
  force: { help: 'search documents even if searched within `LAWSUIT_FRESHNESS_DAYS`', kind: bool(), flag: '--force', flagOf: ['run'], default: false },
  source: {
    help: 'where the night\'s lawsuits come from: `searches` (a search bought per document) or `trackings` (the list reconciled with the key\'s trackings, then what their runs found since the last night; a newly tracked document is searched once)',
    kind: choice<RunSource>(RUN_SOURCES, 'a source'), flag: '--source <source>', flagOf: ['run'], env: 'LAWSUIT_SOURCE', file: 'source', default: 'searches',
  },
  detail: {
    help: 'how deep each lawsuit is kept: `whole` (every lawsuit found is read at the lawsuit level and kept whole: steps, phase, status), `active` (whole until archived or finished, then left as it stands) or `header` (the headers searches by document answer; nothing read at the lawsuit level)',
    kind: choice<LawsuitDetail>(LAWSUIT_DETAILS, 'a depth'), flag: '--detail <depth>', flagOf: ['run'], env: 'LAWSUIT_DETAIL', file: 'detail', default: 'whole',
  },
  prices: {
    help: 'what the provider bills, for the plan\'s and the report\'s cost in money: `document_search=<per 1,000 lawsuits returned>,lawsuit_search=<per read>,tracking_month=<per tracking a month>,attachments=<per read that asks for them>`, each optional',
    kind: prices(), env: 'LAWSUIT_PRICES', file: 'prices', defaultText: 'none: costs in calls only',
  },
  allowPause: {
    help: 'with `--source trackings`: let the night pause more than a tenth of the trackings (documents dropped from the list on purpose)',
    kind: bool(), flag: '--allow-pause', flagOf: ['run'], env: 'LAWSUIT_ALLOW_PAUSE', file: 'allow_pause', default: false,
  },
  skipTransfer: {
    help: 'leave the transfer stage out of `run`', kind: bool(), flag: '--skip-transfer', flagOf: ['run'], env: 'LAWSUIT_SKIP_TRANSFER',
    file: 'skip_transfer', default: false,
  },
  skipExport: {
    help: 'leave the exports stage out of `run`', kind: bool(), flag: '--skip-export', flagOf: ['run'], env: 'LAWSUIT_SKIP_EXPORT',
    file: 'skip_export', default: false,
  },
  freshnessDays: {
    help: 'a document whose last successful search is younger than this many days is not searched again', kind: int(0, 3650),
    env: 'LAWSUIT_FRESHNESS_DAYS', file: 'freshness_days', default: 1,
  },
  pageSize: {
    help: 'items per page when reading responses, pinned (see "The provider\'s dialect"); always under the byte budget of a page',
    kind: int(1, 1000), env: 'LAWSUIT_PAGE_SIZE', file: 'page_size', defaultText: 'the largest the upstream serves, learned (up to 1000)',
  },
  maxConcurrency: {
    help: 'ceiling on API calls in flight (the limiter finds the real budget below it)', kind: int(1, 256), env: 'LAWSUIT_MAX_CONCURRENCY',
    file: 'max_concurrency', default: 16,
  },
  // Default 1: a night is daily and a tracking is priced by the month, not by the run (REFERENCE.md, "What is
  // billed"), so a daily tracking keeps a trackings night as fresh as a searches night at no extra cost; with 7 a
  // change could wait a week and a silent tracking be noticed only after two weeks.
  trackingRecurrenceDays: {
    help: 'recurrence of new trackings, in days (existing trackings keep theirs)', kind: int(1, 365), env: 'LAWSUIT_TRACKING_RECURRENCE',
    file: 'tracking_recurrence_days', default: 1,
  },
  duckdbMemoryLimit: {
    help: 'DuckDB\'s memory limit for the run (it spills to disk beyond it; see "Memory")', kind: size(), env: 'LAWSUIT_DUCKDB_MEMORY_LIMIT',
    file: 'duckdb_memory_limit', default: '128MB',
  },
  duckdbThreads: {
    help: 'DuckDB worker threads; fewer threads hold less memory', kind: int(1, 64), env: 'LAWSUIT_DUCKDB_THREADS', file: 'duckdb_threads', default: 1,
  },
  maxWaitMinutes: {
    help: 'the wait budget, in minutes (decimals allowed): how long a run waits for its requests after the last submission, and how long a stage goes on retrying an upstream that keeps failing, from its start (see "Deadlines"); what is left waits for the next run',
    kind: decimal(0, 1440), env: 'LAWSUIT_MAX_WAIT_MINUTES', file: 'max_wait_minutes', default: 120,
  },
  connectMs: {
    help: 'the deadline for opening a connection to the service or to a download address, in seconds (see "Deadlines")', kind: seconds(0.01, 600),
    env: 'LAWSUIT_CONNECT_TIMEOUT_SECONDS', file: 'connect_timeout_seconds', default: DEFAULT_DEADLINES_MS.connectMs,
  },
  headersMs: {
    help: 'the deadline from sending a call to the last byte of its answer\'s headers, in seconds', kind: seconds(0.01, 3600),
    env: 'LAWSUIT_HEADERS_TIMEOUT_SECONDS', file: 'headers_timeout_seconds', default: DEFAULT_DEADLINES_MS.headersMs,
  },
  bodyMs: {
    help: 'the deadline from an answer\'s headers to the last byte of its whole body (not the gap between two chunks), in seconds',
    kind: seconds(0.01, 3600), env: 'LAWSUIT_BODY_TIMEOUT_SECONDS', file: 'body_timeout_seconds', default: DEFAULT_DEADLINES_MS.bodyMs,
  },
  downloadMs: {
    help: 'the deadline of a transfer file\'s whole download body, in seconds', kind: seconds(0.01, 86_400),
    env: 'LAWSUIT_DOWNLOAD_TIMEOUT_SECONDS', file: 'download_timeout_seconds', default: DEFAULT_DEADLINES_MS.downloadMs,
  },
  shutdownGraceMs: {
    help: 'after SIGTERM, how long the run has to commit and publish what it loaded before it exits at once, in seconds; `schedule` waits this long and 5 s more for its command before SIGKILL',
    kind: seconds(0, 600), env: 'LAWSUIT_SHUTDOWN_GRACE_SECONDS', file: 'shutdown_grace_seconds', default: 10_000,
  },
  responsesStrategy: {
    help: 'how responses are read: `sweep` (across requests by creation time, checked on its pages, falling back to per-request reading) or `per-request`',
    kind: choice<ResponsesStrategy>(RESPONSES_STRATEGIES, 'a strategy', { per_request: 'per-request' }), env: 'LAWSUIT_RESPONSES_STRATEGY',
    file: 'responses_strategy', default: 'sweep',
  },
  sweepParams: {
    help: 'names of the `GET /responses` filters the sweep sends, pinned: `role=name[:value]` pairs over `created_gte=created_at_gte,created_lte=created_at_lte,order_by=order_by:created_at,order=order:asc` (see "The provider\'s dialect")',
    kind: sweepParams(), env: 'LAWSUIT_SWEEP_PARAMS', file: 'sweep_params',
    defaultText: 'the sort names the upstream was seen to honour (the documented ones first), learned',
  },
  exportPrivacy: {
    help: '`pseudonymise`: the exports replace natural persons\' CPFs and names (and lawyers\' names) by keyed hashes and leave out lawsuits under secrecy (see "Sharing exports (LGPD)"); `off`',
    kind: choice(EXPORT_PRIVACY_MODES, 'a privacy mode'), env: 'LAWSUIT_EXPORT_PRIVACY', file: 'export_privacy', default: 'off',
  },
  exportSalt: {
    help: 'the secret key of those hashes, or a file holding it: at least 32 characters, kept (the same key gives the same pseudonyms)',
    kind: text(), env: 'LAWSUIT_EXPORT_SALT', envFile: 'LAWSUIT_EXPORT_SALT_FILE', secret: true,
    defaultText: 'none: required with `pseudonymise` by `run` and `export`',
  },
  exportMaxSecrecy: {
    help: 'lawsuits whose `secrecy_level` is above this (an unknown level counts as 5) are left out of the exports with all their rows',
    kind: int(0, 5), env: 'LAWSUIT_EXPORT_MAX_SECRECY', file: 'export_max_secrecy', defaultText: '`0` with `pseudonymise`, else `5` (none left out)',
  },
  summaryFile: {
    help: 'a command writes how it ended (its run summary, JSON) to this file; `schedule` sets it for each command it starts',
    kind: text(), env: 'LAWSUIT_SUMMARY_FILE', file: 'summary_file', defaultText: 'none',
  },
  jobsDir: {
    help: 'the job files of `schedule`', kind: text(), flag: '--jobs <dir>', flagOf: ['schedule'], env: 'LAWSUIT_JOBS_DIR', file: 'jobs_dir',
    only: ['schedule'], defaultText: '`jobs/` of the installation',
  },
  statePath: {
    help: 'where `schedule` keeps the last success of each job', kind: text(), flag: '--state <file>', flagOf: ['schedule'],
    env: 'LAWSUIT_SCHEDULE_STATE', file: 'schedule_state', only: ['schedule'], default: 'data/schedule-state.json',
  },
  metricsPort: {
    help: '`schedule` serves `/healthz`, `/livez` and Prometheus `/metrics` on this port (0: any free port)', kind: int(0, 65_535),
    flag: '--metrics-port <n>', flagOf: ['schedule'], env: 'LAWSUIT_METRICS_PORT', file: 'metrics_port', only: ['schedule'],
    defaultText: 'off (`9464` in the container image)',
  },
  metricsHost: {
    help: 'the address the metrics port listens on', kind: listenAddress(), env: 'LAWSUIT_METRICS_HOST', file: 'metrics_host', defaultText: 'all interfaces',
  },
  callbackUrl: {
    help: 'sent as `callback_url` with every request and tracking made: the intake\'s URL as the provider reaches it (what `receive` prints, or its public form behind a TLS terminator), carrying the secret; what is pushed there is loaded from the spool, and only what is missing is listed (see "The webhook intake")',
    kind: callbackAddress(), env: 'LAWSUIT_CALLBACK_URL', secret: true, defaultText: 'off: results are listed',
  },
  callbackSecret: {
    help: 'the secret part of the callback URL, or a file holding it: at least 32 characters of `A-Z a-z 0-9 . _ ~ -` (e.g. `openssl rand -hex 32`); a delivery without it is refused and writes nothing',
    kind: text(), env: 'LAWSUIT_CALLBACK_SECRET', envFile: 'LAWSUIT_CALLBACK_SECRET_FILE', secret: true, defaultText: 'none: required by `receive`',
  },
  callbackPort: {
    help: 'the port the webhook intake listens on (0: any free port); `schedule` runs the intake beside its jobs when it is set',
    kind: int(0, 65_535), flag: '--port <n>', flagOf: ['receive'], env: 'LAWSUIT_CALLBACK_PORT', file: 'callback_port', defaultText: '8081 (`schedule`: no intake)',
  },
  callbackHost: {
    help: 'the address the webhook intake listens on (to expose it, put a TLS terminator in front: see "The webhook intake")', kind: listenAddress(),
    flag: '--host <host>', flagOf: ['receive'], env: 'LAWSUIT_CALLBACK_HOST', file: 'callback_host', default: '127.0.0.1',
  },
  callbackSpool: {
    help: 'the folder the intake writes each delivery to before answering it, and the night reads them from; never the warehouse itself, which a night holds',
    kind: text(), env: 'LAWSUIT_CALLBACK_SPOOL', file: 'callback_spool', defaultText: '`<warehouse>.spool`',
  },
  callbackMaxBytes: {
    help: 'the largest delivery the intake takes, in bytes: a larger one is answered 413 and writes nothing', kind: int(1_024, 2 ** 30),
    env: 'LAWSUIT_CALLBACK_MAX_BYTES', file: 'callback_max_bytes', default: 16 * 2 ** 20,
  },
  callbackFsync: {
    help: '`batch`: the deliveries that arrive while a write is on its way to disk share the next fsync (group commit); `delivery`: one fsync each. Either way a delivery is answered 2xx only once it is on disk',
    kind: choice<CallbackFsync>(CALLBACK_FSYNC_MODES, 'an fsync mode'), env: 'LAWSUIT_CALLBACK_FSYNC', file: 'callback_fsync', default: 'batch',
  },
  callbackWaitMs: {
    help: 'with a callback URL: how long the night waits for the deliveries of its finished requests still on their way (the provider retries), in seconds, before it lists what is missing',
    kind: seconds(0, 3_600), env: 'LAWSUIT_CALLBACK_WAIT_SECONDS', file: 'callback_wait_seconds', default: 30_000,
  },
  healthMaxFailures: {
    help: '`/healthz` answers 503 once a job\'s runs failed this many times in a row', kind: int(1, 1000), env: 'LAWSUIT_HEALTH_MAX_FAILURES',
    file: 'health_max_failures', default: 3,
  },

  // ---- one command's own arguments ----
  queryKind: {
    help: 'which synchronous query (`true-false` is `exists`: the spec shows one endpoint for both)', kind: text(), readBy: 'command',
    flag: '--kind <kind>', flagOf: ['query'], required: true,
  },
  reportRun: { help: 'the run to report on (`runs.run_id`)', kind: text(), readBy: 'command', flag: '--run <id>', flagOf: ['report'], defaultText: 'the last run' },

  // ---- the emulator's server, `lawsuit-etl sandbox` (src/cli/sandbox-args.ts); named as its SandboxOptions ----
  port: { help: 'the port to listen on (0: any free port)', kind: nonNegative(), readBy: 'sandbox', flag: '--port <n>', flagOf: ['sandbox'], default: 0 },
  host: { help: 'the address to listen on', kind: text(), readBy: 'sandbox', flag: '--host <host>', flagOf: ['sandbox'], defaultText: '127.0.0.1' },
  seed: { help: 'the seed of the synthetic universe and of fault draws', kind: nonNegative(), readBy: 'sandbox', flag: '--seed <n>', flagOf: ['sandbox'], defaultText: '1' },
  apiKeys: {
    help: 'a key the sandbox accepts (repeatable)', kind: text(), readBy: 'sandbox', flag: '--api-key <key>', flagOf: ['sandbox'], repeatable: true,
    defaultText: '`sandbox-key` (and `sandbox-noperm`, `sandbox-overquota`: answered 403)',
  },
  lawsuits: { help: 'lawsuit instances in the universe', kind: nonNegative(), readBy: 'sandbox', flag: '--lawsuits <n>', flagOf: ['sandbox'], defaultText: '20000' },
  rateLimit: { help: 'calls per rate window per key', kind: nonNegative(), readBy: 'sandbox', flag: '--rate-limit <n>', flagOf: ['sandbox'], defaultText: '180' },
  rateWindowMs: { help: 'the sliding rate window, in ms', kind: nonNegative(), readBy: 'sandbox', flag: '--rate-window-ms <n>', flagOf: ['sandbox'], defaultText: '60000' },
  courtDelayMs: {
    help: 'the time between two courts\' responses of a request, in ms', kind: nonNegative(), readBy: 'sandbox', flag: '--court-delay-ms <n>',
    flagOf: ['sandbox'], default: 1500,
  },
  faults: {
    help: 'fault switches, comma-separated `name=rate[:ms]` (see "Faults")', kind: text(), readBy: 'sandbox', flag: '--faults <spec>', flagOf: ['sandbox'],
    defaultText: 'none',
  },
  transferFaults: {
    help: 'transfer-file fault switches, `;`-separated (see "The sandbox")', kind: text(), readBy: 'sandbox', flag: '--transfer-faults <spec>',
    flagOf: ['sandbox'], defaultText: 'none',
  },
  now: { help: 'the sandbox clock\'s start (ISO 8601)', kind: text(), readBy: 'sandbox', flag: '--now <iso>', flagOf: ['sandbox'], defaultText: 'the real time' },
  bootId: {
    help: 'pins the boot id in every id it hands out (tests)', kind: text(), readBy: 'sandbox', flag: '--boot-id <id>', flagOf: ['sandbox'],
    defaultText: 'random per process',
  },
  forbid: {
    help: 'resources its plan leaves out, answered 403: `requests`, `responses`, `tracking`, `lawsuits`, `transfer`', kind: text(), readBy: 'sandbox',
    flag: '--forbid <resources>', flagOf: ['sandbox'], defaultText: 'none',
  },
  retentionMs: {
    help: 'how long a finished request and its responses are kept, in ms', kind: nonNegative(), readBy: 'sandbox', flag: '--retention-ms <n>',
    flagOf: ['sandbox'], defaultText: '43200000 (12 h)',
  },
  dayMs: {
    help: 'real milliseconds a sandbox day lasts (the clock runs faster below a day)', kind: text(), readBy: 'sandbox', flag: '--day-ms <n>',
    flagOf: ['sandbox'], defaultText: '86400000',
  },
  trackingRuns: {
    help: 'what a tracking\'s run sends after its first: `changed` (the lawsuits changed since the previous run) or `every` (every lawsuit found)',
    kind: text(), readBy: 'sandbox', flag: '--tracking-runs <content>', flagOf: ['sandbox'], defaultText: '`changed`',
  },
  dialect: {
    help: 'the API\'s dialect: `documented` (the provider\'s documentation) or `spec` (the spec\'s literal reading)', kind: text(), readBy: 'sandbox',
    flag: '--dialect <name>', flagOf: ['sandbox'], defaultText: 'the emulator\'s, `documented`',
  },
  callbackRetryMs: {
    help: 'a delivery to a `callback_url` not answered 2xx is tried again after this wait, doubled for each attempt after it (at most 60 s), in ms',
    kind: nonNegative(), readBy: 'sandbox', flag: '--callback-retry-ms <n>', flagOf: ['sandbox'], defaultText: '1000',
  },
  callbackAttempts: {
    help: 'attempts of one delivery to a `callback_url` before it is given up (the receiver must then catch up by listing)', kind: int(1, 1000),
    readBy: 'sandbox', flag: '--callback-attempts <n>', flagOf: ['sandbox'], defaultText: '8',
  },
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry keeps its own value type; ValueOf reads it
} as const satisfies Record<string, Option<any>>;

export type OptionName = keyof typeof OPTIONS;
/** The type of an option's value. */
export type ValueOf<K extends OptionName> = (typeof OPTIONS)[K]['kind'] extends Kind<infer T> ? T : never;
