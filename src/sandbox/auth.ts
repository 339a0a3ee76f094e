// api-key authentication with the spec's exact 401 and 403 bodies. Keys never appear in a message.

interface AuthKeys {
  apiKeys: string[];
  noPermissionKeys: string[];
  overQuotaKeys: string[];
}

type AuthResult = { ok: true; key: string } | { ok: false; status: 401 | 403; body: Record<string, unknown> };

export function authenticate(header: string | string[] | undefined, keys: AuthKeys): AuthResult {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') {
    return { ok: false, status: 401, body: { error: 'Unauthorized', message: 'Missing api-key header', code: 'INVALID_API_KEY' } };
  }
  const key = value.trim();
  if (keys.apiKeys.includes(key)) return { ok: true, key };
  if (keys.noPermissionKeys.includes(key)) {
    return { ok: false, status: 403, body: { error: 'Forbidden', message: 'This API key has no permission for this resource', code: 'INSUFFICIENT_PERMISSIONS' } };
  }
  if (keys.overQuotaKeys.includes(key)) {
    return { ok: false, status: 403, body: { error: 'Forbidden', message: 'Usage limit exceeded for this API key', code: 'INSUFFICIENT_PERMISSIONS' } };
  }
  return { ok: false, status: 401, body: { error: 'Unauthorized', message: 'Invalid or expired API key', code: 'INVALID_API_KEY' } };
}
