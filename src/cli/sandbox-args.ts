import { parseDialect } from '../sandbox/dialect.js';
import { parseFaults } from '../sandbox/faults.js';
import { parseResources } from '../sandbox/resource-plan.js';
import { serveSandbox, type SandboxCliIo } from '../sandbox/cli.js';
import type { SandboxOptions } from '../sandbox/server.js';
import { parseRunContent } from '../sandbox/tracking/run-content.js';
import { parseTransferFaults } from '../sandbox/transfer/faults.js';
import { readArgv } from '../shared/options/argv.js';
import { flagOptions } from '../shared/options/docs.js';
import type { Option } from '../shared/options/option.js';
import type { OptionName } from '../shared/options/table.js';

// `lawsuit-etl sandbox`'s command line, read against the option table (`flagOf: sandbox`) into the emulator's
// options. Read here, in the CLI, because the emulator imports nothing of ours (ARCHITECTURE.md): it is a second
// reading of the spec, and a program of its own that reads its flags only (no variable, no config file).

/** The sandbox's flags: the option table's (src/shared/options/table.ts, `flagOf: sandbox`), by option name. */
const FLAGS = Object.fromEntries(flagOptions('sandbox')) as Record<OptionName, Option>;

const USAGE = `usage: sandbox ${Object.values(FLAGS).map((o) => `[${o.flag}]${o.repeatable ? '...' : ''}`).join(' ')}`;

/** How each flag's text becomes a SandboxOptions field; a number's text is read by its option's kind. */
const APPLY: Partial<Record<OptionName, (o: SandboxOptions, v: string, flag: string, problems: string[]) => void>> = {
  host: (o, v) => { o.host = v; },
  now: (o, v) => { o.now = v; },
  apiKeys: (o, v, flag, problems) => { if (v) (o.apiKeys ??= []).push(v); else problems.push(`${flag} needs a value`); },
  faults: (o, v, _f, problems) => {
    try { parseFaults(v); } catch (e) { problems.push(`--faults: ${(e as Error).message}`); }
    o.faults = v;
  },
  bootId: (o, v, flag, problems) => {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(v)) problems.push(`${flag} needs 1-64 characters of [A-Za-z0-9_-]`);
    else o.bootId = v;
  },
  forbid: (o, v, flag, problems) => { o.forbid = parseResources(v, flag, problems); },
  transferFaults: (o, v, _f, problems) => {
    const parsed = parseTransferFaults(v);
    problems.push(...parsed.problems, ...parsed.rest.map((r) => `--transfer-faults: unknown switch ${r}`));
    o.transfer = { ...o.transfer, faults: parsed.faults };
  },
  dialect: (o, v, flag, problems) => { o.dialect = parseDialect(v, flag, problems); },
  dayMs: (o, v, flag, problems) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n <= 0) problems.push(`${flag} needs a positive number`);
    else o.dayMs = n;
  },
  trackingRuns: (o, v, flag, problems) => { o.trackingRuns = parseRunContent(v, flag, problems); },
};

/** Parses the sandbox's flags; throws a RangeError naming every bad flag at once. */
export function parseSandboxArgs(argv: string[]): SandboxOptions {
  const o: Record<string, unknown> = {};
  for (const [name, opt] of Object.entries(FLAGS) as Array<[OptionName, Option]>) if (opt.default !== undefined) o[name] = opt.default;
  const problems: string[] = [];
  for (const item of readArgv(argv, FLAGS)) {
    if ('problem' in item) { problems.push(item.problem); continue; }
    const apply = APPLY[item.name];
    if (apply) { apply(o as SandboxOptions, item.value, item.flag, problems); continue; }
    const parsed = FLAGS[item.name].kind.parse(item.value);
    if ('value' in parsed) o[item.name] = parsed.value;
    else problems.push(`${item.flag}${parsed.why.join('')}`);
  }
  if (problems.length) throw new RangeError(`${problems.join('; ')}\n${USAGE}`);
  return o as SandboxOptions;
}

/** `lawsuit-etl sandbox [flags]`: the emulator served until SIGTERM/SIGINT (or `io.stop`). */
export function runSandboxCli(argv: string[], io: SandboxCliIo = {}): Promise<void> {
  return serveSandbox(parseSandboxArgs(argv), io);
}
