import { DuckDBInstance } from '@duckdb/node-api';

// DuckDB 1.5.5 and 1.5.6 cannot open a file whose WAL holds an ALTER (COMMENT ON COLUMN, ADD COLUMN) of a
// table with a function DEFAULT (current_timestamp, nextval, uuid): replaying it on open binds the default
// before the database is registered, and fails with "INTERNAL Error: Failure while replaying WAL file ...
// Calling DatabaseManager::GetDefaultDatabase with no default database set". The same WAL replays without
// fault when the file is ATTACHed from another database, because a default database exists by then
// (measured on both versions: rows, comments and added columns all come back). docs/warehouse.md, "The DuckDB WAL bug".
//
// The warehouse no longer leaves catalog changes in the WAL (migrations and comments are checkpointed as they
// are made), so this is for files written before that, or by a DuckDB that meets the bug in a new form.

/** A DuckDB open failure that says the WAL could not be replayed. */
export function isWalReplayFailure(e: unknown): boolean {
  return /Failure while replaying WAL/i.test(messageOf(e));
}

/**
 * Causes of an open failure that are not the file's: a lock another process holds, a permission, a missing
 * folder, a full disk, too few file handles or too little memory. Setting the file aside cures none of them.
 */
const NOT_THE_FILE = /Could not set lock|Conflicting lock|Permission denied|No such file or directory|No space left|Read-only file system|Too many open files|Out of Memory/i;

/**
 * An open failure that is the file's own: any but those NOT_THE_FILE names. Read this way round because DuckDB
 * says damage in many ways ("not a valid DuckDB database file", "Corrupt", a checksum, "Could not read enough
 * bytes" from a file cut short, an INTERNAL Error): a list of those missed the cut-short file, and every later
 * run stopped on it.
 */
export function isDamagedFile(e: unknown): boolean {
  return isWalReplayFailure(e) || !NOT_THE_FILE.test(messageOf(e));
}

interface ReplayOptions {
  /** DuckDB memory limit for the replay, e.g. '128MB'. Default DuckDB's own. */
  memoryLimit?: string;
  /** DuckDB threads for the replay. Default 1. */
  threads?: number;
}

/**
 * Replays `path`'s WAL by ATTACHing the file to an in-memory database, then CHECKPOINTs it into the file
 * and detaches: the file then opens on its own with everything its WAL held. Throws if DuckDB cannot do it.
 */
export async function replayWalThroughAttach(path: string, opts: ReplayOptions = {}): Promise<void> {
  // Spilling goes next to the file (DuckDB's own default for a file), never to the process's working folder.
  const config: Record<string, string> = { threads: String(opts.threads ?? 1), temp_directory: `${path}.tmp` };
  if (opts.memoryLimit !== undefined) config.memory_limit = opts.memoryLimit;
  const instance = await DuckDBInstance.create(':memory:', config);
  const connection = await instance.connect();
  try {
    await connection.run(`ATTACH '${path.replace(/'/g, "''")}' AS replayed`);
    await connection.run('CHECKPOINT replayed');
    await connection.run('DETACH replayed');
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The first line of an error's message (DuckDB appends long advice after it). */
export function firstLine(e: unknown): string {
  return messageOf(e).split('\n')[0].slice(0, 400);
}

/** The messages of an error and of its causes, one a line (DuckDB's own words are in a cause). */
export function messageOf(e: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = e, depth = 0; c !== undefined && c !== null && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    parts.push(String((c as Error).message ?? c));
  }
  return parts.join('\n');
}
