import type { DocumentSpec } from '../input/documents.js';
import { isEtlError } from '../shared/errors.js';
import type { ItemFailure } from './stage.js';

// What the per-document commands (`query`, `track`) say of a listed document they could not do: the document's
// line and search, and the error's code and message. Recorded, and the other documents go on.

/** A listed document a per-document command could not do, and why. */
export interface DocumentFailure { line: number; searchType: string; searchKey: string; code: string; reason: string }

/** The failure of `doc` by `e`: the error's code (`unexpected` for one with no code of ours) and its message. */
export function documentFailure(doc: DocumentSpec, e: unknown, unexpected: string): DocumentFailure {
  const code = isEtlError(e) ? e.code : unexpected;
  const reason = e instanceof Error ? e.message : String(e);
  return { line: doc.line, searchType: doc.searchType, searchKey: doc.searchKey, code, reason };
}

/** As the command's stage reports them. */
export const asItemFailures = (fs: readonly DocumentFailure[]): ItemFailure[] =>
  fs.map((f) => ({ what: 'document', where: `line ${f.line} (${f.searchType})`, code: f.code, reason: f.reason }));
