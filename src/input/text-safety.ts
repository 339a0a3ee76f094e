// Text from a documents list that must not reach a paid search or a person's screen as it is: control
// characters (a NUL, a terminal escape), invisible ones (a zero-width space, a bidi override), the mark of a
// character lost in an earlier conversion (U+FFFD), and the formula prefixes spreadsheets execute.

/** Whitespace controls: around a value they are trimmed, inside a name they are spacing (docs/dialect-and-spec-gaps.md, "Spec gaps"). */
const SPACING = /[\t\n\v\f\r]/;
/** Controls, invisible format characters, lone surrogates and the replacement character. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\uFFFD]/u;
const UNSAFE_ALL = /[\p{Cc}\p{Cf}\p{Cs}\uFFFD]+/gu;
/** One pass over the whole text first: keys are nearly always clean, and a test per character costs. */
const ANY_UNSAFE = /(?![\t\n\v\f\r])[\p{Cc}\p{Cf}\p{Cs}\uFFFD]/u;

function describe(c: string): string {
  const cp = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  if (c === '\0') return `a NUL character (${cp})`;
  if (c === '\uFFFD') return `${cp}, the mark of a character lost when the file was converted between encodings`;
  if (/\p{Cc}/u.test(c)) return `the control character ${cp}`;
  return `the invisible character ${cp}`;
}

/**
 * Why a search key cannot be sent as written, or undefined when it can: the first unsafe character and its
 * position (1-based, in characters). Whitespace controls (tab, CR, LF) are not unsafe: they are spacing.
 */
export function unsafeCharacter(text: string): string | undefined {
  if (!ANY_UNSAFE.test(text)) return undefined;
  let i = 0;
  for (const c of text) {
    i++;
    if (UNSAFE.test(c) && !SPACING.test(c)) return `${describe(c)} at character ${i}`;
  }
  return undefined;
}

/** Characters a spreadsheet reads as the start of a formula (OWASP, CSV injection); no name starts with one. */
const FORMULA_PREFIX = /^[=+\-@]/;

/** The formula prefix a trimmed text starts with, or undefined. */
export function formulaPrefix(text: string): string | undefined {
  return FORMULA_PREFIX.exec(text)?.[0];
}

/** Free text for people (a label): every run of unsafe characters becomes one space, then trimmed. */
export function neutralise(text: string): string {
  return text.replace(UNSAFE_ALL, ' ').trim();
}
