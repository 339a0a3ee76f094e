// `lawsuit-etl sandbox`: serve the emulator until SIGTERM/SIGINT. The base address is the first line of
// standard output so that a parent process can read it and point its clients there.

import { DEFAULT_DIALECT, parseDialect } from './dialect.js';
import { startSandbox, type SandboxOptions } from './server.js';
import { parseFaults } from './faults.js';
import { parseResources } from './resource-plan.js';
import { parseRunContent } from './tracking/run-content.js';
import { parseTransferFaults } from './transfer/faults.js';

const USAGE = 'usage: sandbox [--port N] [--host H] [--seed N] [--api-key K]... [--lawsuits N] [--rate-limit N] [--rate-window-ms N] [--court-delay-ms N] [--faults SPEC] [--transfer-faults SPEC] [--now ISO] [--boot-id ID] [--forbid RESOURCE,...] [--retention-ms N] [--dialect documented|spec] [--day-ms N] [--tracking-runs changed|every]';

/** The sandbox's flags, declared for the CLI's help (commander); parseSandboxArgs reads exactly these. */
export const SANDBOX_FLAGS: ReadonlyArray<{ flag: string; help: string }> = [
  { flag: '--port <n>', help: 'the port to listen on (0: any free port); default 0' },
  { flag: '--host <host>', help: 'the address to listen on; default 127.0.0.1' },
  { flag: '--seed <n>', help: 'the seed of the synthetic universe; default 1' },
  { flag: '--api-key <key>', help: 'a key the sandbox accepts (repeatable); default sandbox-key (sandbox-noperm: 403, sandbox-overquota: 403)' },
  { flag: '--lawsuits <n>', help: 'lawsuit instances in the universe; default 20000' },
  { flag: '--rate-limit <n>', help: 'calls per rate window per key; default 180' },
  { flag: '--rate-window-ms <n>', help: 'the sliding rate window; default 60000' },
  { flag: '--court-delay-ms <n>', help: 'time between two courts\' responses of a request; default 1500' },
  { flag: '--faults <spec>', help: 'fault switches, comma-separated name=rate[:ms] (docs/sandbox.md, "Faults"); default none' },
  { flag: '--transfer-faults <spec>', help: 'transfer-file fault switches, ;-separated (docs/sandbox.md, "Faults"); default none' },
  { flag: '--now <iso>', help: 'the sandbox clock\'s start; default the real time' },
  { flag: '--boot-id <id>', help: 'pins the boot id in every id it hands out (tests); default random per process' },
  { flag: '--forbid <resources>', help: 'resources its plan leaves out, answered 403: requests, responses, tracking, lawsuits, transfer; default none' },
  { flag: '--retention-ms <n>', help: 'how long a finished request and its responses are kept; default 43200000 (12 h)' },
  { flag: '--day-ms <n>', help: 'real milliseconds a sandbox day lasts (the clock runs faster below a day); default 86400000' },
  { flag: '--tracking-runs <content>', help: 'what a tracking\'s run sends after its first: changed (the lawsuits changed since the previous run) or every (every lawsuit found); default changed' },
  { flag: '--dialect <name>', help: `the API's dialect: documented (the provider's documentation) or spec (the spec's literal reading); default ${DEFAULT_DIALECT}` },
];

/** Parses the sandbox's flags; throws a RangeError naming every bad flag at once. */
export function parseSandboxArgs(argv: string[]): SandboxOptions {
  const o: SandboxOptions = { port: 0, courtDelayMs: 1500 };
  const problems: string[] = [];
  const keys: string[] = [];
  const num = (flag: string, v: string | undefined): number | undefined => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < 0) { problems.push(`${flag} needs a non-negative number`); return undefined; }
    return n;
  };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? argv[++k];
    switch (flag) {
      case '--port': o.port = num(flag, value()); break;
      case '--host': o.host = value(); break;
      case '--seed': o.seed = num(flag, value()); break;
      case '--api-key': { const v = value(); if (v) keys.push(v); else problems.push('--api-key needs a value'); break; }
      case '--lawsuits': o.lawsuits = num(flag, value()); break;
      case '--rate-limit': o.rateLimit = num(flag, value()); break;
      case '--rate-window-ms': o.rateWindowMs = num(flag, value()); break;
      case '--court-delay-ms': o.courtDelayMs = num(flag, value()); break;
      case '--faults': {
        const v = value() ?? '';
        try { parseFaults(v); } catch (e) { problems.push(`--faults: ${(e as Error).message}`); }
        o.faults = v;
        break;
      }
      case '--boot-id': {
        const v = value();
        if (!v || !/^[A-Za-z0-9_-]{1,64}$/.test(v)) problems.push('--boot-id needs 1-64 characters of [A-Za-z0-9_-]');
        else o.bootId = v;
        break;
      }
      case '--forbid': o.forbid = parseResources(value() ?? '', '--forbid', problems); break;
      case '--retention-ms': o.retentionMs = num(flag, value()); break;
      case '--transfer-faults': {
        const parsed = parseTransferFaults(value() ?? '');
        problems.push(...parsed.problems, ...parsed.rest.map((r) => `--transfer-faults: unknown switch ${r}`));
        o.transfer = { ...o.transfer, faults: parsed.faults };
        break;
      }
      case '--now': o.now = value(); break;
      case '--dialect': o.dialect = parseDialect(value() ?? '', '--dialect', problems); break;
      case '--day-ms': {
        const n = num(flag, value());
        if (n === 0) problems.push('--day-ms needs a positive number');
        else o.dayMs = n;
        break;
      }
      case '--tracking-runs': o.trackingRuns = parseRunContent(value() ?? '', '--tracking-runs', problems); break;
      default: problems.push(`unknown flag ${a}`);
    }
  }
  if (keys.length) o.apiKeys = keys;
  if (problems.length) throw new RangeError(`${problems.join('; ')}\n${USAGE}`);
  return o;
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
