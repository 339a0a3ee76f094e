// Lenient normalisers for identifiers found in payloads (the lawsuit object is dynamic): total functions of
// any value, giving the same normal form as the strict parsers give the documents list's keys, so that a
// lawyer's OAB or a party's document in the warehouse equals the key a user searched for. Text that is not
// recognisable is kept as given, trimmed; a value that is not text (or is empty) is null.
import { cnjShape } from './cnj.js';
import { documentShape } from './cpf-cnpj.js';
import { parseOab } from './oab.js';

/** A payload value as trimmed text: strings, and finite numbers as JavaScript writes them; else null. */
function textOf(v: unknown): string | null {
  const s = typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
  if (s === null) return null;
  const t = s.trim();
  return t === '' ? null : t;
}

/**
 * A party's document: a CPF or CNPJ shape becomes its normal form (digits only, CNPJ letters upper case);
 * an OAB registration (a lawyer listed as a party carries one) becomes `<number><UF>[letter]`; anything else
 * (a masked `***.456.789-**`, a foreign id) is kept as given.
 */
export function normalizeDocument(v: unknown): string | null {
  const t = textOf(v);
  if (t === null) return null;
  const doc = documentShape(t);
  if (doc !== undefined) return doc;
  const oab = parseOab(t);
  return oab.ok ? oab.value : t;
}

/** A lawyer's OAB in its normal form `<number><UF>[letter]` (`SP123456`, `OAB/SP 123.456`, `DF0012345`); else as given. */
export function normalizeOab(v: unknown): string | null {
  const t = textOf(v);
  if (t === null) return null;
  const oab = parseOab(t);
  return oab.ok ? oab.value : t;
}

/** A CNJ number in its punctuated form whichever way its 20 digits are written; else as given. */
export function normalizeCnj(v: unknown): string | null {
  const t = textOf(v);
  if (t === null) return null;
  return cnjShape(t) ?? t;
}
