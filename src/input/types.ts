// The documents list as the rest of the pipeline sees it (CONTRACT.md, "The documents list").
import { SEARCH_TYPES, type SearchType } from '../spec/types.js';
import type { SearchOptions } from './search-options.js';

export { SEARCH_TYPES, type SearchType };

export function isSearchType(s: string): s is SearchType {
  return (SEARCH_TYPES as readonly string[]).includes(s);
}

/**
 * One usable line of the documents list. Its filter and options (SearchOptions: `filter`, `customerKey`,
 * `maskedResponse`, `withAttachments`) are each absent when the line leaves them empty.
 */
export interface DocumentSpec extends SearchOptions {
  /** Physical line (1-based) where the line's record starts in the file. */
  line: number;
  searchType: SearchType;
  /** The key as the API is sent it: CPF/CNPJ digits only (CNPJ letters upper case), CNJ punctuated, etc. */
  searchKey: string;
  /** The key as written in the file, trimmed. */
  rawKey: string;
  /** Query the court directly; default false (the service's database). */
  onDemand: boolean;
  /** Restrict the search to one instance (court degree); default: all instances. */
  lawsuitInstance?: number;
  /** Days a cached answer of the same search may be reused; default: the service's own. */
  cacheTtlInDays?: number;
  /** Free text carried along for the user; never sent to the API. */
  label?: string;
}

/** A line that cannot be used, for `rejected_inputs`. */
export interface Rejection {
  line: number;
  /** The raw line text (of an over-long line, its start), cut to 500 characters. */
  value: string;
  /** What was wrong, in words a user can act on. */
  reason: string;
}

/** A line that repeats an earlier search: it is not searched again. */
export interface Duplicate { line: number; firstLine: number; key: string }

export interface DocumentsList {
  /** The file name (or the name given to parseDocuments). */
  source: string;
  documents: DocumentSpec[];
  rejected: Rejection[];
  duplicates: Duplicate[];
  /** How the file was read: UTF-8 (the contract), or Windows-1252 when most of its lines are (encoding.ts). */
  encoding?: 'utf-8' | 'windows-1252';
  /** Things the user should know about the whole list, each a sentence (e.g. it was read as Windows-1252). */
  warnings?: string[];
}
