import { accessSync, constants as fsc, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from './errors.js';

/** Everything a command needs, read once at start-up and validated in one pass. */
export interface Config {
  /** The `api-key` header value. Required unless `sandbox`. Never logged. */
  apiKey?: string;
  /** The four base addresses. Required unless `sandbox` (then they point at the embedded emulator). */
  urls: { requests: string; tracking: string; lawsuits: string; transfer: string };
  /** DuckDB file. Default `data/warehouse.duckdb`. */
  warehouse: string;
  /**
   * Documents list (CSV). Required by `run`, `query` and `track` (no default against the real service: the
   * example list must never be searched, and paid for, by mistake); with `sandbox` it defaults to
   * `config/documents.example.csv`. Undefined for commands that read no list.
   */
  documents?: string;
  /** Parquet exports folder. Default `data/exports`. */
  exportDir: string;
  /** Where transfer files are downloaded before loading. Default `data/staging`. */
  stagingDir: string;
  /** Where each run's Markdown report is written. Default `data/reports`. */
  reportsDir: string;
  /** pino level. Default `info`. */
  logLevel: string;
  /** Start the embedded sandbox and point every base address at it. */
  sandbox: boolean;
  /** Plan and print; send nothing. */
  dryRun: boolean;
  /** Search even documents searched within `freshnessDays`. */
  force: boolean;
  /** A document whose last successful search is younger than this many days is not searched again. Default 1. */
  freshnessDays: number;
  /**
   * Items per page when reading responses (1..1000). Default: the largest the upstream serves, learned (up to
   * 1000; README, "The provider's dialect"). Always under the byte budget of a page.
   */
  pageSize: number | undefined;
  /** Ceiling on concurrent API calls; the limiter learns the real budget below it. Default 16. */
  maxConcurrency: number;
  /**
   * Recurrence of the trackings this tool makes, in days (REFERENCE.md: the unit is days), 1 to 365;
   * LAWSUIT_TRACKING_RECURRENCE. Default 1: a night is daily, and a tracking is priced by the month, not by the run
   * (REFERENCE.md, "What is billed"), so a daily tracking keeps a trackings night as fresh as a searches night
   * (LAWSUIT_FRESHNESS_DAYS, default 1) at no extra cost; a longer one lets a lawsuit's change wait up to that
   * many days, and a silent tracking is searched only after two recurrences. Existing trackings keep theirs (the
   * service offers no update).
   */
  trackingRecurrenceDays: number;
  /**
   * Where `run` takes a night's lawsuits from (flag `--source`, LAWSUIT_SOURCE): `searches`, one search bought per
   * document; `trackings`, the runs of each document's tracking since the last night, after reconciling the list
   * with the key's trackings (a newly tracked document is searched once). Default `searches`.
   */
  source: RunSource;
  /**
   * A trackings night may pause more than a tenth of the trackings (flag `--allow-pause`, LAWSUIT_ALLOW_PAUSE).
   * Default false: a list cut short must not silently pause a portfolio.
   */
  allowPause: boolean;
  /** Sandbox seed when `sandbox` is on. Default 1. */
  sandboxSeed: number;
  /** Sandbox per-court delay in ms when `sandbox` is on. Default 0. */
  sandboxCourtDelayMs: number;
  /** Sandbox fault spec when `sandbox` is on (see README). Default none. */
  sandboxFaults?: string;
  /** DuckDB's memory limit for the run (it spills to disk beyond it), e.g. `256MB`. Default `128MB`. */
  duckdbMemoryLimit: string;
  /** DuckDB worker threads; fewer threads hold less memory. Default 1. */
  duckdbThreads: number;
  /**
   * The wait budget, in minutes (decimals allowed): how long a run waits for its requests to finish after the last
   * submission (what is still running then stays outstanding for the next run, and the night is published with
   * the rest); and how long a stage that calls the API goes on retrying an upstream that keeps failing, from the
   * stage's start (past it nothing is retried, and the first failure ends the stage's calls). Default 120, at
   * most 1440; 0 waits for nothing.
   */
  maxWaitMinutes: number;
  /**
   * How long one call may take, each part on its own; a call past one is cut off and fails as a time-out, which
   * the failure policy retries as any (within the wait budget). See CallDeadlines.
   */
  deadlines: CallDeadlines;
  /**
   * After SIGTERM, how long the run may take to commit what it loaded and publish it, in ms
   * (LAWSUIT_SHUTDOWN_GRACE_SECONDS, decimals allowed, 0 to 600). Calls in flight are cut off at once; at the end of
   * the grace period, or at a second SIGTERM, the process exits at once (143). Default 10 000. `schedule` waits this
   * long, and 5 s more, for its running command before SIGKILL.
   */
  shutdownGraceMs: number;
  /** Resources the embedded sandbox's plan leaves out (answered 403), e.g. `transfer`. Default none. */
  sandboxForbid?: string;
  /** The embedded sandbox's dialect, `documented` or `spec` (checked where the sandbox starts). Default the sandbox's. */
  sandboxDialect?: string;
  /** Skip the transfer-file step of `run`. */
  skipTransfer: boolean;
  /** Skip the export step of `run`. */
  skipExport: boolean;
  /**
   * How responses are read. `sweep` (default): `GET /responses` without `request_id`, across the night's
   * requests by creation time, checked on its pages and falling back to `per-request` reading at once when the
   * provider does not honour its filters; `per-request`: `GET /responses?request_id=` for each request.
   */
  responsesStrategy: 'sweep' | 'per-request';
  /**
   * Names of the `GET /responses` filters the sweep sends (the spec names them by meaning only), pinned. Default
   * none: the sort names the upstream was seen to honour (the documented ones first; src/pipeline/dialect.ts).
   */
  sweepParams: SweepParams | undefined;
  /**
   * `schedule` serves `/healthz`, `/livez` and Prometheus `/metrics` on this port (flag `--metrics-port`); 0 lets
   * the system pick one (logged in `schedule.metrics`). Default none: no server.
   */
  metricsPort?: number;
  /**
   * The address the metrics port listens on. Default all interfaces: a container's probes and Prometheus reach
   * the pod's address, not its loopback. Tests give 127.0.0.1.
   */
  metricsHost?: string;
  /** `/healthz` answers 503 once a job's runs have failed this many times in a row. Default 3, 1 to 1000. */
  healthMaxFailures: number;
  /**
   * A command writes its run summary (JSON) to this file when it ends. `schedule` sets it for each job it
   * starts and turns the summary into metrics. Default none.
   */
  summaryFile?: string;
  /** What the Parquet exports may show of people (README "Sharing exports (LGPD)"). */
  exportPrivacy: ExportPrivacy;
}

/**
 * The deadlines of one call, in ms, each from its own variable in seconds (decimals allowed). Nothing waits on the
 * network without one (README, "Deadlines").
 */
export interface CallDeadlines {
  /** Opening a connection to the service or to a download address. LAWSUIT_CONNECT_TIMEOUT_SECONDS, 0.01 to 600. Default 10 s. */
  connectMs: number;
  /** From sending a call to the last byte of its answer's headers. LAWSUIT_HEADERS_TIMEOUT_SECONDS, 0.01 to 3600. Default 30 s. */
  headersMs: number;
  /**
   * From an answer's headers to the last byte of its body: the whole body, not the gap between two chunks (an
   * upstream trickling a byte every 20 s never breaks a gap rule). LAWSUIT_BODY_TIMEOUT_SECONDS, 0.01 to 3600.
   * Default 120 s: a page of 100 lawsuits is a few MB, read in seconds.
   */
  bodyMs: number;
  /**
   * The whole body of a transfer file's download. LAWSUIT_DOWNLOAD_TIMEOUT_SECONDS, 0.01 to 86 400. Default 1 800 s:
   * a 300 MB file at 170 kB/s.
   */
  downloadMs: number;
}

export const DEFAULT_DEADLINES: Readonly<CallDeadlines> = { connectMs: 10_000, headersMs: 30_000, bodyMs: 120_000, downloadMs: 1_800_000 };

/**
 * The query parameters of the responses listing the sweep uses (`LAWSUIT_SWEEP_PARAMS`, e.g.
 * `created_gte=createdFrom,created_lte=createdTo,order_by=sort:createdAt,order=direction:ASC`).
 */
export interface SweepParams {
  /** Response created_at greater than or equal to. Default `created_at_gte`. */
  createdGte: string;
  /** Response created_at lower than or equal to. Default `created_at_lte`. */
  createdLte: string;
  /** The field-to-sort-by parameter and its value for the creation date. Default `order_by`, `created_at`. */
  orderBy: string;
  orderByValue: string;
  /** The sort-direction parameter and its value for ascending. Default `order`, `asc`. */
  order: string;
  orderAsc: string;
}

export const DEFAULT_SWEEP_PARAMS: Readonly<SweepParams> = {
  createdGte: 'created_at_gte', createdLte: 'created_at_lte', orderBy: 'order_by', orderByValue: 'created_at', order: 'order', orderAsc: 'asc',
};

/** How the Parquet exports treat personal data. The warehouse always keeps the originals. */
export interface ExportPrivacy {
  /**
   * `off`: the exports show what the warehouse holds. `pseudonymise`: natural persons' documents (CPF) and
   * names, and lawyers' names, become keyed hashes (HMAC-SHA-256 with `salt`); companies' CNPJs and lawyers'
   * OAB numbers stay. Default `off`.
   */
  mode: ExportPrivacyMode;
  /**
   * The HMAC key (LAWSUIT_EXPORT_SALT, or the file LAWSUIT_EXPORT_SALT_FILE; never the config file). Required
   * with `pseudonymise` by commands that write exports; at least 32 characters. The same key gives the same
   * pseudonyms every night. Never logged or printed.
   */
  salt?: string;
  /**
   * Lawsuits whose secrecy_level is above this (an unknown level counts as 5) are left out of the exports with
   * every row that belongs to them. 0 to 5. Default 0 with `pseudonymise` (only public lawsuits are shared),
   * 5 (nothing left out) when `off`.
   */
  maxSecrecy: number;
}

export const RUN_SOURCES = ['searches', 'trackings'] as const;
type RunSource = (typeof RUN_SOURCES)[number];

/** The variable that carries Config.summaryFile; `schedule` sets it for the commands it starts. */
export const SUMMARY_FILE_VAR = 'LAWSUIT_SUMMARY_FILE';

export const EXPORT_PRIVACY_MODES = ['off', 'pseudonymise'] as const;
export type ExportPrivacyMode = (typeof EXPORT_PRIVACY_MODES)[number];
/** Shorter secrets can be guessed; 32 characters is what `openssl rand -hex 16` prints. */
export const MIN_EXPORT_SALT_LENGTH = 32;

/** The commands whose configuration is checked, and what each needs. */
export const COMMAND_NEEDS = {
  run: { api: true, documents: true },
  query: { api: true, documents: true },
  track: { api: true, documents: true },
  transfer: { api: true, documents: false },
  doctor: { api: true, documents: false },
  export: { api: false, documents: false },
  report: { api: false, documents: false },
  rebuild: { api: false, documents: false },
  schedule: { api: false, documents: false },
} as const satisfies Record<string, { api: boolean; documents: boolean }>;
export type ConfiguredCommand = keyof typeof COMMAND_NEEDS;

export interface ConfigInput {
  env?: NodeJS.ProcessEnv;
  /** Flags from the command line, already parsed; they win over the environment. */
  flags?: Partial<Record<string, string | boolean | undefined>>;
  /**
   * The command to configure: a key and addresses are required only by commands that call the API (and not
   * in a dry run), a documents list only by those that read one. Default `run`.
   */
  command?: ConfiguredCommand;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const URL_VARS = {
  requests: 'LAWSUIT_REQUESTS_URL', tracking: 'LAWSUIT_TRACKING_URL', lawsuits: 'LAWSUIT_LAWSUITS_URL', transfer: 'LAWSUIT_TRANSFER_URL',
} as const;

/**
 * Precedence: command-line flag > environment > config file (`LAWSUIT_CONFIG`, default `config/lawsuit-etl.json`
 * when present) > built-in default. Every problem is collected and thrown together as one ConfigError (exit 2).
 */
export function loadConfig(input: ConfigInput = {}): Config {
  const env = input.env ?? process.env;
  const flags = input.flags ?? {};
  const problems: string[] = [];

  const fileValues = readConfigFile(env, problems);
  const pick = (flag: string | undefined, envName: string | undefined, fileKey: string): string | undefined => {
    const f = flag === undefined ? undefined : flags[flag];
    if (typeof f === 'string') return f;
    if (envName && env[envName] !== undefined && env[envName] !== '') return env[envName];
    const v = fileValues[fileKey];
    return v === undefined || v === null ? undefined : String(v);
  };
  const bool = (flag: string, envName: string | undefined, fileKey: string): boolean => {
    if (flags[flag] === true) return true;
    const raw = pick(undefined, envName, fileKey);
    if (raw === undefined) return false;
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    problems.push(`${envName ?? fileKey}=${JSON.stringify(raw)} is not a boolean (allowed: true/false, 1/0, yes/no)`);
    return false;
  };
  const int = (envName: string, fileKey: string, dflt: number, min: number, max: number, flag?: string): number => {
    const raw = pick(flag, envName, fileKey);
    if (raw === undefined) return dflt;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${flag ? `--${flag} / ` : ''}${envName}=${JSON.stringify(raw)} must be a whole number from ${min} to ${max}`);
      return dflt;
    }
    return n;
  };

  const decimal = (envName: string, fileKey: string, dflt: number, min: number, max: number): number => {
    const raw = pick(undefined, envName, fileKey);
    if (raw === undefined) return dflt;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
      problems.push(`${envName}=${JSON.stringify(raw)} must be a number from ${min} to ${max}`);
      return dflt;
    }
    return n;
  };

  /** A duration given in seconds (decimals allowed), in ms. */
  const seconds = (envName: string, fileKey: string, dfltMs: number, min: number, max: number): number =>
    Math.round(decimal(envName, fileKey, dfltMs / 1000, min, max) * 1000);

  const sandbox = bool('sandbox', 'LAWSUIT_SANDBOX', 'sandbox');
  const logLevel = pick(undefined, 'LOG_LEVEL', 'log_level') ?? 'info';
  if (!LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL=${JSON.stringify(logLevel)} is not a level (allowed: ${LEVELS.join(', ')})`);
  const format = env.LOG_FORMAT;
  if (format !== undefined && format !== '' && format !== 'json' && format !== 'pretty') problems.push(`LOG_FORMAT=${JSON.stringify(format)} is not a log format (allowed: json, pretty)`);

  const command = input.command ?? 'run';
  const dryRun = flags['dry-run'] === true;
  const needs = COMMAND_NEEDS[command];
  const needsApi = needs.api && !dryRun && !sandbox;

  let apiKey = env.LAWSUIT_API_KEY || undefined;
  const keyFile = env.LAWSUIT_API_KEY_FILE;
  const keyVar = apiKey ? 'LAWSUIT_API_KEY' : 'LAWSUIT_API_KEY_FILE';
  if (!apiKey && keyFile) {
    try {
      // A trailing newline is how editors end a file; anything else invisible is a problem reported below.
      apiKey = readFileSync(keyFile, 'utf8').replace(/\r?\n$/, '') || undefined;
      if (!apiKey) problems.push(`LAWSUIT_API_KEY_FILE=${keyFile}: the file is empty`);
    } catch (e) {
      problems.push(`LAWSUIT_API_KEY_FILE=${keyFile}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (apiKey !== undefined) {
    const bad = headerValueProblem(apiKey);
    if (bad) problems.push(`${keyVar}: the key ${bad}, so it cannot be sent as the api-key header (the value is not shown)`);
  }

  const urls = { requests: '', tracking: '', lawsuits: '', transfer: '' };
  for (const [k, name] of Object.entries(URL_VARS) as Array<[keyof typeof urls, string]>) {
    const v = pick(undefined, name, `${k}_url`);
    if (v === undefined) continue;
    const bad = addressProblem(v);
    if (bad) problems.push(`${name}=${JSON.stringify(redactAddress(v))} ${bad}`);
    else urls[k] = v.replace(/\/+$/, '');
  }

  if (needsApi) {
    if (!apiKey && !keyFile) problems.push('LAWSUIT_API_KEY (or LAWSUIT_API_KEY_FILE) is required unless --sandbox is given');
    const missing = (Object.keys(URL_VARS) as Array<keyof typeof urls>).filter((k) => !urls[k] && !problems.some((p) => p.startsWith(URL_VARS[k])));
    if (missing.length) problems.push(`${missing.map((k) => URL_VARS[k]).join(', ')} required unless --sandbox is given`);
  }
  let documents = pick('documents', 'LAWSUIT_DOCUMENTS', 'documents');
  if (documents === undefined && needs.documents) {
    if (sandbox) documents = 'config/documents.example.csv';
    else problems.push(`${command}: a documents list is required: give --documents FILE or set LAWSUIT_DOCUMENTS (only --sandbox defaults to the example list)`);
  } else if (documents !== undefined && needs.documents) {
    const bad = unreadableFile(documents);
    if (bad) problems.push(`--documents / LAWSUIT_DOCUMENTS=${documents}: ${bad}`);
  }

  const privacyMode = pick(undefined, 'LAWSUIT_EXPORT_PRIVACY', 'export_privacy') ?? 'off';
  if (!(EXPORT_PRIVACY_MODES as readonly string[]).includes(privacyMode)) {
    problems.push(`LAWSUIT_EXPORT_PRIVACY=${JSON.stringify(privacyMode)} is not a privacy mode (allowed: ${EXPORT_PRIVACY_MODES.join(', ')})`);
  }
  const pseudonymise = privacyMode === 'pseudonymise';
  const salt = exportSalt(env, problems);
  // The metrics port is the scheduler's own: the commands it starts inherit the variable and must not read it.
  const metricsPortRaw = command === 'schedule' ? pick('metrics-port', 'LAWSUIT_METRICS_PORT', 'metrics_port') : undefined;
  const metricsHost = pick(undefined, 'LAWSUIT_METRICS_HOST', 'metrics_host');
  if (metricsHost !== undefined && !/^[A-Za-z0-9.:[\]-]+$/.test(metricsHost)) problems.push(`LAWSUIT_METRICS_HOST=${JSON.stringify(metricsHost)} is not an address to listen on (e.g. 0.0.0.0, ::, 127.0.0.1)`);

  const cfg: Config = {
    apiKey,
    urls,
    warehouse: pick('warehouse', 'LAWSUIT_WAREHOUSE', 'warehouse') ?? 'data/warehouse.duckdb',
    documents,
    exportDir: pick('export-dir', 'LAWSUIT_EXPORT_DIR', 'export_dir') ?? 'data/exports',
    stagingDir: pick(undefined, 'LAWSUIT_STAGING_DIR', 'staging_dir') ?? 'data/staging',
    reportsDir: pick(undefined, 'LAWSUIT_REPORTS_DIR', 'reports_dir') ?? 'data/reports',
    logLevel,
    sandbox,
    dryRun,
    force: flags.force === true,
    freshnessDays: int('LAWSUIT_FRESHNESS_DAYS', 'freshness_days', 1, 0, 3650),
    pageSize: pick(undefined, 'LAWSUIT_PAGE_SIZE', 'page_size') === undefined ? undefined : int('LAWSUIT_PAGE_SIZE', 'page_size', 100, 1, 1000),
    maxConcurrency: int('LAWSUIT_MAX_CONCURRENCY', 'max_concurrency', 16, 1, 256),
    trackingRecurrenceDays: int('LAWSUIT_TRACKING_RECURRENCE', 'tracking_recurrence_days', 1, 1, 365),
    source: runSource(pick('source', 'LAWSUIT_SOURCE', 'source'), problems),
    allowPause: bool('allow-pause', 'LAWSUIT_ALLOW_PAUSE', 'allow_pause'),
    sandboxSeed: int('LAWSUIT_SANDBOX_SEED', 'sandbox_seed', 1, 0, 2 ** 31 - 1, 'seed'),
    sandboxCourtDelayMs: int('LAWSUIT_SANDBOX_COURT_DELAY_MS', 'sandbox_court_delay_ms', 0, 0, 600_000),
    sandboxFaults: pick('faults', 'LAWSUIT_SANDBOX_FAULTS', 'sandbox_faults'),
    duckdbMemoryLimit: memoryLimit(pick(undefined, 'LAWSUIT_DUCKDB_MEMORY_LIMIT', 'duckdb_memory_limit') ?? '128MB', problems),
    duckdbThreads: int('LAWSUIT_DUCKDB_THREADS', 'duckdb_threads', 1, 1, 64),
    maxWaitMinutes: decimal('LAWSUIT_MAX_WAIT_MINUTES', 'max_wait_minutes', 120, 0, 1440),
    deadlines: {
      connectMs: seconds('LAWSUIT_CONNECT_TIMEOUT_SECONDS', 'connect_timeout_seconds', DEFAULT_DEADLINES.connectMs, 0.01, 600),
      headersMs: seconds('LAWSUIT_HEADERS_TIMEOUT_SECONDS', 'headers_timeout_seconds', DEFAULT_DEADLINES.headersMs, 0.01, 3600),
      bodyMs: seconds('LAWSUIT_BODY_TIMEOUT_SECONDS', 'body_timeout_seconds', DEFAULT_DEADLINES.bodyMs, 0.01, 3600),
      downloadMs: seconds('LAWSUIT_DOWNLOAD_TIMEOUT_SECONDS', 'download_timeout_seconds', DEFAULT_DEADLINES.downloadMs, 0.01, 86_400),
    },
    shutdownGraceMs: seconds('LAWSUIT_SHUTDOWN_GRACE_SECONDS', 'shutdown_grace_seconds', 10_000, 0, 600),
    sandboxForbid: pick(undefined, 'LAWSUIT_SANDBOX_FORBID', 'sandbox_forbid'),
    sandboxDialect: pick(undefined, 'LAWSUIT_SANDBOX_DIALECT', 'sandbox_dialect'),
    skipTransfer: bool('skip-transfer', 'LAWSUIT_SKIP_TRANSFER', 'skip_transfer'),
    skipExport: bool('skip-export', 'LAWSUIT_SKIP_EXPORT', 'skip_export'),
    responsesStrategy: responsesStrategy(pick(undefined, 'LAWSUIT_RESPONSES_STRATEGY', 'responses_strategy'), problems),
    sweepParams: sweepParams(pick(undefined, 'LAWSUIT_SWEEP_PARAMS', 'sweep_params'), problems),
    metricsPort: metricsPortRaw === undefined ? undefined : int('LAWSUIT_METRICS_PORT', 'metrics_port', 0, 0, 65_535, 'metrics-port'),
    metricsHost: metricsHost?.replace(/^\[(.*)\]$/, '$1'),
    healthMaxFailures: int('LAWSUIT_HEALTH_MAX_FAILURES', 'health_max_failures', 3, 1, 1000),
    summaryFile: pick(undefined, SUMMARY_FILE_VAR, 'summary_file'),
    exportPrivacy: {
      mode: pseudonymise ? 'pseudonymise' : 'off',
      salt,
      maxSecrecy: int('LAWSUIT_EXPORT_MAX_SECRECY', 'export_max_secrecy', pseudonymise ? 0 : 5, 0, 5),
    },
  };
  const writesExports = !dryRun && (command === 'export' || (command === 'run' && !cfg.skipExport));
  if (pseudonymise && writesExports && salt === undefined && !problems.some((p) => p.startsWith('LAWSUIT_EXPORT_SALT'))) {
    problems.push(`LAWSUIT_EXPORT_PRIVACY=pseudonymise needs its secret: set LAWSUIT_EXPORT_SALT_FILE (or LAWSUIT_EXPORT_SALT) to at least ${MIN_EXPORT_SALT_LENGTH} random characters, e.g. from \`openssl rand -hex 32\`, and keep it: the pseudonyms stay the same only as long as the secret does`);
  }
  if (!dryRun) {
    // The folders the command will write, checked now: a folder that cannot be written is a configuration
    // problem (exit 2) found before anything is bought, not an unexpected failure halfway through the night.
    const writes: Array<[string, string, boolean]> = [
      ['LAWSUIT_WAREHOUSE', dirname(cfg.warehouse), command !== 'export' && command !== 'report'],
      ['LAWSUIT_EXPORT_DIR', cfg.exportDir, writesExports],
      ['LAWSUIT_STAGING_DIR', cfg.stagingDir, command === 'transfer' || (command === 'run' && !cfg.skipTransfer)],
      ['LAWSUIT_REPORTS_DIR', cfg.reportsDir, command !== 'export'],
    ];
    for (const [name, dir, used] of writes) {
      const bad = used ? unwritableDir(dir) : undefined;
      if (bad) problems.push(`${name}: the folder ${dir} ${bad}`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return cfg;
}

/**
 * Why a folder cannot be written (created if missing), or undefined: the nearest part of the path that exists
 * must be a folder this process may write into.
 */
export function unwritableDir(dir: string): string | undefined {
  let at = resolve(dir);
  for (;;) {
    let st;
    try {
      st = statSync(at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: a part of the path is a file; walking up finds it and says so.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return `cannot be checked (${code ?? 'error'})`;
      const up = dirname(at);
      if (up === at) return 'cannot be created';
      at = up;
      continue;
    }
    if (!st.isDirectory()) return at === resolve(dir) ? 'is a file, not a folder' : `cannot be created: ${at} is a file, not a folder`;
    try {
      accessSync(at, fsc.W_OK | fsc.X_OK);
      return undefined;
    } catch (e) {
      return `cannot be written (${(e as NodeJS.ErrnoException).code ?? 'error'}${at === resolve(dir) ? '' : ` at ${at}`})`;
    }
  }
}

/** Why a file cannot be read as an input, or undefined. */
function unreadableFile(path: string): string | undefined {
  try {
    accessSync(path, fsc.R_OK);
    return statSync(path).isFile() ? undefined : 'is not a file';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'no such file (in a container, mount the list there)' : `cannot read it (${code ?? 'error'})`;
  }
}

/**
 * Why a value cannot be an HTTP header value, or undefined. Only visible ASCII is accepted: a zero-width space,
 * a non-ASCII letter or a control character pasted with a key would either be refused by the HTTP stack at the
 * first call or sent as something the provider does not know; both are better found before the run starts.
 */
export function headerValueProblem(v: string): string | undefined {
  if (v.length === 0) return 'is empty';
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0x20 || c === 0x09) return `contains white space at character ${i + 1}`;
    if (c < 0x21 || c === 0x7f) return `contains a control character at character ${i + 1}`;
    if (c > 0x7e) return `contains a character outside visible ASCII (U+${c.toString(16).toUpperCase().padStart(4, '0')}) at character ${i + 1}`;
  }
  return undefined;
}

/** Why a base address cannot be used, or undefined. */
export function addressProblem(v: string): string | undefined {
  if (headerValueProblem(v)) return 'is not an http(s) address (it has white space, control or non-ASCII characters)';
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'is not an http(s) address';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'is not an http(s) address';
  if (u.username || u.password) return 'carries credentials; give the key through LAWSUIT_API_KEY(_FILE) instead';
  if (u.search || u.hash) return 'has a query or fragment; give the base address only';
  return undefined;
}

/** An address fit to print: its user and password replaced, its query dropped. */
export function redactAddress(v: string): string {
  return v.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1[redacted]@').replace(/\?.*$/s, '?[redacted]');
}

function responsesStrategy(v: string | undefined, problems: string[]): Config['responsesStrategy'] {
  if (v === undefined || v === 'sweep') return 'sweep';
  if (v === 'per-request' || v === 'per_request') return 'per-request';
  problems.push(`LAWSUIT_RESPONSES_STRATEGY=${JSON.stringify(v)} is not a strategy (allowed: sweep, per-request)`);
  return 'sweep';
}

function runSource(v: string | undefined, problems: string[]): RunSource {
  if (v === undefined) return 'searches';
  if ((RUN_SOURCES as readonly string[]).includes(v)) return v as RunSource;
  problems.push(`--source / LAWSUIT_SOURCE=${JSON.stringify(v)} is not a source (allowed: ${RUN_SOURCES.join(', ')})`);
  return 'searches';
}

const PARAM_TOKEN = /^[A-Za-z0-9_.~[\]-]{1,64}$/;

/** `role=name[:value]` pairs over the defaults; roles created_gte, created_lte (name only), order_by, order (name and value). */
function sweepParams(v: string | undefined, problems: string[]): SweepParams | undefined {
  const out: SweepParams = { ...DEFAULT_SWEEP_PARAMS };
  if (v === undefined || v.trim() === '') return undefined;
  const bad = (why: string) => problems.push(`LAWSUIT_SWEEP_PARAMS=${JSON.stringify(v.slice(0, 200))}: ${why} (form: created_gte=NAME,created_lte=NAME,order_by=NAME:VALUE,order=NAME:VALUE)`);
  for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^([a-z_]+)=([^:]*)(?::(.*))?$/.exec(part);
    if (!m) { bad(`${JSON.stringify(part)} is not role=name`); continue; }
    const [, role, name, value] = m;
    if (!PARAM_TOKEN.test(name) || (value !== undefined && !PARAM_TOKEN.test(value))) { bad(`${JSON.stringify(part)} has a name or value that is not a plain query token`); continue; }
    if (role === 'created_gte' || role === 'created_lte') {
      if (value !== undefined) { bad(`${role} takes a name only`); continue; }
      out[role === 'created_gte' ? 'createdGte' : 'createdLte'] = name;
    } else if (role === 'order_by') {
      out.orderBy = name;
      if (value !== undefined) out.orderByValue = value;
    } else if (role === 'order') {
      out.order = name;
      if (value !== undefined) out.orderAsc = value;
    } else bad(`unknown role ${JSON.stringify(role)} (allowed: created_gte, created_lte, order_by, order)`);
  }
  return out;
}

/**
 * The pseudonymisation secret from LAWSUIT_EXPORT_SALT or LAWSUIT_EXPORT_SALT_FILE, or undefined. Problems name
 * the variable, never the value (nor its length).
 */
function exportSalt(env: NodeJS.ProcessEnv, problems: string[]): string | undefined {
  let salt = env.LAWSUIT_EXPORT_SALT || undefined;
  let name = 'LAWSUIT_EXPORT_SALT';
  const file = env.LAWSUIT_EXPORT_SALT_FILE;
  if (!salt && file) {
    name = `LAWSUIT_EXPORT_SALT_FILE=${file}`;
    try {
      salt = readFileSync(file, 'utf8').replace(/\r?\n$/, '') || undefined;
      if (!salt) problems.push(`${name}: the file is empty`);
    } catch (e) {
      problems.push(`${name}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (salt !== undefined && [...salt].length < MIN_EXPORT_SALT_LENGTH) {
    problems.push(`${name}: the secret must be at least ${MIN_EXPORT_SALT_LENGTH} characters (the value is not shown)`);
    return undefined;
  }
  return salt;
}

function memoryLimit(v: string, problems: string[]): string {
  if (/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(v.trim())) return v.trim();
  problems.push(`LAWSUIT_DUCKDB_MEMORY_LIMIT=${JSON.stringify(v)} is not a size (e.g. 256MB, 2GB)`);
  return '128MB';
}

function readConfigFile(env: NodeJS.ProcessEnv, problems: string[]): Record<string, unknown> {
  const explicit = env.LAWSUIT_CONFIG;
  const path = explicit ?? 'config/lawsuit-etl.json';
  if (!explicit && !existsSync(path)) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      if ('api_key' in parsed) problems.push(`${path}: api_key does not belong in a config file (use LAWSUIT_API_KEY or LAWSUIT_API_KEY_FILE)`);
      if ('export_salt' in parsed) problems.push(`${path}: export_salt does not belong in a config file (use LAWSUIT_EXPORT_SALT_FILE or LAWSUIT_EXPORT_SALT)`);
      return parsed as Record<string, unknown>;
    }
    problems.push(`${path}: expected a JSON object`);
  } catch (e) {
    problems.push(`${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : `not valid JSON (${(e as Error).message})`}`);
  }
  return {};
}
