import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { COMMAND_NAMES } from '../../src/cli/command-specs.js';
import { parseSandboxArgs } from '../../src/cli/sandbox-args.js';
import { runScheduleCli } from '../../src/schedule/command.js';
import { ConfigError } from '../../src/shared/errors.js';
import { COMMAND_NEEDS, loadConfig, type ConfiguredCommand } from '../../src/shared/config.js';
import { runCli } from '../support/cli.js';
import { declaredFlags as flagsOf } from '../support/option-tables.js';

// The command line as a user meets it: a help per command listing every flag that command accepts (and only
// those), the version, and a suggestion for what was mistyped.

const cli = (args: string[]) => runCli(args, { PATH: process.env.PATH ?? '' }, 30_000);
const longName = (flag: string) => flag.split(/[ ,]/).find((p) => p.startsWith('--'))!;

/** The flag names loadConfig reads for a command, observed rather than listed (a Proxy on its flags). */
function flagsConfigReads(command: ConfiguredCommand): string[] {
  const read = new Set<string>();
  const flags = new Proxy({}, { get: (_t, k) => { if (typeof k === 'string') read.add(k); return undefined; } });
  try {
    loadConfig({ env: { LAWSUIT_SANDBOX: 'true' }, flags, command });
  } catch {
    // problems do not matter here, only what was read
  }
  return [...read].map((k) => `--${k}`);
}

describe('lawsuit-etl <command> --help', () => {
  const helps = new Map(COMMAND_NAMES.map((c) => [c, cli([c, '--help'])]));

  it('is its own for every command and lists every flag the command accepts, with its default', () => {
    for (const [c, res] of helps) {
      expect(res.status, c).toBe(0);
      expect(res.stdout, c).toContain(`Usage: lawsuit-etl ${c}`);
      for (const f of flagsOf(c)) {
        expect(res.stdout, `${c} ${f.flag}`).toContain(f.flag);
        // every flag that takes a value says what it is when left out
        if (f.flag.includes('<') && !f.required && f.flag !== '--run <id>') expect(f.help, `${c} ${f.flag}`).toMatch(/default|no default/);
      }
    }
    expect(new Set([...helps.values()].map((r) => r.stdout)).size).toBe(COMMAND_NAMES.length);
  });

  it('says whether the command needs the API key and addresses, as the configuration check does', () => {
    for (const c of Object.keys(COMMAND_NEEDS) as ConfiguredCommand[]) {
      if (c === 'schedule') continue; // its jobs need what their commands need
      const help = helps.get(c)!.stdout;
      if (COMMAND_NEEDS[c].api) expect(help, c).toContain('LAWSUIT_API_KEY');
      else expect(help, c).toMatch(/sends nothing to the API: no key or address is needed/);
    }
  });

  it('the flags declared are the flags the code reads: the configuration, the sandbox and the scheduler alike', () => {
    // every flag a command declares is read (by the configuration, or by the command itself: --kind, --run), and
    // every flag the configuration reads from a command line can be given to some command
    const anywhere = new Set(COMMAND_NAMES.flatMap((c) => flagsOf(c).map((f) => longName(f.flag))));
    for (const c of COMMAND_NAMES) {
      if (!(c in COMMAND_NEEDS) || c === 'schedule') continue; // schedule's flags are checked against its parser below
      const read = new Set([...flagsConfigReads(c as ConfiguredCommand), '--kind', '--run']);
      for (const f of flagsOf(c).map((x) => longName(x.flag))) expect(read.has(f), `${c} declares ${f} but nothing reads it`).toBe(true);
      for (const f of flagsConfigReads(c as ConfiguredCommand)) expect(anywhere.has(f), `the configuration reads ${f}, which no command declares`).toBe(true);
    }
    // the sandbox's and the scheduler's own readers take every flag their help declares, and nothing else
    const sandboxFlags = flagsOf('sandbox').map((f) => longName(f.flag));
    for (const f of sandboxFlags) {
      let said = '';
      try { parseSandboxArgs([f, 'x']); } catch (e) { said = (e as Error).message; }
      expect(said, `sandbox declares ${f} but its reader does not know it`).not.toContain('unknown flag');
    }
    expect(() => parseSandboxArgs(['--jobs', 'x'])).toThrow(/unknown flag --jobs/);
  });

  it('the scheduler reads every flag its help declares, and nothing else', async () => {
    const given = flagsOf('schedule').flatMap((f) => [longName(f.flag), f.flag.includes('<') ? '70000' : '']).filter(Boolean);
    const said = await runScheduleCli([...given, '--kind', 'count'], { env: {} }).then(() => '', (e: unknown) => (e as Error).message);
    // only what no declaration names is refused
    expect(said).toBe('schedule: unknown flag --kind; unknown flag count (lawsuit-etl schedule --help lists the flags)');
    const read = await runScheduleCli(given, { env: {}, configure: () => { throw new ConfigError(['stop here']); } }).then(() => undefined, (e: unknown) => e);
    // every flag reached the configuration: the one given a bad value says so, under its own name
    expect((read as ConfigError).problems).toContain('--metrics-port / LAWSUIT_METRICS_PORT="70000" must be a whole number from 0 to 65535');
  });

  it('every command that can end with an exit code lists them all, as the contract has them', () => {
    for (const [c, res] of helps) {
      if (c === 'sandbox') continue; // it serves until SIGTERM and exits 0
      const help = res.stdout.replace(/\s+/g, ' ');
      for (const code of ['0 all done', '1 unexpected failure', '2 bad usage', '3 the API key was refused', '4 finished, but', '75 try later']) {
        expect(help, `${c}: ${code}`).toContain(code);
      }
      expect(help, c).toMatch(/another run holds the lock, or nothing reached the upstream/);
    }
  });

  it('--version prints the package version', () => {
    const res = cli(['--version']);
    expect(res.status).toBe(0);
    expect(res.stdout.trim()).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
  });

  it('a mistyped command or flag is a usage error (exit 2) that suggests what was meant', () => {
    const flag = cli(['run', '--documnets', 'x.csv']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain("unknown option '--documnets'");
    expect(flag.stderr).toContain('Did you mean --documents?');
    const command = cli(['runn']);
    expect(command.status).toBe(2);
    expect(command.stderr).toContain('Did you mean run?');
    const kind = cli(['query']);
    expect(kind.status).toBe(2);
    expect(kind.stderr).toContain("required option '--kind <kind>' not specified");
    const badKind = cli(['query', '--kind', 'nope']);
    expect(badKind.status).toBe(2);
    expect(badKind.stderr).toContain('Allowed choices are exists, count, grouped, historical');
    expect(badKind.stderr).not.toContain('null');
  });
});
