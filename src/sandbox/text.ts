// Text normalisation shared by the sandbox's lookups: names match case- and accent-insensitively
// (docs/dialect-and-spec-gaps.md, "Spec gaps"), documents match digits-only (CNPJ keeps letters, upper case).

export function normalizeName(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** CPF/CNPJ key to its stored form: digits only, alphanumeric CNPJ letters upper case. */
export function normalizeDocument(s: string): string {
  return s.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

/** OAB key to `<number without leading zeros><UF>[letter]`, or undefined when it has no such shape. */
export function normalizeOab(s: string): string | undefined {
  const t = s.toUpperCase().replace(/^\s*OAB\s*[/:-]?\s*/, '').replace(/[\s./-]/g, '');
  let m = /^([A-Z]{2})0*(\d{1,7})([A-Z]?)$/.exec(t);
  if (m) return `${Number(m[2])}${m[1]}${m[3]}`;
  m = /^0*(\d{1,7})([A-Z]{2})([A-Z]?)$/.exec(t);
  if (m) return `${Number(m[1])}${m[2]}${m[3]}`;
  return undefined;
}
