// DuckDB 1.5.5 and 1.5.6 cannot open a file whose WAL holds an ALTER (COMMENT ON COLUMN, ADD COLUMN) of a
// table with a function DEFAULT (current_timestamp, nextval, uuid): replaying it on open binds the default
// before the database is registered, and fails with "INTERNAL Error: Failure while replaying WAL file ...
// Calling DatabaseManager::GetDefaultDatabase with no default database set". The same WAL replays without
// fault when the file is ATTACHed from another database, because a default database exists by then
// (measured on both versions: rows, comments and added columns all come back). docs/warehouse.md, "The DuckDB WAL bug".
//
// Warehouse.open attaches every file so (for its row groups, warehouse.ts), so the bug no longer bites a warehouse;
// nor does the warehouse leave catalog changes in the WAL (migrations and comments are checkpointed as they are
// made). What stays here: telling an open failure that is the file's own from one that is not.

/** A DuckDB open failure that says the WAL could not be replayed. */
function isWalReplayFailure(e: unknown): boolean {
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
