// A lawsuit's instance (its court degree), part of its key in every table. The spec types it an integer; the
// provider's own documentation writes it as text (`"1ª INSTÂNCIA"`, `"2ª INSTÂNCIA"`: docs.judit.io,
// schemas/lawsuit-object), and its payloads have shown `"2"`. Each of those is the same instance: a payload that
// writes it so is loaded, not left in responses_raw for want of a key.

const MARKS = /[\u0300-\u036f]/g;

/** Ordinals written as words, feminine (instância) and masculine (grau). */
const WORDS: Readonly<Record<string, number>> = {
  PRIMEIRA: 1, PRIMEIRO: 1, SEGUNDA: 2, SEGUNDO: 2, TERCEIRA: 3, TERCEIRO: 3,
};

/** The largest instance a text may name: the degrees of Brazilian courts stop at the superior courts. */
const MAX_WRITTEN = 9;

/**
 * The instance a payload value names, or null: an integer (`2`, `"2"`), or a degree written as the documentation
 * writes it, in any case and with or without accents: `1ª INSTÂNCIA`, `2a instancia`, `1º grau`, `2° GRAU`,
 * `SEGUNDA INSTÂNCIA`, `primeiro grau`. A text naming anything else (`instância superior`, `3ª turma`) is null:
 * guessing a key would merge two lawsuits into one row.
 */
export function readInstance(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) <= 2_147_483_647 ? v : null;
  if (typeof v !== 'string' || v.trim() === '') return null;
  // A number written as text, as the warehouse has always read one (`"2"`, `" 2 "`, `"2.0"`).
  const n = Number(v);
  if (!Number.isNaN(n)) return readInstance(n);
  const s = v.normalize('NFD').replace(MARKS, '').toUpperCase().replace(/\s+/g, ' ').trim();
  const ordinal = /^(\d)\s*(?:[.ªºAO°]\s*){0,2}(?:INSTANCIA|GRAU)$/.exec(s);
  if (ordinal) return Number(ordinal[1]) >= 1 && Number(ordinal[1]) <= MAX_WRITTEN ? Number(ordinal[1]) : null;
  const word = /^([A-Z]+) (?:INSTANCIA|GRAU)$/.exec(s);
  return word ? WORDS[word[1]] ?? null : null;
}
