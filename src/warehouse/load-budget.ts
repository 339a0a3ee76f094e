// How much the loader takes on at once, in bytes, from DuckDB's memory limit. Measured on DuckDB 1.5.5 at the
// run's default limit of 128 MB (README, "Memory"):
//
// - A string value of about 52 KB or more (a fifth of DuckDB's 256 KB block: an "overflow string") is held in
//   memory, unspillable, from the moment it is written until the next checkpoint: 150 MB of 100 KB strings
//   inserted one commit at a time failed at 128 MB, where the same bytes in 40 KB strings spilled to disk and
//   loaded. A lawsuit's payload is staged about four times (the item, the lawsuit's raw, its steps' raw and
//   content) and then copied into the tables, so three 10 MB lawsuits in one batch ran DuckDB out of memory.
// - Hence: a batch holds at most `batchBytes` of payload text; a commit after which the big values written
//   since the last checkpoint exceed `checkpointBytes` is followed by a CHECKPOINT, which frees them; and an
//   item larger than `maxFlattenBytes` is not flattened at all: it is kept once, in responses_raw, with a
//   load problem (`too_large`), and the rest of its page loads.

/** Strings at least this long (UTF-16 units) count as DuckDB overflow strings (measured threshold: 52 000 to 55 000 bytes). */
export const OVERFLOW_STRING_CHARS = 48 * 1024;

export interface LoadBudget {
  /** Payload text (characters of the items' JSON) per batch. memory limit / 16: 8 MB at 128 MB. */
  batchBytes: number;
  /** Largest item flattened into the typed tables; larger ones stay in responses_raw only. memory limit / 8: 16 MB at 128 MB. */
  maxFlattenBytes: number;
  /** Big values written since the last checkpoint that make the next commit checkpoint. memory limit / 4: 32 MB at 128 MB. */
  checkpointBytes: number;
}

export function loadBudget(memoryLimitBytes: number): LoadBudget {
  const m = Math.max(16 * 2 ** 20, memoryLimitBytes);
  return { batchBytes: Math.floor(m / 16), maxFlattenBytes: Math.floor(m / 8), checkpointBytes: Math.floor(m / 4) };
}

/** DuckDB's own rendering of a size ('122.0 MiB', '18.8 GiB', '512 bytes') in bytes, or undefined. */
export function parseDuckSize(text: string): number | undefined {
  const m = /^\s*([\d.]+)\s*(bytes|[KMGT]i?B)?\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = (m[2] ?? 'bytes').toUpperCase();
  const pow = { BYTES: 0, KB: 1, KIB: 1, MB: 2, MIB: 2, GB: 3, GIB: 3, TB: 4, TIB: 4 }[unit];
  if (pow === undefined) return undefined;
  const base = unit.includes('I') || unit === 'BYTES' ? 1024 : 1000;
  return Math.round(Number(m[1]) * base ** pow);
}
