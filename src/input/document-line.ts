// One record of the documents list -> a search, or every reason it cannot be one. Pure.
import { quoted } from '../spec/identifiers.js';
import { inferSearchType } from './infer.js';
import { normaliseKey } from './normalise.js';
import { OPTION_COLUMNS, readSearchOptions } from './search-options.js';
import { formulaPrefix, neutralise, unsafeCharacter } from './text-safety.js';
import { SEARCH_TYPES, isSearchType, type DocumentSpec, type SearchType } from './types.js';

export const COLUMNS = ['search_key', 'search_type', 'on_demand', 'lawsuit_instance', 'cache_ttl_in_days', 'label', ...OPTION_COLUMNS] as const;
export type Column = (typeof COLUMNS)[number];

const TRUE = new Set(['true', '1', 'yes', 'sim', 'y', 's']);
const FALSE = new Set(['false', '0', 'no', 'nao', 'não', 'n', '']);

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

/** A usable line, and the option columns it filled that its search type does not use (left out of its request). */
type LineResult = { ok: true; doc: DocumentSpec; unused: string[] } | { ok: false; reasons: string[] };

/** The search key's type and normal form, or why there is none. */
function readKey(rawKey: string, typeCell: string): { type: SearchType; key: string } | { reason: string } {
  const typeText = typeCell.trim().toLowerCase();
  if (rawKey === '') return { reason: 'empty search_key' };
  if (typeText !== '' && !isSearchType(typeText)) {
    return { reason: `unknown search_type ${quoted(typeCell.trim())} (expected one of ${SEARCH_TYPES.join(', ')}, or empty to infer it)` };
  }
  // Before inference: a key with a NUL or a formula prefix would otherwise get the vaguer "cannot tell".
  const unsafe = unsafeCharacter(rawKey);
  if (unsafe !== undefined) return { reason: `search_key contains ${unsafe}: remove it` };
  const inferred = inferSearchType(rawKey);
  const type = typeText !== '' ? (typeText as SearchType) : inferred;
  if (type === undefined) {
    const prefix = formulaPrefix(rawKey);
    if (prefix !== undefined) return { reason: `search_key starts with "${prefix}", as a spreadsheet formula does: write the value itself` };
    return { reason: 'cannot tell the search type from the key (not a CPF, CNPJ, CNJ number, OAB, lawsuit id or name): fill in search_type' };
  }
  const r = normaliseKey(type, rawKey);
  if (r.ok) return { type, key: r.key };
  const hint = inferred !== undefined && inferred !== type ? ` (the key looks like ${inferred})` : '';
  return { reason: `${r.reason}${hint}` };
}

/** One record of the list -> a document, or every reason it cannot be used. */
export function readLine(line: number, fields: string[], cols: ReadonlyMap<Column, number>): LineResult {
  const get = (c: Column): string => {
    const i = cols.get(c);
    return i === undefined ? '' : (fields[i] ?? '');
  };
  const reasons: string[] = [];
  const rawKey = get('search_key').trim();
  const key = readKey(rawKey, get('search_type'));
  if ('reason' in key) reasons.push(key.reason);

  const onDemand = parseBool(get('on_demand'));
  if (onDemand === undefined) reasons.push(`on_demand ${quoted(get('on_demand').trim())} is not true/false, 1/0, yes/no or sim/nao`);

  let lawsuitInstance: number | undefined;
  const instText = get('lawsuit_instance').trim();
  if (instText !== '') {
    lawsuitInstance = parseCount(instText);
    if (lawsuitInstance === undefined || lawsuitInstance < 1) reasons.push(`lawsuit_instance ${quoted(instText)} is not a positive integer`);
  }

  let cacheTtlInDays: number | undefined;
  const ttlText = get('cache_ttl_in_days').trim();
  if (ttlText !== '') {
    cacheTtlInDays = parseCount(ttlText);
    if (cacheTtlInDays === undefined) reasons.push(`cache_ttl_in_days ${quoted(ttlText)} is not a non-negative integer (days)`);
  }

  const { options, reasons: optionReasons, unused } = readSearchOptions('reason' in key ? undefined : key.type, get);
  reasons.push(...optionReasons);

  if (reasons.length > 0 || 'reason' in key) return { ok: false, reasons };
  const doc: DocumentSpec = { line, searchType: key.type, searchKey: key.key, rawKey, onDemand: onDemand ?? false };
  if (lawsuitInstance !== undefined) doc.lawsuitInstance = lawsuitInstance;
  if (cacheTtlInDays !== undefined) doc.cacheTtlInDays = cacheTtlInDays;
  Object.assign(doc, options);
  // A label is the user's own free text, never sent: its control characters are neutralised, not refused.
  const label = neutralise(get('label'));
  if (label !== '') doc.label = label;
  return { ok: true, doc, unused };
}
