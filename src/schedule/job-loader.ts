import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import cron from 'node-cron';
import { ConfigError } from '../shared/errors.js';

// jobs/*.json are data, not code: an operator edits a schedule without touching TypeScript, and a typo is
// reported with the file and field at start-up rather than as a job that silently never runs.

/** One scheduled job, as read from `jobs/<name>.json`. */
export interface JobSpec {
  /** Unique; equals the file's base name. */
  name: string;
  /** Free text for operators. Default empty. */
  description: string;
  /** node-cron expression (5 fields, or 6 with seconds first). */
  cron: string;
  /** IANA time zone the expression is read in. Default `America/Sao_Paulo`. */
  timezone: string;
  /** A job whose last success is older than this many hours is run at once on start and after a missed occurrence. */
  period_hours: number;
  /** The `lawsuit-etl` command it runs. */
  command: JobCommand;
  /** Extra command-line arguments after the command. Default none. */
  args: string[];
  /** A disabled job is loaded and validated but never scheduled. Default true. */
  enabled: boolean;
  /** Where it was read from, for messages. */
  file: string;
}

const JOB_COMMANDS = ['run', 'transfer', 'query', 'track', 'export'] as const;
type JobCommand = (typeof JOB_COMMANDS)[number];
const DEFAULT_TIMEZONE = 'America/Sao_Paulo';

const FIELDS = new Set(['name', 'description', 'cron', 'timezone', 'period_hours', 'command', 'args', 'enabled']);

/** Validate one parsed job file; pushes every problem (naming file and field) and returns the job if none. */
function parseJob(file: string, raw: unknown, problems: string[]): JobSpec | undefined {
  const before = problems.length;
  const at = (field: string, msg: string): void => { problems.push(`${file}: ${field} ${msg}`); };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`${file}: expected a JSON object`);
    return undefined;
  }
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!FIELDS.has(k)) at(k, `is not a job field (allowed: ${[...FIELDS].join(', ')})`);

  const stem = basename(file).replace(/\.json$/, '');
  const name = o.name;
  if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(name)) at('name', `must be lower-case letters, digits and dashes (got ${JSON.stringify(name)})`);
  else if (name !== stem) at('name', `"${name}" must equal the file name "${stem}"`);

  const expr = o.cron;
  if (typeof expr !== 'string' || !expr.trim()) at('cron', 'is required (a cron expression such as "0 2 * * *")');
  else if (!cron.validate(expr)) {
    const why = cron.validateDetailed(expr).errors.map((e) => e.message).join('; ');
    at('cron', `"${expr}" is not a valid cron expression${why ? ` (${why})` : ''}`);
  }

  const timezone = o.timezone ?? DEFAULT_TIMEZONE;
  if (typeof timezone !== 'string' || !isTimeZone(timezone)) at('timezone', `${JSON.stringify(timezone)} is not an IANA time zone (e.g. "${DEFAULT_TIMEZONE}")`);

  const period = o.period_hours;
  if (typeof period !== 'number' || !Number.isFinite(period) || period <= 0) at('period_hours', `must be a positive number of hours (got ${JSON.stringify(period)})`);

  const command = o.command;
  if (typeof command !== 'string' || !(JOB_COMMANDS as readonly string[]).includes(command)) {
    at('command', `${JSON.stringify(command)} is not one of ${JOB_COMMANDS.join(', ')}`);
  }

  const args = o.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) at('args', 'must be a list of strings');

  const description = o.description ?? '';
  if (typeof description !== 'string') at('description', 'must be a string');
  const enabled = o.enabled ?? true;
  if (typeof enabled !== 'boolean') at('enabled', 'must be true or false');

  if (problems.length > before) return undefined;
  return {
    name: name as string, description: description as string, cron: expr as string, timezone: timezone as string,
    period_hours: period as number, command: command as JobCommand, args: args as string[], enabled: enabled as boolean, file,
  };
}

/** Read and validate every `*.json` in `dir`; throws one ConfigError (exit 2) listing every problem. */
export function loadJobs(dir: string): JobSpec[] {
  const problems: string[] = [];
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch (e) {
    throw new ConfigError([`jobs folder ${dir}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  const jobs: JobSpec[] = [];
  for (const f of files) {
    const file = join(dir, f);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      problems.push(`${file}: not valid JSON (${(e as Error).message})`);
      continue;
    }
    const job = parseJob(file, raw, problems);
    if (job) jobs.push(job);
  }
  if (!files.length) problems.push(`jobs folder ${dir}: no *.json job file`);
  if (problems.length) throw new ConfigError(problems);
  return jobs;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
