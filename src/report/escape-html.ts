import { printable } from '../shared/printable.js';

// Every text in the HTML report that came from outside — the provider's messages and values, a documents
// list's lines, file names — goes through here: control characters are shown as escapes (printable.ts), so a
// carriage return or an escape sequence cannot hide part of a line, and the five characters that HTML gives a
// meaning are written as entities, so a value can never open a tag or end an attribute.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text (or a number) safe as HTML text or as a quoted attribute's value, cut to `max` characters. */
export function escapeHtml(text: string | number, max = 2_000): string {
  return printable(String(text), max).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
