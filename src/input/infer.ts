// When the documents list leaves search_type empty, the key's shape decides. Shapes do not overlap:
// digit-only keys are told apart by length (11 CPF, 14 CNPJ, 20 CNJ), an alphanumeric CNPJ is 14
// characters ending in two digits, an OAB is a UF next to at most 8 digits, a name has no digits at all.
import { looksLikeOab, stripPunctuation } from '../spec/identifiers.js';
import type { SearchType } from './types.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DIGITS_AND_PUNCTUATION = /^[\d\s./-]+$/;
const ALNUM_AND_PUNCTUATION = /^[0-9A-Za-z\s./-]+$/;
/** Letters (any script, with accents), spaces and the marks found in person and company names. */
const NAME = /^(?=.*\p{L})[\p{L}\p{M}\s.,'’&-]+$/u;

/** The search type a key's shape implies, or undefined when the shape is none of them. */
export function inferSearchType(key: string): SearchType | undefined {
  const k = key.trim();
  if (k === '') return undefined;
  if (UUID.test(k)) return 'lawsuit_id';
  const c = stripPunctuation(k);
  if (DIGITS_AND_PUNCTUATION.test(k)) {
    if (c.length === 11) return 'cpf';
    if (c.length === 14) return 'cnpj';
    if (c.length === 20) return 'lawsuit_cnj';
  }
  if (ALNUM_AND_PUNCTUATION.test(k) && /^[0-9A-Z]{12}\d{2}$/i.test(c)) return 'cnpj';
  if (looksLikeOab(k)) return 'oab';
  if (NAME.test(k)) return 'name';
  return undefined;
}
