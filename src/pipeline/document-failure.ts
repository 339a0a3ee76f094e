import type { ItemFailure } from './stage.js';

// What the per-document commands (`query`, `track`) say of a listed document they could not do: the document's
// line and search, and the error's code and message. Recorded, and the other documents go on.

/** A listed document a per-document command could not do, and why. */
export interface DocumentFailure { line: number; searchType: string; searchKey: string; code: string; reason: string }

/** As the command's stage reports them. */
export const asItemFailures = (fs: readonly DocumentFailure[]): ItemFailure[] =>
  fs.map((f) => ({ what: 'document', where: `line ${f.line} (${f.searchType})`, code: f.code, reason: f.reason }));
