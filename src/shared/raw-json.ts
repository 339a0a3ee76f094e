// The bytes of a JSON value as the service sent them. JSON.parse changes what it cannot represent (an integer
// beyond 2^53 loses digits, 1e400 becomes Infinity and then null) and JSON.stringify recurses (a value nested
// some 5,000 deep throws RangeError), so the archive of what was received (responses_raw, lawsuits.raw) is
// sliced out of the text itself. Pure and iterative: any depth, any length, no recursion.
//
// The scanner assumes text JSON.parse accepted (the callers parse it too); on anything else it returns
// undefined rather than a wrong slice, and the caller falls back to re-serialising.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(t: string, i: number): number {
  while (i < t.length && isSpace(t.charCodeAt(i))) i++;
  return i;
}

/** Index just past the string starting at `i` (its opening quote), or -1. Long strings are crossed with indexOf. */
function skipString(t: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = t.indexOf('"', from);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; t.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** Index just past the value starting at `i` (no leading space), or -1. Nesting is counted, not recursed. */
export function skipValue(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === QUOTE) return skipString(t, i);
  if (c === LBRACE || c === LBRACKET) {
    let depth = 0;
    while (i < t.length) {
      const ch = t.charCodeAt(i);
      if (ch === QUOTE) {
        i = skipString(t, i);
        if (i < 0) return -1;
        continue;
      }
      if (ch === LBRACE || ch === LBRACKET) depth++;
      else if (ch === RBRACE || ch === RBRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  // a number, true, false or null: up to the next delimiter
  const start = i;
  while (i < t.length) {
    const ch = t.charCodeAt(i);
    if (ch === COMMA || ch === RBRACE || ch === RBRACKET || isSpace(ch)) break;
    i++;
  }
  return i > start ? i : -1;
}

/** The raw text of each member of the JSON object `text`, by key (a repeated key: the last, as JSON.parse does). */
export function objectMembers(text: string): Map<string, string> | undefined {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== LBRACE) return undefined;
  const out = new Map<string, string>();
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === RBRACE) return out;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return undefined;
    const keyText = text.slice(i, keyEnd);
    const key = keyText.includes('\\') ? (JSON.parse(keyText) as string) : keyText.slice(1, -1);
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    const start = skipSpace(text, i + 1);
    const end = skipValue(text, start);
    if (end < 0) return undefined;
    out.set(key, text.slice(start, end));
    i = skipSpace(text, end);
    const sep = text.charCodeAt(i);
    if (sep === RBRACE) return out;
    if (sep !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
}

/** The raw text of each element of the JSON array `text`. */
export function arrayElements(text: string): string[] | undefined {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== LBRACKET) return undefined;
  const out: string[] = [];
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === RBRACKET) return out;
  for (;;) {
    const end = skipValue(text, i);
    if (end < 0) return undefined;
    out.push(text.slice(i, end));
    i = skipSpace(text, end);
    const sep = text.charCodeAt(i);
    if (sep === RBRACKET) return out;
    if (sep !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
}

/** The raw text of each element of the top-level `page_data` array of a listing's body. */
export function pageDataElements(body: string): string[] | undefined {
  const data = objectMembers(body)?.get('page_data');
  return data === undefined ? undefined : arrayElements(data);
}

// Parsed values carry their raw text beside them, not inside them: the types callers see stay as they are,
// and the text goes when the value goes.
const RAW_TEXT = new WeakMap<object, string>();

/** Records `text` as the raw JSON `value` was parsed from. Returns `value`. */
export function rememberRawText<T>(value: T, text: string): T {
  if (typeof value === 'object' && value !== null) RAW_TEXT.set(value, text);
  return value;
}

/** The raw JSON text `value` was parsed from, when it came from the service; undefined for values built here. */
export function rawTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? RAW_TEXT.get(value) : undefined;
}
