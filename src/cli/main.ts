#!/usr/bin/env -S node --max-old-space-size=128 --max-semi-space-size=4
// The heap flags in the line above are the run's memory budget beside DuckDB's own (see README, Memory).
import { isEtlError, EXIT, type ExitCode } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { HELP, parseCli } from './args.js';
import { runCommand } from './commands.js';

// The entry: argv -> command -> exit code. Commands throw typed errors; only this file chooses exit codes.

async function main(argv: string[]): Promise<ExitCode> {
  try {
    const args = parseCli(argv);
    if (args.help && !args.command) {
      process.stdout.write(`${HELP}\n`);
      return EXIT.ok;
    }
    return await runCommand(args);
  } catch (e) {
    if (isEtlError(e)) {
      process.stderr.write(`lawsuit-etl: ${e.message}${e.exitCode === EXIT.auth ? '' : ` [${e.code}]`}\n`);
      if (e.exitCode === EXIT.unexpected) logger().error({ err: e }, 'run failed');
      return e.exitCode;
    }
    logger().error({ err: e }, 'unexpected failure');
    process.stderr.write(`lawsuit-etl: unexpected failure: ${(e as Error)?.message ?? String(e)}\n`);
    return EXIT.unexpected;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // Sockets kept alive by pools or timers must not keep a finished command running.
  setTimeout(() => process.exit(code), 200).unref();
});
