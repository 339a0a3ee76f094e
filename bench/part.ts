// A part of `npm run bench`: one file of bench/parts/, one BENCH_ONLY name, its figures as JSON keys. main.ts
// runs them in order (the whole) or one alone; test/bench/each-part-runs-at-toy-size.test.ts runs every one at
// toy size, so that a part broken by a change fails `npm test` instead of the next person's bench. Adding a part
// is a file here and one line in PARTS (bench/parts/index.ts).

/** How big a part runs: `toy` for the test (seconds), `quick` for BENCH_QUICK=1, `full` for the whole bench. */
export type Scale = 'toy' | 'quick' | 'full';

/** Prints one line of the bench's table: a figure, its value, and what it was measured on. */
export type Line = (key: string, value: string | number, note?: string) => void;

export interface BenchPart {
  /** Its BENCH_ONLY name. */
  name: string;
  /** The JSON keys it always returns (the test checks them; the docs' figure table names them). */
  keys: readonly string[];
  /**
   * Runs at `scale`, printing its lines; returns its figures for the JSON line. `alone`: run by BENCH_ONLY (a part
   * may measure more alone than in the whole bench, as the rebuild does).
   */
  run(scale: Scale, line: Line, alone?: boolean): Promise<Record<string, unknown>>;
}

/** The size of something at `scale`. */
export const at = <T>(scale: Scale, sizes: Readonly<Record<Scale, T>>): T => sizes[scale];

/** The table's line printer: key, value right-aligned, note. */
export const printLine: Line = (k, v, note = '') => console.log(`${k.padEnd(34)} ${String(v).padStart(10)}  ${note}`);
