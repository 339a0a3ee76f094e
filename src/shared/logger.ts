import { pino, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { printable } from './printable.js';
import { stderrTerminal, type Terminal } from './terminal.js';

// Logs go to standard error. To a person at a terminal they are plain lines (pino-pretty), written above the
// progress bars through the one terminal owner, so a log line never lands on a bar's line; anywhere else (a
// container, a pipe, cron) they are pino's JSON lines, one object per line, exactly as a log collector wants.
// LOG_FORMAT=json|pretty overrides the choice.

// Paths that may hold the API key or a pre-signed address, wherever they appear in a log object.
export const REDACT_PATHS = [
  'apiKey', '*.apiKey', 'api_key', '*.api_key', 'headers["api-key"]', '*.headers["api-key"]',
  'url', '*.url', 'download_url', '*.download_url', 'downloadUrl', '*.downloadUrl', 'presigned_url', '*.presigned_url',
];

export const LOG_FORMATS = ['json', 'pretty'] as const;
type LogFormat = (typeof LOG_FORMATS)[number];

/** Strip query strings (signatures) from any address-looking text before it is logged or stored. */
export function scrubText(text: string): string {
  return text.replace(/(https?:\/\/[^\s?"']+)\?[^\s"']*/g, '$1?<redacted>');
}

/** LOG_FORMAT if valid, else pretty on a terminal and JSON anywhere else. */
function logFormat(env: NodeJS.ProcessEnv = process.env, terminal: Pick<Terminal, 'isTTY'> = stderrTerminal()): LogFormat {
  const f = env.LOG_FORMAT;
  if (f === 'json' || f === 'pretty') return f;
  return terminal.isTTY ? 'pretty' : 'json';
}

/**
 * A destination for pino that writes human lines through the terminal owner. The JSON line pino made (already
 * redacted) is formatted synchronously, so a line is never left behind in a buffer when the process exits.
 */
function prettyDestination(terminal: Terminal, colorize = terminal.isTTY): { write(line: string): void } {
  const format = prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,app', singleLine: true });
  return {
    write: (line: string) => {
      const obj = JSON.parse(line) as { msg?: unknown };
      // Provider text can hold control characters, which a terminal would obey; the other fields are printed
      // as JSON, which escapes them already.
      if (typeof obj.msg === 'string') obj.msg = printable(obj.msg, 20_000);
      terminal.write(`${format(obj).replace(/\r?\n$/, '')}\n`);
    },
  };
}

let root: Logger | undefined;

export function logger(): Logger {
  if (root) return root;
  const options = { level: process.env.LOG_LEVEL ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { app: 'lawsuit-etl' } };
  root = logFormat() === 'pretty'
    ? pino(options, prettyDestination(stderrTerminal()))
    : pino(options, pino.destination({ dest: 2, sync: true }));
  return root;
}
