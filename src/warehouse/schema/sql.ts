/** A quoted SQL identifier. */
export const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** A SQL string literal. */
export const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;
