import { DuckDBInstance } from '@duckdb/node-api';

// DuckDB 1.5.5 and 1.5.6 cannot open a file whose WAL holds an ALTER (COMMENT ON COLUMN, ADD COLUMN) of a
// table with a function DEFAULT (current_timestamp, nextval, uuid): replaying it on open binds the default
// before the database is registered, and fails with "INTERNAL Error: Failure while replaying WAL file ...
// Calling DatabaseManager::GetDefaultDatabase with no default database set". The same WAL replays without
// fault when the file is ATTACHed from another database, because a default database exists by then
// (measured on both versions: rows, comments and added columns all come back). README, "The DuckDB WAL bug".
//
// The warehouse no longer leaves catalog changes in the WAL (migrations and comments are checkpointed as they
// are made), so this is for files written before that, or by a DuckDB that meets the bug in a new form.

/** A DuckDB open failure that says the WAL could not be replayed. */
export function isWalReplayFailure(e: unknown): boolean {
  return /Failure while replaying WAL/i.test(messageOf(e));
}

/**
 * An open failure that says the file's contents are damaged (as opposed to a lock held by another process,
 * a permission or a missing folder, which setting the file aside would not cure).
 */
export function isDamagedFile(e: unknown): boolean {
  return isWalReplayFailure(e) || /not a valid DuckDB database file|Corrupt|checksum|INTERNAL Error/i.test(messageOf(e));
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

function messageOf(e: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = e, depth = 0; c !== undefined && c !== null && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    parts.push(String((c as Error).message ?? c));
  }
  return parts.join('\n');
}
