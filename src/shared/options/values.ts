// The values some options allow, and defaults other modules share, named once for the table and for Config.

/** pino's levels, and `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const EXPORT_PRIVACY_MODES = ['off', 'pseudonymise'] as const;
export type ExportPrivacyMode = (typeof EXPORT_PRIVACY_MODES)[number];

/** Shorter secrets can be guessed; 32 characters is what `openssl rand -hex 16` prints. */
export const MIN_EXPORT_SALT_LENGTH = 32;

/** Where `run` takes a night's lawsuits from: a search bought per document, or the runs of each document's tracking. */
export const RUN_SOURCES = ['searches', 'trackings'] as const;
export type RunSource = (typeof RUN_SOURCES)[number];

/** How the intake pays for a delivery's fsync: one each, or one per batch of those that arrived together (group commit). */
export const CALLBACK_FSYNC_MODES = ['batch', 'delivery'] as const;
export type CallbackFsync = (typeof CALLBACK_FSYNC_MODES)[number];

/** The callback secret is part of a URL and guards it alone (nothing is signed): long, and of the characters a URL path keeps as they are. */
export const MIN_CALLBACK_SECRET_LENGTH = 32;
export const CALLBACK_SECRET_CHARS = /^[A-Za-z0-9._~-]+$/;

/**
 * How deep the warehouse keeps each lawsuit (docs/two-levels.md): `whole` reads every lawsuit found at the lawsuit
 * level and keeps it whole; `active` does so until it is archived or finished, then leaves it as it stands;
 * `header` keeps the headers the searches by document answer and never reads a lawsuit whole.
 */
export const LAWSUIT_DETAILS = ['whole', 'active', 'header'] as const;
export type LawsuitDetail = (typeof LAWSUIT_DETAILS)[number];

export const RESPONSES_STRATEGIES = ['sweep', 'per-request'] as const;
export type ResponsesStrategy = (typeof RESPONSES_STRATEGIES)[number];

/**
 * The deadlines of one call, in ms, each from its own variable in seconds (decimals allowed). Nothing waits on the
 * network without one (docs/operating.md, "Deadlines"); what each bounds is said by its option (table.ts).
 */
export interface CallDeadlines {
  connectMs: number;
  headersMs: number;
  /** The whole body, not the gap between two chunks: an upstream trickling a byte every 20 s never breaks a gap rule. */
  bodyMs: number;
  /** 30 min by default: a 300 MB file at 170 kB/s. */
  downloadMs: number;
}

export const DEFAULT_DEADLINES_MS: Readonly<CallDeadlines> = { connectMs: 10_000, headersMs: 30_000, bodyMs: 120_000, downloadMs: 1_800_000 };
