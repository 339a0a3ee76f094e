import type { Kind } from './kinds.js';

// What can go out on the wire: a key as a header value, a base address. Found at start-up, before the run: the
// HTTP stack would refuse either at the first call, or send something the provider does not know.

/**
 * Why a value cannot be an HTTP header value, or undefined. Only visible ASCII is accepted: a zero-width space,
 * a non-ASCII letter or a control character pasted with a key would either be refused by the HTTP stack at the
 * first call or sent as something the provider does not know; both are better found before the run starts.
 */
export function headerValueProblem(v: string): string | undefined {
  if (v.length === 0) return 'is empty';
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0x20 || c === 0x09) return `contains white space at character ${i + 1}`;
    if (c < 0x21 || c === 0x7f) return `contains a control character at character ${i + 1}`;
    if (c > 0x7e) return `contains a character outside visible ASCII (U+${c.toString(16).toUpperCase().padStart(4, '0')}) at character ${i + 1}`;
  }
  return undefined;
}

/** Why a base address cannot be used, or undefined. */
function addressProblem(v: string): string | undefined {
  if (headerValueProblem(v)) return 'is not an http(s) address (it has white space, control or non-ASCII characters)';
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'is not an http(s) address';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'is not an http(s) address';
  if (u.username || u.password) return 'carries credentials; give the key through LAWSUIT_API_KEY(_FILE) instead';
  if (u.search || u.hash) return 'has a query or fragment; give the base address only';
  return undefined;
}

/** An address fit to print: its user and password replaced, its query dropped. */
function redactAddress(v: string): string {
  return v.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1[redacted]@').replace(/\?.*$/s, '?[redacted]');
}

/** A base address of the service, its trailing slashes dropped; a refused one is shown redacted. */
export function baseAddress(): Kind<string> {
  return {
    parse: (t) => {
      const bad = addressProblem(t);
      return bad ? { why: [` ${bad}`], shown: redactAddress(t) } : { value: t.replace(/\/+$/, '') };
    },
  };
}

/**
 * The callback URL sent with every request and tracking: an http(s) address whose path carries the intake's secret,
 * so a refused one is shown with its path and query hidden.
 */
export function callbackAddress(): Kind<string> {
  return {
    parse: (t) => {
      const bad = headerValueProblem(t) ? 'has white space, control or non-ASCII characters' : (() => {
        try {
          const u = new URL(t);
          if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'is not an http(s) address';
          return u.username || u.password ? 'carries credentials' : undefined;
        } catch {
          return 'is not an http(s) address';
        }
      })();
      return bad ? { why: [` ${bad}`], shown: t.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#]*).*$/is, '$1/[redacted]') } : { value: t };
    },
  };
}
