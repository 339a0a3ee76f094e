import { pino, type Logger } from 'pino';

// Paths that may hold the API key or a pre-signed address, wherever they appear in a log object.
export const REDACT_PATHS = [
  'apiKey', '*.apiKey', 'api_key', '*.api_key', 'headers["api-key"]', '*.headers["api-key"]',
  'url', '*.url', 'download_url', '*.download_url', 'downloadUrl', '*.downloadUrl', 'presigned_url', '*.presigned_url',
];

/** Strip query strings (signatures) from any address-looking text before it is logged or stored. */
export function scrubText(text: string): string {
  return text.replace(/(https?:\/\/[^\s?"']+)\?[^\s"']*/g, '$1?<redacted>');
}

let root: Logger | undefined;

export function logger(): Logger {
  root ??= pino({
    level: process.env.LOG_LEVEL ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { app: 'lawsuit-etl' },
  }, pino.destination({ dest: 2, sync: true }));
  return root;
}

/** Tests and the CLI may swap the root logger (e.g. to a silent one). */
export function setLogger(l: Logger): void {
  root = l;
}
