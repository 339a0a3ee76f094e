// The documents list (CONTRACT.md): a CSV of searches. A line that cannot be used is rejected with its line
// number and a reason, and every other line still runs; only a file that cannot be read as a list at all
// (no search_key column, not UTF-8 at the header, UTF-16) stops the run.
import { readFile } from 'node:fs/promises';
import { EXIT, EtlError } from '../shared/errors.js';
import { parseCsv, type CsvItem } from './csv.js';
import { inferSearchType } from './infer.js';
import { normaliseKey } from './normalise.js';
import {
  INPUT_SEARCH_TYPES, isSearchType,
  type DocumentSpec, type DocumentsList, type Duplicate, type Rejection, type SearchType,
} from './types.js';

export type { DocumentSpec, DocumentsList, Duplicate, Rejection, SearchType } from './types.js';

/** Longest `value` kept for a rejected line, in characters. */
export const MAX_REJECTED_VALUE = 500;

const COLUMNS = ['search_key', 'search_type', 'on_demand', 'lawsuit_instance', 'cache_ttl_in_days', 'label'] as const;
type Column = (typeof COLUMNS)[number];

const TRUE = new Set(['true', '1', 'yes', 'sim', 'y', 's']);
const FALSE = new Set(['false', '0', 'no', 'nao', 'não', 'n', '']);

function usage(code: string, message: string, details: Record<string, unknown>): EtlError {
  return new EtlError(code, message, { exitCode: EXIT.usage, details });
}

/** Column name -> index, from the header record; unknown columns are ignored. */
function readHeader(fields: string[], source: string): Map<Column, number> {
  const names = fields.map((f) => f.trim().toLowerCase());
  const cols = new Map<Column, number>();
  names.forEach((name, i) => {
    if (!(COLUMNS as readonly string[]).includes(name)) return;
    if (cols.has(name as Column)) {
      throw usage('INPUT_DUPLICATE_COLUMN', `${source}: column "${name}" appears twice in the header`, { source, header: fields });
    }
    cols.set(name as Column, i);
  });
  if (!cols.has('search_key')) {
    throw usage('INPUT_NO_SEARCH_KEY',
      `${source}: the header has no search_key column (found: ${fields.map((f) => JSON.stringify(f.trim())).join(', ') || 'nothing'})`,
      { source, header: fields });
  }
  return cols;
}

function parseBool(v: string): boolean | undefined {
  const s = v.trim().toLowerCase();
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return undefined;
}

/** Non-negative integer written in decimal digits, or undefined. */
function parseCount(v: string): number | undefined {
  const s = v.trim();
  if (!/^\d{1,9}$/.test(s)) return undefined;
  return Number(s);
}

type LineResult = { ok: true; doc: DocumentSpec } | { ok: false; reasons: string[] };

/** One record of the list -> a document, or every reason it cannot be used. */
function readLine(line: number, fields: string[], cols: Map<Column, number>): LineResult {
  const get = (c: Column): string => {
    const i = cols.get(c);
    return i === undefined ? '' : (fields[i] ?? '');
  };
  const reasons: string[] = [];
  const rawKey = get('search_key').trim();
  let searchType: SearchType | undefined;
  let searchKey: string | undefined;

  const typeText = get('search_type').trim().toLowerCase();
  if (rawKey === '') {
    reasons.push('empty search_key');
  } else if (typeText !== '' && !isSearchType(typeText)) {
    reasons.push(`unknown search_type "${get('search_type').trim()}" (expected one of ${INPUT_SEARCH_TYPES.join(', ')}, or empty to infer it)`);
  } else {
    const inferred = inferSearchType(rawKey);
    searchType = typeText !== '' ? (typeText as SearchType) : inferred;
    if (searchType === undefined) {
      reasons.push('cannot tell the search type from the key (not a CPF, CNPJ, CNJ number, OAB, lawsuit id or name): fill in search_type');
    } else {
      const r = normaliseKey(searchType, rawKey);
      if (r.ok) searchKey = r.key;
      else {
        const hint = inferred !== undefined && inferred !== searchType ? ` (the key looks like ${inferred})` : '';
        reasons.push(`${r.reason}${hint}`);
      }
    }
  }

  const onDemand = parseBool(get('on_demand'));
  if (onDemand === undefined) reasons.push(`on_demand "${get('on_demand').trim()}" is not true/false, 1/0, yes/no or sim/nao`);

  let lawsuitInstance: number | undefined;
  const instText = get('lawsuit_instance').trim();
  if (instText !== '') {
    lawsuitInstance = parseCount(instText);
    if (lawsuitInstance === undefined || lawsuitInstance < 1) reasons.push(`lawsuit_instance "${instText}" is not a positive integer`);
  }

  let cacheTtlInDays: number | undefined;
  const ttlText = get('cache_ttl_in_days').trim();
  if (ttlText !== '') {
    cacheTtlInDays = parseCount(ttlText);
    if (cacheTtlInDays === undefined) reasons.push(`cache_ttl_in_days "${ttlText}" is not a non-negative integer (days)`);
  }

  if (reasons.length > 0 || searchType === undefined || searchKey === undefined) return { ok: false, reasons };
  const doc: DocumentSpec = { line, searchType, searchKey, rawKey, onDemand: onDemand ?? false };
  if (lawsuitInstance !== undefined) doc.lawsuitInstance = lawsuitInstance;
  if (cacheTtlInDays !== undefined) doc.cacheTtlInDays = cacheTtlInDays;
  const label = get('label').trim();
  if (label !== '') doc.label = label;
  return { ok: true, doc };
}

function rejection(line: number, raw: string, reason: string): Rejection {
  return { line, value: raw.replace(/\r?\n$/, '').slice(0, MAX_REJECTED_VALUE), reason };
}

/** Read a documents list from its bytes (or text). Throws an EtlError (exit 2) only when the whole file is unusable. */
export function parseDocuments(bytes: Uint8Array | string, source = 'documents.csv'): DocumentsList {
  if (typeof bytes !== 'string' && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw usage('INPUT_ENCODING', `${source} is UTF-16: save it as UTF-8`, { source });
  }
  const items: CsvItem[] = parseCsv(bytes);
  const list: DocumentsList = { source, documents: [], rejected: [], duplicates: [] };
  const headerAt = items.findIndex((it) => it.kind === 'error' || it.fields.some((f) => f.trim() !== ''));
  if (headerAt < 0) throw usage('INPUT_NO_SEARCH_KEY', `${source} is empty: it needs a header with a search_key column`, { source, header: [] });
  const header = items[headerAt];
  if (header.kind === 'error') {
    throw usage('INPUT_BAD_HEADER', `${source}: the header on line ${header.line} cannot be read: ${header.reason}`, { source, line: header.line });
  }
  const cols = readHeader(header.fields, source);
  const width = header.fields.length;
  const firstSeen = new Map<string, number>();

  for (const it of items.slice(headerAt + 1)) {
    if (it.kind === 'error') { list.rejected.push(rejection(it.line, it.raw, it.reason)); continue; }
    // Spreadsheets leave rows of empty cells (`,,,`) at the end: as blank as a blank line.
    if (it.fields.every((f) => f.trim() === '')) continue;
    const extra = it.fields.slice(width).filter((f) => f.trim() !== '');
    if (extra.length > 0) {
      list.rejected.push(rejection(it.line, it.raw,
        `line has ${it.fields.length} fields but the header has ${width} (quote a value that contains the delimiter)`));
      continue;
    }
    const r = readLine(it.line, it.fields, cols);
    if (!r.ok) { list.rejected.push(rejection(it.line, it.raw, r.reasons.join('; '))); continue; }
    const d = r.doc;
    // The same search asked twice costs twice and loads the same rows: run it once.
    const identity = JSON.stringify([d.searchType, d.searchKey, d.onDemand, d.lawsuitInstance ?? null]);
    const first = firstSeen.get(identity);
    if (first !== undefined) {
      list.duplicates.push({ line: d.line, firstLine: first, key: d.searchKey } satisfies Duplicate);
      continue;
    }
    firstSeen.set(identity, d.line);
    list.documents.push(d);
  }
  return list;
}

/** Read the documents list at `path`; a missing or unreadable file is a configuration error (exit 2). */
export async function readDocuments(path: string): Promise<DocumentsList> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new EtlError(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE',
      `documents list ${path} cannot be read${code ? ` (${code})` : ''}`, { exitCode: EXIT.usage, cause: e, details: { path } });
  }
  return parseDocuments(bytes, path);
}
