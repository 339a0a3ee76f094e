// Text from outside (the provider's error messages, file names, a documents list) may hold control characters:
// a NUL, an escape sequence that rewrites the terminal, a carriage return that hides the rest of a line. Before
// such text reaches a terminal, a log's human form or a report, every control character is shown as an escape.

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** The text with every control character written as `\u{XX}`, cut to `max` characters. */
export function printable(text: string, max = 2_000): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(CONTROL, (c) => `\\u{${c.charCodeAt(0).toString(16).padStart(2, '0')}}`);
}
