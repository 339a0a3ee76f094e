// One key form per search type, so that duplicates are found and the API always gets what it expects.
// The reasons are written for the person who keeps the documents list.
import { cnjBase, cnjCheckDigits, cnpjCheckDigits, cpfCheckDigits, formatCnj, stripPunctuation } from './check-digits.js';
import { UUID } from './infer.js';
import { parseOab } from './oab.js';
import type { SearchType } from './types.js';

export type NormaliseResult = { ok: true; key: string } | { ok: false; reason: string };

const fail = (reason: string): NormaliseResult => ({ ok: false, reason });

function allSame(s: string): boolean {
  return [...s].every((ch) => ch === s[0]);
}

function cpf(raw: string): NormaliseResult {
  const c = stripPunctuation(raw);
  if (!/^\d+$/.test(c)) return fail('CPF has characters other than digits and punctuation');
  if (c.length !== 11) return fail(`CPF must have 11 digits, got ${c.length}`);
  if (allSame(c)) return fail('CPF with all digits equal is not a valid CPF');
  const expected = cpfCheckDigits(c.slice(0, 9));
  if (expected !== c.slice(9)) return fail(`CPF check digits do not match (expected ${expected}, got ${c.slice(9)})`);
  return { ok: true, key: c };
}

function cnpj(raw: string): NormaliseResult {
  const c = stripPunctuation(raw).toUpperCase();
  if (!/^[0-9A-Z]+$/.test(c)) return fail('CNPJ has characters other than letters, digits and punctuation');
  if (c.length !== 14) return fail(`CNPJ must have 14 characters, got ${c.length}`);
  if (!/\d{2}$/.test(c)) return fail('CNPJ must end in two check digits');
  if (allSame(c)) return fail('CNPJ with all digits equal is not a valid CNPJ');
  const expected = cnpjCheckDigits(c.slice(0, 12));
  if (expected !== c.slice(12)) return fail(`CNPJ check digits do not match (expected ${expected}, got ${c.slice(12)})`);
  return { ok: true, key: c };
}

function cnj(raw: string): NormaliseResult {
  const c = stripPunctuation(raw);
  if (!/^\d+$/.test(c)) return fail('CNJ number has characters other than digits and punctuation');
  if (c.length !== 20) return fail(`CNJ number must have 20 digits, got ${c.length}`);
  const expected = cnjCheckDigits(cnjBase(c));
  if (expected !== c.slice(7, 9)) return fail(`CNJ check digits do not match (expected ${expected}, got ${c.slice(7, 9)})`);
  return { ok: true, key: formatCnj(c) };
}

function name(raw: string): NormaliseResult {
  const n = raw.trim().replace(/\s+/g, ' ');
  if (!/\p{L}/u.test(n)) return fail('name has no letters');
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
  switch (type) {
    case 'cpf': return cpf(key);
    case 'cnpj': return cnpj(key);
    case 'lawsuit_cnj': return cnj(key);
    case 'oab': {
      const r = parseOab(key);
      return r.ok ? { ok: true, key: r.key } : r;
    }
    case 'name': return name(key);
    case 'lawsuit_id': return lawsuitId(key);
  }
}
