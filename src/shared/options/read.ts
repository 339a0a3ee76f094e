import { closeSync, constants as fsc, existsSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { longName, type Option } from './option.js';

// Reading an option from where it may be given, by precedence: a flag, then its variable, then the config file,
// then its default. A value that cannot be read is a problem naming where it came from and what it was; the
// caller collects every problem before it says any, so that one start-up lists them all.

export type Flags = Partial<Record<string, string | boolean | undefined>>;

/** The config file as read: its path (for the problems) and its keys. */
interface ConfigFile { path: string; values: Readonly<Record<string, unknown>> }

export interface Sources {
  /** Parsed flags by long name (`export-dir`): a string, or true for a switch. */
  flags: Flags;
  env: NodeJS.ProcessEnv;
  file: ConfigFile;
}

/** The text an option was given and where from, or undefined when it was given nowhere. */
function given(opt: Option, src: Sources): { text: string; label: string } | undefined {
  const long = longName(opt);
  // A flag and its variable are two ways of giving one option: a problem names both.
  const label = [long && `--${long}`, opt.env].filter(Boolean).join(' / ');
  const f = long === undefined ? undefined : src.flags[long];
  if (typeof f === 'string') return { text: f, label };
  if (f === true) return { text: 'true', label };
  const v = opt.env === undefined ? undefined : src.env[opt.env];
  if (v !== undefined && v !== '') return { text: v, label };
  const k = opt.file === undefined ? undefined : src.file.values[opt.file];
  if (k !== undefined && k !== null) return { text: String(k), label: `${src.file.path}: ${opt.file}` };
  return undefined;
}

/** The option's value, its default when it was given nowhere or given badly (the problem is in `problems`). */
export function readOption<T>(opt: Option<T>, src: Sources, problems: string[]): T | undefined {
  const g = given(opt, src);
  if (g === undefined) return opt.default;
  const parsed = opt.kind.parse(g.text);
  if ('value' in parsed) return parsed.value;
  for (const why of parsed.why) problems.push(`${g.label}=${JSON.stringify(parsed.shown ?? g.text)}${why}`);
  return opt.default;
}

/**
 * A secret from its variable, or else from the file its other variable names (a final newline dropped: that is
 * how editors end a file). `label` names where it came from, never the value.
 */
export function readSecret(opt: Option, env: NodeJS.ProcessEnv, problems: string[]): Secret {
  const direct = opt.env === undefined ? undefined : env[opt.env];
  if (direct) return { value: direct, label: opt.env!, given: true };
  const path = opt.envFile === undefined ? undefined : env[opt.envFile];
  const label = opt.envFile ?? opt.env ?? 'secret';
  if (!path) return { label, given: false };
  const read = readRegularFile(path);
  if ('why' in read) {
    problems.push(`${label}=${path}: ${read.why}`);
    return { label, given: true };
  }
  const value = read.text.replace(/\r?\n$/, '') || undefined;
  if (value === undefined) problems.push(`${label}=${path}: the file is empty`);
  return { value, label, given: true };
}

/**
 * The text of the file at `path` if it is a regular file, else why not. It is opened without blocking and looked
 * at before a byte is read: a FIFO (or a device) given for a key file held the start-up until something wrote to
 * it, which nothing ever did.
 */
function readRegularFile(path: string): { text: string } | { why: string; missing?: true } {
  let fd: number;
  try {
    fd = openSync(path, fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { why: `cannot read it (${code ?? 'error'})`, ...(code === 'ENOENT' ? { missing: true as const } : {}) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { why: `is ${kindOf(st)}, not a regular file: give the path of a plain file holding the value` };
    return { text: readFileSync(fd, 'utf8') };
  } catch (e) {
    return { why: `cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isDirectory()) return 'a folder';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a file';
}

interface Secret {
  value?: string;
  /** The variable it came from (or would have), for a problem; never the value. */
  label: string;
  /** Either variable was set, whether or not a value could be read. */
  given: boolean;
}

/**
 * The config file: the one `configFile` names, else its default path when that file exists, else none. A key
 * it does not know, or a secret's, is a problem.
 */
export function readConfigFile(configFile: Option, options: readonly Option[], env: NodeJS.ProcessEnv, problems: string[]): ConfigFile {
  const explicit = configFile.env === undefined ? undefined : env[configFile.env];
  const path = explicit || defaultConfigPath;
  if (!explicit && !existsSync(path)) return { path, values: {} };
  const read = readRegularFile(path);
  if ('why' in read) {
    problems.push(`${path}: ${read.missing ? 'not found' : read.why}`);
    return { path, values: {} };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text);
  } catch (e) {
    problems.push(`${path}: not valid JSON (${(e as Error).message})`);
    return { path, values: {} };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push(`${path}: expected a JSON object`);
    return { path, values: {} };
  }
  const known = new Set(options.map((o) => o.file).filter((k) => k !== undefined));
  for (const key of Object.keys(parsed)) {
    const secret = options.find((o) => o.secret && snakeCase(o) === key);
    if (secret) problems.push(`${path}: ${key} does not belong in a config file (use ${secret.envFile} or ${secret.env})`);
    else if (!known.has(key)) problems.push(`${path}: unknown key ${JSON.stringify(key)} (the keys are in docs/operating.md, "Configuration")`);
  }
  return { path, values: parsed as Record<string, unknown> };
}

/** Where the config file is looked for when LAWSUIT_CONFIG names none. */
const defaultConfigPath = 'config/lawsuit-etl.json';

/** The key a secret would have in the config file, were it allowed there: `LAWSUIT_API_KEY` -> `api_key`. */
function snakeCase(opt: Option): string | undefined {
  return opt.env?.replace(/^LAWSUIT_/, '').toLowerCase();
}
