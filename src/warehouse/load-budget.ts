// How much the loader takes on at once, in bytes, from DuckDB's memory limit. Measured on DuckDB 1.5.5 at the
// run's default limit of 128 MB (docs/operating.md, "Memory"):
//
// - A batch's payload is staged about four times over (the item, the lawsuit's raw, its steps' raw and
//   content) before the merges copy it into the tables: three 10 MB lawsuits in one batch ran DuckDB out of
//   memory. A batch therefore holds at most `batchBytes` of payload text, whatever its number of items.
// - A single lawsuit of 24 MB still flattened at 128 MB, one of 32 MB did not: an item larger than
//   `maxFlattenBytes` is not flattened at all. It is kept whole in responses_raw (in parts, long-values.ts)
//   with a load problem (`too_large`), and the rest of its page loads.
// - No stored value is longer than 48 KB (long-values.ts): that is what keeps a night of large lawsuits from
//   pinning DuckDB's memory, and what lets these bounds hold batch after batch.

export interface LoadBudget {
  /** Payload text (characters of the items' JSON) per batch. memory limit / 16: 8 MB at 128 MB. */
  batchBytes: number;
  /** Largest item flattened into the typed tables; larger ones stay in responses_raw only. memory limit / 8: 16 MB at 128 MB. */
  maxFlattenBytes: number;
}

export function loadBudget(memoryLimitBytes: number): LoadBudget {
  const m = Math.max(16 * 2 ** 20, memoryLimitBytes);
  return { batchBytes: Math.floor(m / 16), maxFlattenBytes: Math.floor(m / 8) };
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
