import { accessSync, constants as fsc, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './errors.js';
import { headerValueProblem } from './options/address.js';
import type { CommandName, Option } from './options/option.js';
import { readConfigFile, readOption, readSecret, type Flags, type Sources } from './options/read.js';
import type { Prices } from './options/prices.js';
import { realPathOf } from './real-path.js';
import type { SweepParams } from './options/sweep-params.js';
import { OPTIONS, type OptionName, type ValueOf } from './options/table.js';
import { CALLBACK_SECRET_CHARS, MIN_CALLBACK_SECRET_LENGTH, MIN_EXPORT_SALT_LENGTH, type CallbackFsync, type CallDeadlines, type ExportPrivacyMode, type LawsuitDetail, type ResponsesStrategy, type RunSource } from './options/values.js';

export { type SweepParams } from './options/sweep-params.js';
export type { CallDeadlines } from './options/values.js';
export { DEFAULT_DEADLINES_MS as DEFAULT_DEADLINES } from './options/values.js';

// The configuration of a command, read once at start-up and checked in one pass: every problem is collected and
// thrown together as one ConfigError (exit 2). What each option means, its flag, variable, config-file key,
// default and limits are declared once, in options/table.ts; this file reads them into Config and adds the checks
// that take more than one option (what a command needs, the folders it writes).

/**
 * Everything a command needs. A field named as an option of the table is that option (options/table.ts documents
 * it); the grouped fields say which options they gather.
 */
export interface Config {
  /** OPTIONS.apiKey. Never logged. */
  apiKey?: string;
  /** OPTIONS.requestsUrl, trackingUrl, lawsuitsUrl, transferUrl; '' when not given (then `sandbox` sets them). */
  urls: { requests: string; tracking: string; lawsuits: string; transfer: string };
  warehouse: string;
  /** `<warehouse>.lock` unless given. */
  lockFile: string;
  /** Undefined for a command that reads no list and was given none. */
  documents?: string;
  exportDir: string;
  stagingDir: string;
  reportsDir: string;
  logLevel: string;
  sandbox: boolean;
  dryRun: boolean;
  force: boolean;
  freshnessDays: number;
  pageSize: number | undefined;
  maxConcurrency: number;
  trackingRecurrenceDays: number;
  source: RunSource;
  /** OPTIONS.detail: how deep each lawsuit is kept (docs/two-levels.md). */
  detail: LawsuitDetail;
  /** OPTIONS.prices: what the provider bills, when the operator says; undefined: costs in calls only. */
  prices?: Prices;
  /** OPTIONS.withAttachments: lawsuit-level reads ask for attachments, and their files are downloaded. */
  withAttachments: boolean;
  attachmentsDir: string;
  /** OPTIONS.attachmentMaxBytes, in bytes. */
  attachmentMaxBytes: number;
  allowPause: boolean;
  sandboxSeed: number;
  sandboxCourtDelayMs: number;
  /** OPTIONS.sandboxRateLimit: calls a minute the embedded emulator allows. */
  sandboxRateLimit: number;
  sandboxFaults?: string;
  duckdbMemoryLimit: string;
  duckdbThreads: number;
  maxWaitMinutes: number;
  /** OPTIONS.connectMs, headersMs, bodyMs, downloadMs. */
  deadlines: CallDeadlines;
  shutdownGraceMs: number;
  /** Checked where the embedded sandbox starts (src/cli/environment.ts), which knows the resources. */
  sandboxForbid?: string;
  /** Checked where the embedded sandbox starts, which knows the dialects. */
  sandboxDialect?: string;
  skipTransfer: boolean;
  skipExport: boolean;
  responsesStrategy: ResponsesStrategy;
  sweepParams: SweepParams | undefined;
  /** `schedule` only: the commands it starts inherit the variable and must not serve the port. */
  metricsPort?: number;
  metricsHost?: string;
  healthMaxFailures: number;
  summaryFile?: string;
  /** `schedule` only. */
  jobsDir: string;
  /** `schedule` only. */
  statePath: string;
  /** OPTIONS.exportPrivacy, exportSalt, exportMaxSecrecy: what the Parquet exports may show of people. */
  exportPrivacy: ExportPrivacy;
  /** OPTIONS.callback*: the webhook intake (`receive`) and what a night does with what it received. */
  callback: CallbackConfig;
}

/** The webhook intake and its spool (docs/operating.md, "The webhook intake"). */
export interface CallbackConfig {
  /** Sent as `callback_url` with every request and tracking made; undefined: results are listed. Never logged (it carries the secret). */
  url?: string;
  /** Never logged nor printed but as part of the URL `receive` prints. */
  secret?: string;
  /** Undefined when not given: `receive` then listens on 8081, `schedule` runs no intake. */
  port?: number;
  host: string;
  /** `<warehouse>.spool` unless given. */
  spool: string;
  maxBytes: number;
  fsync: CallbackFsync;
  waitMs: number;
}

/** The port `receive` listens on when none is given. */
export const DEFAULT_CALLBACK_PORT = 8081;

/** How the Parquet exports treat personal data (docs/warehouse.md, "Sharing exports (LGPD)"). The warehouse keeps the originals. */
export interface ExportPrivacy {
  mode: ExportPrivacyMode;
  /** Required with `pseudonymise` by the commands that write exports. Never logged or printed. */
  salt?: string;
  maxSecrecy: number;
}

/** The variable that carries Config.summaryFile; `schedule` sets it for the commands it starts. */
export const SUMMARY_FILE_VAR = OPTIONS.summaryFile.env;
/** The variable that carries Config.lockFile; `schedule` sets it for the commands it starts. */
export const LOCK_FILE_VAR = OPTIONS.lockFile.env;

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
  receive: { api: false, documents: false },
} as const satisfies Partial<Record<CommandName, { api: boolean; documents: boolean }>>;
export type ConfiguredCommand = keyof typeof COMMAND_NEEDS;

interface ConfigInput {
  env?: NodeJS.ProcessEnv;
  /** Flags from the command line, already parsed, by long name; they win over the environment. */
  flags?: Flags;
  /**
   * The command to configure: a key and addresses are required only by commands that call the API (and not
   * in a dry run), a documents list only by those that read one. Default `run`.
   */
  command?: ConfiguredCommand;
}

const EXAMPLE_DOCUMENTS = 'config/documents.example.csv';
/** The installation's own job files: `jobs/` beside `src/` or `dist/`. */
const INSTALLED_JOBS = fileURLToPath(new URL('../../jobs', import.meta.url));

/** Precedence: flag > environment > config file > default (options/table.ts). Throws one ConfigError listing every problem. */
export function loadConfig(input: ConfigInput = {}): Config {
  const { cfg, problems } = readConfiguration(input);
  if (problems.length) throw new ConfigError(problems);
  return cfg;
}

/** The configuration and every problem with it; a value with a problem is left at its default. */
export function readConfiguration(input: ConfigInput = {}): { cfg: Config; problems: string[] } {
  const env = input.env ?? process.env;
  const command = input.command ?? 'run';
  const problems: string[] = [];
  const file = readConfigFile(OPTIONS.configFile, Object.values(OPTIONS), env, problems);
  const cfg = readConfig({ flags: input.flags ?? {}, env, file }, command, problems);
  problems.push(...needsOf(cfg, command, problems), ...callbackNeeds(cfg, command, problems), ...unwritable(cfg, command));
  return { cfg, problems };
}

/** Every option the configuration reads, each checked on its own; what an option's value needs of another is needsOf's. */
function readConfig(src: Sources, command: ConfiguredCommand, problems: string[]): Config {
  const read = readerOf(src, command, problems);
  readOption(OPTIONS.logFormat, src, problems);
  const apiKey = apiKeyOf(src.env, problems);
  const salt = readSecret(OPTIONS.exportSalt, src.env, problems);
  const callbackSecret = readSecret(OPTIONS.callbackSecret, src.env, problems);
  // The file the name ends at: the lock, the work copy and the publish are named after it (shared/real-path.ts).
  const warehouse = realPathOf(read('warehouse')!);
  const sandbox = read('sandbox')!;
  const mode = read('exportPrivacy')!;
  return {
    apiKey,
    urls: { requests: read('requestsUrl') ?? '', tracking: read('trackingUrl') ?? '', lawsuits: read('lawsuitsUrl') ?? '', transfer: read('transferUrl') ?? '' },
    warehouse,
    lockFile: read('lockFile') ?? `${warehouse}.lock`,
    // The example list only with the sandbox: against the real service it must never be searched, and paid for, by mistake.
    documents: read('documents') ?? (COMMAND_NEEDS[command].documents && sandbox ? EXAMPLE_DOCUMENTS : undefined),
    exportDir: read('exportDir')!,
    stagingDir: read('stagingDir')!,
    reportsDir: read('reportsDir')!,
    logLevel: read('logLevel')!,
    sandbox,
    dryRun: read('dryRun')!,
    force: read('force')!,
    freshnessDays: read('freshnessDays')!,
    pageSize: read('pageSize'),
    maxConcurrency: read('maxConcurrency')!,
    trackingRecurrenceDays: read('trackingRecurrenceDays')!,
    source: read('source')!,
    detail: read('detail')!,
    prices: read('prices'),
    withAttachments: read('withAttachments')!,
    attachmentsDir: read('attachmentsDir')!,
    attachmentMaxBytes: read('attachmentMaxBytes')!,
    allowPause: read('allowPause')!,
    sandboxSeed: read('sandboxSeed')!,
    sandboxCourtDelayMs: read('sandboxCourtDelayMs')!,
    sandboxRateLimit: read('sandboxRateLimit')!,
    sandboxFaults: read('sandboxFaults'),
    duckdbMemoryLimit: read('duckdbMemoryLimit')!,
    duckdbThreads: read('duckdbThreads')!,
    maxWaitMinutes: read('maxWaitMinutes')!,
    deadlines: { connectMs: read('connectMs')!, headersMs: read('headersMs')!, bodyMs: read('bodyMs')!, downloadMs: read('downloadMs')! },
    shutdownGraceMs: read('shutdownGraceMs')!,
    sandboxForbid: read('sandboxForbid'),
    sandboxDialect: read('sandboxDialect'),
    skipTransfer: read('skipTransfer')!,
    skipExport: read('skipExport')!,
    responsesStrategy: read('responsesStrategy')!,
    sweepParams: read('sweepParams'),
    metricsPort: read('metricsPort'),
    metricsHost: read('metricsHost'),
    healthMaxFailures: read('healthMaxFailures')!,
    summaryFile: read('summaryFile'),
    jobsDir: read('jobsDir') ?? INSTALLED_JOBS,
    statePath: read('statePath') ?? OPTIONS.statePath.default,
    exportPrivacy: { mode, salt: saltOf(salt, problems), maxSecrecy: read('exportMaxSecrecy') ?? (mode === 'pseudonymise' ? 0 : 5) },
    callback: callbackOf(read, callbackSecret, warehouse, problems),
  };
}

/** Reads one option's value for `command` (undefined for an option the command does not take), its problems into `problems`. */
type OptionReader = <K extends OptionName>(name: K) => ValueOf<K> | undefined;

function readerOf(src: Sources, command: ConfiguredCommand, problems: string[]): OptionReader {
  return <K extends OptionName>(name: K): ValueOf<K> | undefined => {
    const opt = OPTIONS[name] as Option<ValueOf<K>>;
    return opt.only && !opt.only.includes(command) ? undefined : readOption(opt, src, problems);
  };
}

/** The API key, when given; one that cannot be sent as a header is a problem (its value never shown). */
function apiKeyOf(env: NodeJS.ProcessEnv, problems: string[]): string | undefined {
  const apiKey = readSecret(OPTIONS.apiKey, env, problems);
  if (apiKey.value !== undefined) {
    const bad = headerValueProblem(apiKey.value);
    if (bad) problems.push(`${apiKey.label}: the key ${bad}, so it cannot be sent as the api-key header (the value is not shown)`);
  }
  return apiKey.value;
}

/** The intake's options (`receive`, and the callback URL the searches give), its spool beside the warehouse by default. */
function callbackOf(read: OptionReader, secret: ReturnType<typeof readSecret>, warehouse: string, problems: string[]): CallbackConfig {
  return {
    url: read('callbackUrl'), secret: callbackSecretOf(secret, problems), port: read('callbackPort'), host: read('callbackHost')!,
    spool: read('callbackSpool') ?? `${warehouse}.spool`, maxBytes: read('callbackMaxBytes')!, fsync: read('callbackFsync')!, waitMs: read('callbackWaitMs')!,
  };
}

/** The secret of the pseudonyms, when it is long enough to be one. */
function saltOf(salt: ReturnType<typeof readSecret>, problems: string[]): string | undefined {
  if (salt.value !== undefined && [...salt.value].length < MIN_EXPORT_SALT_LENGTH) {
    problems.push(`${salt.label}: the secret must be at least ${MIN_EXPORT_SALT_LENGTH} characters (the value is not shown)`);
    return undefined;
  }
  return salt.value;
}

/** The callback secret, when it is long enough to guard a URL alone and keeps as it is in one. */
function callbackSecretOf(secret: ReturnType<typeof readSecret>, problems: string[]): string | undefined {
  if (secret.value === undefined) return undefined;
  if ([...secret.value].length < MIN_CALLBACK_SECRET_LENGTH || !CALLBACK_SECRET_CHARS.test(secret.value)) {
    problems.push(`${secret.label}: the secret must be at least ${MIN_CALLBACK_SECRET_LENGTH} characters of A-Z a-z 0-9 . _ ~ - (e.g. from \`openssl rand -hex 32\`; the value is not shown)`);
    return undefined;
  }
  return secret.value;
}

/**
 * What the intake needs: its secret (`receive`, and `schedule` when it runs the intake), and a callback URL that
 * carries the secret the intake answers to (a URL without it would have every delivery refused).
 */
function callbackNeeds(cfg: Config, command: ConfiguredCommand, found: readonly string[]): string[] {
  const c = cfg.callback;
  const s = OPTIONS.callbackSecret;
  const problems: string[] = [];
  const serves = command === 'receive' || (command === 'schedule' && c.port !== undefined);
  if (serves && c.secret === undefined && !found.some((p) => p.startsWith(s.env) || p.startsWith(s.envFile))) {
    problems.push(`${command === 'receive' ? 'receive' : `schedule with ${OPTIONS.callbackPort.env}`} needs ${s.envFile} (or ${s.env}): at least ${MIN_CALLBACK_SECRET_LENGTH} random characters, e.g. from \`openssl rand -hex 32\`; the callback URL carries it`);
  }
  if (c.url !== undefined && c.secret !== undefined && !new URL(c.url).pathname.split('/').includes(c.secret)) {
    problems.push(`${OPTIONS.callbackUrl.env} does not carry ${s.env}: the intake would refuse every delivery; give the URL \`lawsuit-etl receive\` prints (its host may be your TLS terminator's)`);
  }
  return problems;
}

/**
 * What the command needs of the options together: a key and the four addresses when it sends, a readable
 * documents list when it reads one, the pseudonyms' secret when it writes pseudonymised exports. `found` are the
 * problems already found, so that a value already refused is not also called missing.
 */
function needsOf(cfg: Config, command: ConfiguredCommand, found: readonly string[]): string[] {
  const problems: string[] = [];
  const needs = COMMAND_NEEDS[command];
  // A dry run sends nothing but a trackings night's, which lists the key's trackings to plan (pipeline/stages/trackings.ts).
  const sends = !cfg.dryRun || (command === 'run' && cfg.source === 'trackings');
  if (needs.api && sends && !cfg.sandbox) {
    if (cfg.apiKey === undefined && !found.some((p) => p.startsWith(OPTIONS.apiKey.env) || p.startsWith(OPTIONS.apiKey.envFile))) {
      problems.push(`${OPTIONS.apiKey.env} (or ${OPTIONS.apiKey.envFile}) is required unless --sandbox is given`);
    }
    const urls = [OPTIONS.requestsUrl, OPTIONS.trackingUrl, OPTIONS.lawsuitsUrl, OPTIONS.transferUrl];
    const missing = urls.filter((o, i) => Object.values(cfg.urls)[i] === '' && !found.some((p) => p.startsWith(o.env))).map((o) => o.env);
    if (missing.length) problems.push(`${missing.join(', ')} required unless --sandbox is given`);
  }
  if (needs.documents && cfg.documents === undefined) {
    problems.push(`${command}: a documents list is required: give --documents FILE or set ${OPTIONS.documents.env} (only --sandbox defaults to the example list)`);
  } else if (needs.documents) {
    const bad = unreadableFile(cfg.documents!);
    if (bad) problems.push(`--documents / ${OPTIONS.documents.env}=${cfg.documents}: ${bad}`);
  }
  const p = OPTIONS.exportPrivacy;
  if (cfg.exportPrivacy.mode === 'pseudonymise' && writesExports(cfg, command) && cfg.exportPrivacy.salt === undefined
    && !found.some((x) => x.startsWith(OPTIONS.exportSalt.env))) {
    problems.push(`${p.env}=pseudonymise needs its secret: set ${OPTIONS.exportSalt.envFile} (or ${OPTIONS.exportSalt.env}) to at least ${MIN_EXPORT_SALT_LENGTH} random characters, e.g. from \`openssl rand -hex 32\`, and keep it: the pseudonyms stay the same only as long as the secret does`);
  }
  return problems;
}

function writesExports(cfg: Config, command: ConfiguredCommand): boolean {
  return !cfg.dryRun && (command === 'export' || (command === 'run' && !cfg.skipExport));
}

/**
 * The folders the command will write, checked now: a folder that cannot be written is a configuration problem
 * (exit 2) found before anything is bought, not an unexpected failure halfway through the night.
 */
function unwritable(cfg: Config, command: ConfiguredCommand): string[] {
  if (cfg.dryRun) return [];
  const writes: Array<[string, string, boolean]> = [
    [OPTIONS.warehouse.env, dirname(cfg.warehouse), command !== 'export' && command !== 'report' && command !== 'receive'],
    [OPTIONS.exportDir.env, cfg.exportDir, writesExports(cfg, command)],
    [OPTIONS.stagingDir.env, cfg.stagingDir, command === 'transfer' || (command === 'run' && !cfg.skipTransfer)],
    [OPTIONS.reportsDir.env, cfg.reportsDir, command !== 'export' && command !== 'receive'],
    [OPTIONS.callbackSpool.env, cfg.callback.spool, command === 'receive' || (command === 'schedule' && cfg.callback.port !== undefined)],
    [OPTIONS.attachmentsDir.env, cfg.attachmentsDir, command === 'run' && cfg.withAttachments],
  ];
  const problems: string[] = [];
  for (const [name, dir, used] of writes) {
    const bad = used ? unwritableDir(dir) : undefined;
    if (bad) problems.push(`${name}: the folder ${dir} ${bad}`);
  }
  return problems;
}

/**
 * Why a folder cannot be written (created if missing), or undefined: the nearest part of the path that exists
 * must be a folder this process may write into.
 */
function unwritableDir(dir: string): string | undefined {
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
