// Error bodies in the dialect's form. Routes write the spec's bodies (`{error: {name, message, data}}`, or
// the spec's `{error: 'Unauthorized', message, code}` for 401, 403 and 429); the documented dialect names
// every error by its HTTP status instead (HttpBadRequestError, ...), keeps the message and the reasons, and
// gives the spec's `code` as `data`: the string USER_NOT_FOUND for a key it does not know (the one example
// the documentation shows of a string `data`), else a one-item array.

import type { Dialect } from './dialect.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function dialectError(d: Dialect, status: number, body: unknown): unknown {
  if (!d.errorNames || status < 400) return body;
  const b = isObj(body) ? body : {};
  const inner = isObj(b.error) ? b.error : undefined;
  const message = typeof inner?.message === 'string' ? inner.message : typeof b.message === 'string' ? b.message : '';
  const data = inner ? (inner.data ?? [])
    : b.code === 'INVALID_API_KEY' ? 'USER_NOT_FOUND'
    : typeof b.code === 'string' ? [b.code] : [];
  const name = d.errorNames[status] ?? (status >= 500 ? 'HttpInternalServerError' : 'HttpError');
  return { error: { name, message, data } };
}
