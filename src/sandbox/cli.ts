// `lawsuit-etl sandbox`: serve the emulator until SIGTERM/SIGINT. The base address is the first line of
// standard output so that a parent process can read it and point its clients there. The emulator reads its flags
// only (no variable, no config file): it is a program of its own, run beside the client as the real service is.

import { readArgv } from '../shared/options/argv.js';
import { flagOptions } from '../shared/options/docs.js';
import type { Option } from '../shared/options/option.js';
import type { OptionName } from '../shared/options/table.js';
import { parseDialect } from './dialect.js';
import { startSandbox, type SandboxOptions } from './server.js';
import { parseFaults } from './faults.js';
import { parseResources } from './resource-plan.js';
import { parseRunContent } from './tracking/run-content.js';
import { parseTransferFaults } from './transfer/faults.js';

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

interface SandboxCliIo {
  /** Where the base address line goes. Default process.stdout. */
  out?: { write(s: string): unknown };
  /** Resolves when the sandbox should stop, besides SIGTERM/SIGINT (tests use it). */
  stop?: Promise<unknown>;
}

/** Parses argv, starts the sandbox, prints its base address as the first stdout line, serves until stopped. */
export async function runSandboxCli(argv: string[], io: SandboxCliIo = {}): Promise<void> {
  const sandbox = await startSandbox(parseSandboxArgs(argv));
  (io.out ?? process.stdout).write(`${sandbox.url}\n`);
  await new Promise<void>((resolve) => {
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      sandbox.close().then(resolve, resolve);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    io.stop?.then(stop, stop);
  });
}
