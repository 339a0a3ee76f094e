import { serveIntake } from '../intake/serve.js';
import { loadConfig } from '../shared/config.js';
import { isEtlError } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { EXIT, troubleOf, type ExitCode } from './exit-codes.js';
import { handOff } from './hand-off.js';
import type { Parsed } from './program.js';

// `lawsuit-etl receive`: the webhook intake until SIGTERM or SIGINT (what was accepted is answered, then it exits
// 0). Reached from main.ts without the rest of the commands: the intake is a long-running process whose memory is
// its own (some 50 MB, where loading DuckDB and the reports' charts would double it for nothing).

export async function receiveCommand(args: Parsed): Promise<ExitCode> {
  const cfg = loadConfig({ flags: args.flags, command: 'receive' });
  const log = logger();
  log.level = cfg.logLevel;
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    await serveIntake(cfg.callback, { log, signal: stop.signal, out: process.stdout });
    handOff(cfg.summaryFile, { command: 'receive', status: 'ok' }, log);
    return EXIT.ok;
  } catch (e) {
    handOff(cfg.summaryFile, { command: 'receive', status: troubleOf(e), ...(isEtlError(e) ? { code: e.code } : {}) }, log);
    throw e;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}
