// One key form per search type, so that duplicates are found and the API always gets what it expects. The
// identifiers themselves are read by src/spec/identifiers.ts; names and lawsuit ids are the list's own.
// The reasons are written for the person who keeps the documents list.
import { parseCnj, parseCnpj, parseCpf, parseOab, type Parsed } from '../spec/identifiers.js';
import { UUID } from './infer.js';
import { formulaPrefix, unsafeCharacter } from './text-safety.js';
import type { SearchType } from './types.js';

type NormaliseResult = { ok: true; key: string } | { ok: false; reason: string };

/**
 * Longest name searched, in characters. Long company names run to some 150 characters; anything far longer
 * is a pasted paragraph or an attack, and every search is paid.
 */
const MAX_NAME_LENGTH = 300;

const fail = (reason: string): NormaliseResult => ({ ok: false, reason });
const asKey = (r: Parsed): NormaliseResult => (r.ok ? { ok: true, key: r.value } : r);

function name(raw: string): NormaliseResult {
  const n = raw.trim().replace(/\s+/g, ' ');
  const prefix = formulaPrefix(n);
  if (prefix !== undefined) {
    return fail(`name starts with "${prefix}", as a spreadsheet formula does, and no name does: remove it (or fill in the name the formula showed)`);
  }
  if (!/\p{L}/u.test(n)) return fail('name has no letters');
  const length = [...n].length;
  if (length > MAX_NAME_LENGTH) return fail(`name has ${length} characters, more than the ${MAX_NAME_LENGTH} a name searched may have`);
  return { ok: true, key: n };
}

function lawsuitId(raw: string): NormaliseResult {
  const k = raw.trim();
  if (!UUID.test(k)) return fail('lawsuit_id must be a UUID (8-4-4-4-12 hexadecimal digits)');
  return { ok: true, key: k.toLowerCase() };
}

/** The key in the one form the warehouse and the API use for its search type, or why it cannot be used. */
export function normaliseKey(type: SearchType, key: string): NormaliseResult {
  if (key.trim() === '') return fail('empty search_key');
  // Before any other reading: a NUL or an invisible character would be paid for as part of the key.
  const unsafe = unsafeCharacter(key.trim());
  if (unsafe !== undefined) return fail(`search_key contains ${unsafe}: remove it`);
  switch (type) {
    case 'cpf': return asKey(parseCpf(key));
    case 'cnpj': return asKey(parseCnpj(key));
    case 'lawsuit_cnj': return asKey(parseCnj(key));
    case 'oab': return asKey(parseOab(key));
    case 'name': return name(key);
    case 'lawsuit_id': return lawsuitId(key);
  }
}
