// A secret the upstream echoes back: the API key inside a lawsuit's name, a crawler's source name, an error
// body, any text of an answer or of a transfer file. What the tool stores, exports or logs must never hold it,
// in any form it may come back in.

/** What a secret's every form is replaced by. */
export const REDACTED = '[redacted]';

/**
 * The forms `secret` may come back in: as it is, escaped inside a JSON string (with `/` escaped too, as some
 * writers do), and percent-encoded in an address. Each distinct, longest first (so that no form is cut by
 * another's replacement).
 */
export function echoFormsOf(secret: string): string[] {
  if (secret === '') return [];
  const inJson = JSON.stringify(secret).slice(1, -1);
  return [...new Set([secret, inJson, inJson.replace(/\//g, '\\/'), encodeURIComponent(secret)])].sort((a, b) => b.length - a.length);
}

/** `text` with every one of `forms` replaced by REDACTED; the same string when none is in it. */
export function withoutEchoes(text: string, forms: readonly string[]): string {
  let out = text;
  for (const f of forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
  return out;
}
