// What the identifier parsers return, and the few text rules they share.

/** A parser's answer: the identifier's one normal form, or why the text is not that identifier. */
export type Parsed = { ok: true; value: string } | { ok: false; reason: string };

export const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** Separators people and payloads put in identifiers: `092.065.297-22`, `12.ABC.345/01DE-35`, `0710802-55.2018.8.02.0001`. */
const PUNCTUATION = /[\s./-]/g;

/** Remove the separators; other characters are kept so that a shape check can still see them. */
export function stripPunctuation(text: string): string {
  return text.replace(PUNCTUATION, '');
}

/** True when every character is the same one (`00000000000`): such a CPF or CNPJ computes but is never issued. */
export function allSameChar(s: string): boolean {
  return s.length > 0 && [...s].every((c) => c === s[0]);
}

/** Longest piece of someone's text a reason quotes: a reason is read on a terminal, not a copy of the input. */
const QUOTED_MAX = 40;

/**
 * Text quoted inside a reason: in double quotes, control and invisible characters escaped as `\u{..}`, cut to
 * 40 characters with an ellipsis, so that a reason never carries a terminal escape or a megabyte of input.
 */
export function quoted(text: string): string {
  const chars = [...text];
  const cut = chars.length > QUOTED_MAX ? [...chars.slice(0, QUOTED_MAX), '…'] : chars;
  return `"${cut.map((c) => (/[\p{Cc}\p{Cf}\p{Cs}]/u.test(c) ? `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}` : c)).join('')}"`;
}
