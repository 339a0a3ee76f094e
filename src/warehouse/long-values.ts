// No value longer than MAX_VALUE_BYTES is ever written to a DuckDB column. DuckDB 1.5 keeps a string of about
// 52 KB or more (an "overflow string", a fifth of its 256 KB block) in memory it cannot spill, and when it
// commits an append to a column or checkpoints it, it pins every such string of a 2,048-row stretch at once:
// at the run's 128 MB, 20 lawsuits carrying a 3 MB string in a row failed every later commit and then the
// checkpoint itself (FATAL: the database could not be used again), where the same bytes in 40 KB strings
// spilled to disk and loaded. Measured on 1.5.5 and 1.5.6; README, "Memory".
//
// So the two archive columns, responses_raw.item and lawsuits.raw, keep a longer text in raw_parts, cut into
// parts of at most PART_CHARS (v_responses_raw and v_lawsuit_raw put them back together), and any other
// column's too long value is left NULL with a load problem: the payload is whole in the archive.

/** Longest value written to a column, in UTF-8 bytes: under DuckDB's overflow threshold (52,000 to 55,000 bytes measured). */
const MAX_VALUE_BYTES = 48 * 1024;

/** UTF-16 units per part: at most 3 UTF-8 bytes each (a surrogate pair is 4 bytes for 2 units), so a part fits MAX_VALUE_BYTES. */
const PART_CHARS = 16 * 1024;

/** Whether a text can be written to a column (MAX_VALUE_BYTES of UTF-8). Only long texts are measured. */
export function fitsColumn(s: string): boolean {
  return s.length <= PART_CHARS || (s.length <= MAX_VALUE_BYTES && Buffer.byteLength(s, 'utf8') <= MAX_VALUE_BYTES);
}

/** `s` in parts of at most PART_CHARS UTF-16 units, never cutting a surrogate pair. Joined, they are `s`. */
export function splitParts(s: string): string[] {
  const parts: string[] = [];
  for (let i = 0; i < s.length;) {
    let end = Math.min(s.length, i + PART_CHARS);
    const last = s.charCodeAt(end - 1);
    if (end < s.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(s.slice(i, end));
    i = end;
  }
  return parts;
}

/**
 * Sets to null every string field of `row` (a staged row) too long for a column, calling `tooLong` with the
 * field and the value; returns false when one of `keys` was too long (the row cannot be keyed: drop it).
 */
export function capRow(row: object, keys: readonly string[], tooLong: (field: string, value: string) => void): boolean {
  const r = row as Record<string, unknown>;
  let keyed = true;
  for (const k of Object.keys(r)) {
    const v = r[k];
    if (typeof v !== 'string' || fitsColumn(v)) continue;
    tooLong(k, v);
    r[k] = null;
    if (keys.includes(k)) keyed = false;
  }
  return keyed;
}
