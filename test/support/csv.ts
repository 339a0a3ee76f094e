import { CsvReader, type CsvItem } from '../../src/input/csv.js';

/**
 * Every record of a CSV document held in memory, in order, as the reader gives them when the whole document is
 * one chunk (the product streams files through CsvReader; a test hands it a string).
 */
export function parseCsv(input: Uint8Array | string, opts: ConstructorParameters<typeof CsvReader>[0] = {}): CsvItem[] {
  const reader = new CsvReader(opts);
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  return [...reader.push(bytes), ...reader.end()];
}
