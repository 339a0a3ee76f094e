#!/usr/bin/env -S node --max-old-space-size=128 --max-semi-space-size=4
// The heap flags in the line above are the run's memory budget beside DuckDB's own (see docs/operating.md, "Memory").
import { configurationProblems, ConfigError, isEtlError, type EtlError } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { printable } from '../shared/printable.js';
import { EXIT, exitCodeOf, troubleOf, type ExitCode } from './exit-codes.js';
import { CliExit, parseCommandLine } from './program.js';

// The entry: argv -> command -> exit code. Commands throw typed errors or return how they ended; only src/cli
// chooses exit codes (exit-codes.ts).

async function main(argv: string[]): Promise<ExitCode> {
  try {
    const parsed = parseCommandLine(argv);
    // The intake runs for weeks: it loads its own modules only, not the warehouse's and the reports' (receive.ts).
    if (parsed.command === 'receive') return await (await import('./receive.js')).receiveCommand(parsed);
    return await (await import('./commands.js')).runCommand(parsed);
  } catch (e) {
    if (e instanceof CliExit) {
      (e.exitCode === EXIT.ok ? process.stdout : process.stderr).write(`${e.printed.trimEnd()}\n`);
      return e.exitCode;
    }
    const trouble = troubleOf(e);
    if (isEtlError(e)) {
      process.stderr.write(`lawsuit-etl: ${shown(e)}${trouble === 'refused' ? '' : ` [${e.code}]`}\n`);
      if (trouble === 'unexpected') logger().error({ err: e }, 'run failed');
      return exitCodeOf(trouble);
    }
    logger().error({ err: e }, 'unexpected failure');
    process.stderr.write(`lawsuit-etl: unexpected failure: ${printable((e as Error)?.message ?? String(e), 4_000)}\n`);
    return EXIT.unexpected;
  }
}

/**
 * An error's message as a person should see it. A ConfigError lists one problem a line: the breaks between
 * them are ours and stay breaks, while each problem, which may quote a value from outside, is escaped on its
 * own. Any other message is one line, escaped whole (a break in it came from outside).
 */
function shown(e: EtlError): string {
  if (e instanceof ConfigError) return configurationProblems(e.problems.map((p) => printable(p, 1_000)));
  return printable(e.message, 4_000);
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // Sockets kept alive by pools or timers must not keep a finished command running.
  setTimeout(() => process.exit(code), 200).unref();
});
